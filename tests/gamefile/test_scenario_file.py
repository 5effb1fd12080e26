"""A scenario is a file: exported from a game, loaded back, equal; checked by the shipped JSON Schema; refused
with every problem named in the user's language."""
import copy
import io
import json
import zipfile

import jsonschema
import pytest
import yaml
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from larp.campaign.models import Game
from larp.scenarios import ScenarioError, available, files, load, validate
from larp.scenarios.export import scenario_of
from larp.scenarios.loader import create_game
from larp.scenarios.validate import SCHEMA_PATH


def same(data: dict) -> dict:
    """A scenario with its borders as unordered pairs (the database keeps each border once, either way)."""
    return {**data, "adjacency": [sorted(pair) for pair in data["adjacency"]]}


@pytest.mark.parametrize("name", available())
def test_the_shipped_scenarios_pass_the_json_schema(name):
    jsonschema.validate(load(name), json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


@pytest.mark.parametrize("suffix", [".yaml", ".zip"])
def test_the_built_in_scenario_loaded_exported_and_imported_is_equal(db, tmp_path, suffix):
    original = load("latin-east-1204")
    game = create_game(original, title="Original", seed=1)
    exported = scenario_of(game)
    assert same(exported) == same(original)
    path = tmp_path / f"latin{suffix}"
    call_command("export_scenario", game.title, "-o", str(path), stdout=io.StringIO())
    if suffix == ".zip":
        assert zipfile.ZipFile(path).namelist() == ["scenario.yaml"]
    call_command("load_scenario", str(path), "--game", "Copy", stdout=io.StringIO())
    copy_ = Game.objects.get(title="Copy")
    assert same(scenario_of(copy_)) == same(original)
    assert copy_.scenario_header == {"name_ru": original["scenario"]["name_ru"],
                                     "name_en": original["scenario"]["name_en"], "year": 1205}


def test_a_zip_carries_its_map_picture_and_nothing_else(tmp_path):
    data = load("tiny")
    raw = files.pack_zip(data, ("map.png", b"\x89PNG\r\n\x1a\n" + b"0" * 64))
    read, picture = files.parse_zip(raw, "tiny.zip")
    assert read["scenario"]["map"] == "map.png" and picture[0] == "map.png"
    assert validate(read) == []
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("scenario.yaml", files.dump_yaml(data))
        z.writestr("../evil.sh", "rm -rf /")
    with pytest.raises(ScenarioError, match="does not name"):
        files.parse_zip(buf.getvalue(), "evil.zip")


def test_two_provinces_on_the_same_point_are_refused():
    data = copy.deepcopy(load("tiny"))
    data["provinces"][1]["lat"], data["provinces"][1]["lon"] = data["provinces"][0]["lat"], data["provinces"][0]["lon"]
    problems = validate(data)
    assert [p.where for p in problems] == [f"provinces {data['provinces'][1]['id']}"]
    assert "same point as " + data["provinces"][0]["id"] in str(problems[0])


def test_a_misspelt_key_is_refused_by_the_schema_naming_the_place_in_russian():
    data = copy.deepcopy(load("tiny"))
    data["provinces"][0]["fortres"] = True
    data["factions"][0]["armies"][0]["commandr"] = []
    problems = validate(data)
    assert {p.where for p in problems} == {f"provinces {data['provinces'][0]['id']}",
                                          f"factions {data['factions'][0]['id']} army 1"}
    with translation.override("ru"):
        text = "\n".join(p.localized() for p in problems)
    assert "неизвестный ключ fortres" in text and "армия 1" in text, text


def test_load_scenario_checks_a_file_and_speaks_russian(db, tmp_path):
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(files.dump_yaml(load("tiny")), encoding="utf-8")
    out = io.StringIO()
    call_command("load_scenario", str(good), "--game", "x", "--check", stdout=out)
    assert not Game.objects.exists() and out.getvalue().strip()
    data = load("tiny")
    data["provinces"][0]["owner"] = "nobody"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with translation.override("ru"), pytest.raises(CommandError) as exc:
        call_command("load_scenario", str(bad), "--game", "x", "--check")
    assert "владелец 'nobody' — не фракция" in str(exc.value), str(exc.value)
    assert not Game.objects.exists()


@pytest.mark.parametrize("raw, words", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "not a text file"),
    (b"a: " + b"[" * 5000, "nested more than"),
    (b"scenario: [unclosed", "line 1"),
    (b"PK\x03\x04broken", "damaged"),
])
def test_an_uploaded_file_that_is_no_scenario_is_refused_in_one_line(raw, words):
    with pytest.raises(ScenarioError, match=words) as exc:
        files.parse(raw, "upload")
    assert len(exc.value.problems) == 1
