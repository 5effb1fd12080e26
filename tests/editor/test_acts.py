"""The editor's acts on a draft: each one change, a stale page changes nothing."""
import io

import pytest
from django.utils import translation
from PIL import Image

from larp.editor import acts, services
from larp.scenarios import picture
from larp.editor.models import ScenarioDraft
from larp.scenarios import validate


def _png(w=800, h=600) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (w, h), (200, 220, 240)).save(out, "PNG")
    return out.getvalue()


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.fixture
def draft(db):
    return services.new_draft(None, "Проба")


def _act(draft, name, **fields):
    draft.refresh_from_db()
    out = services.act(draft.pk, draft.version, name, fields)
    assert not out.error, out.error
    return out


def test_places_borders_and_a_faction_make_a_valid_scenario(draft):
    a = _act(draft, "add_place", x=100, y=100).shown
    b = _act(draft, "add_place", x=300, y=120).shown
    sea = _act(draft, "add_place", x=200, y=400, domain="sea").shown
    _act(draft, "rename_place", place=a, name_ru="Северная марка", name_en="North March")
    _act(draft, "border", a=a, b=b)
    _act(draft, "border", a=a, b=sea)
    _act(draft, "add_faction", name_ru="Север", name_en="North")
    draft.refresh_from_db()
    fid = draft.data["factions"][0]["id"]
    _act(draft, "set_place", place=a, domain="land", owner=fid, fortress="on", capital="on")
    _act(draft, "add_unit", faction=fid, kind="army", place=a)
    _act(draft, "set_unit", faction=fid, kind="army", number=1, place=a, count_infantry=3)
    draft.refresh_from_db()
    assert validate(draft.data) == []
    north = draft.data["factions"][0]
    assert north["capital"] == a and north["armies"][0]["troops"] == ["infantry"] * 3
    assert draft.data["provinces"][0]["name_ru"] == "Северная марка"
    # Clicking the same two places again takes the border away.
    _act(draft, "border", a=b, b=a)
    draft.refresh_from_db()
    assert [a, b] not in draft.data["adjacency"] and [a, sea] in draft.data["adjacency"]


def test_a_stale_version_is_refused_and_nothing_is_lost(draft):
    version = draft.version
    first = services.act(draft.pk, version, "add_place", {"x": 10, "y": 10})
    again = services.act(draft.pk, version, "add_place", {"x": 10, "y": 10})  # the same click twice
    assert not first.error and "not made" in again.error
    draft.refresh_from_db()
    assert len(draft.data["provinces"]) == 1 and draft.version == version + 1


def test_a_wrong_field_is_refused_with_a_sentence(draft):
    out = services.act(draft.pk, draft.version, "add_place", {"x": "a", "y": 1})
    assert out.error == "Click on the map to place it."
    out = services.act(draft.pk, draft.version, "add_place", {"x": 5000, "y": 1})
    assert "outside the map" in out.error
    draft.refresh_from_db()
    assert draft.data["provinces"] == [] and draft.version == 1


def test_a_picture_is_re_encoded_and_sets_the_size(draft):
    out = services.set_picture(draft.pk, draft.version, _png(), "map.png")
    assert not out.error
    assert (out.draft.picture_width, out.draft.picture_height) == (800, 600)
    assert out.draft.data["scenario"]["map_size"] == [800, 600] and bytes(out.draft.picture)[:4] == b"\x89PNG"


@pytest.mark.parametrize("svg, word", [
    (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script></svg>', "script"),
    (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"/>', "onload"),
    (b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'
     b'<image x:href="http://evil.example/a.png"/></svg>', "evil.example"),
    (b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect style="fill:url(http://e.x/a)"/></svg>',
     "outside"),
])
def test_an_svg_with_a_script_or_an_outside_reference_is_refused(svg, word):
    with pytest.raises(picture.PictureError) as exc:
        picture.read(svg, "map.svg")
    assert word in str(exc.value)


def test_a_clean_svg_is_taken_with_its_size():
    body, kind, w, h = picture.read(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480">'
                                    b'<path d="M0 0L10 10" fill="#fff"/></svg>', "map.svg")
    assert (kind, w, h) == ("svg", 640, 480) and b"<path" in body


def test_not_a_picture_is_refused():
    with pytest.raises(picture.PictureError):
        picture.read(b"GIF89a" + b"\0" * 100, "map.gif")


def test_export_and_import_keep_the_draft_and_its_picture(draft):
    services.set_picture(draft.pk, draft.version, _png(), "map.png")
    _act(draft, "add_place", x=50, y=60)
    draft.refresh_from_db()
    name, body, _type = services.export(draft)
    assert name.endswith(".zip")
    again = services.import_file(None, body, name)
    assert again.data["provinces"] == draft.data["provinces"] and again.picture_width == 800
    assert ScenarioDraft.objects.count() == 2


def test_slugs_are_ids():
    assert acts.slug("Северная марка") == "severnaya_marka"
    assert acts.slug("12 Rome") == "rome"


def test_the_loss_table_and_specials_are_edited_as_yaml_and_checked(draft):
    from larp.scenarios import load

    tiny = load("tiny")
    draft.data = {**tiny, "rules": {**tiny.get("rules", {}), "army_max_men": 50000}}
    draft.save()
    text = acts.rules_text(draft.data)
    assert "army_max_men" not in text
    out = services.act(draft.pk, draft.version, "set_rules_text",
                       {"rules_text": "band_upper_bounds: [5, 3]\nlosses: {tie: [1]}\n"})
    assert not out.error and out.draft.data["rules"]["army_max_men"] == 50000
    assert any("increasing whole numbers" in str(p) for p in validate(out.draft.data))
    bad = services.act(draft.pk, out.draft.version, "set_rules_text", {"rules_text": "losses: [1, 2"})
    assert "not valid YAML" in bad.error
    again = services.act(draft.pk, out.draft.version, "set_rules_text", {"rules_text": "army_max_men: 3"})
    assert "own fields" in again.error


def test_relations_at_the_start_are_checked_made_into_the_game_and_exported(draft):
    from larp.campaign.models import Relation
    from larp.scenarios import load
    from larp.scenarios.export import scenario_of

    draft.data = load("tiny")
    draft.save()
    _act(draft, "add_relation", kind="alliance", a="north", b="south")
    _act(draft, "add_relation", kind="passage", a="east", b="north")
    draft.refresh_from_db()
    refused = services.act(draft.pk, draft.version, "add_relation", {"kind": "alliance", "a": "east", "b": "east"})
    assert "two different factions" in refused.error
    assert validate(draft.data) == []
    twice = {**draft.data, "relations": draft.data["relations"] + [{"kind": "alliance", "factions": ["south", "north"]}]}
    assert any("the same relation" in str(p) for p in validate(twice))
    game = services.make_game(None, draft.pk, "С союзом")
    kinds = sorted(Relation.objects.filter(game=game).values_list("kind", "from_faction__code", "to_faction__code"))
    assert kinds == [("alliance", "north", "south"), ("passage", "east", "north")]
    assert scenario_of(game)["relations"] == draft.data["relations"]
    _act(draft, "delete_relation", index=0)
    _act(draft, "delete_faction", faction="east")
    draft.refresh_from_db()
    assert "relations" not in draft.data
