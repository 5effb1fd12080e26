"""The map on paper: one landscape page on A4 or A3; the moderators' copy lists every army and fleet and its place,
a faction's copy what its own stacks hold and nothing of anyone else's (R13); a past turn as it stood then."""
import io

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from larp.campaign.models import Province
from larp.forces.models import Army, Commander, Fleet, TroopCard
from larp.sheets import services
from larp.sheets.models import PrintJob
from larp.turns.models import Turn
from larp.turns.situation import case_from_game
from tests.sheets.pdf import pdf_pages, squash
from tests.tablet.conftest import SOUTH_SECRET_COMMANDER, SOUTH_SECRET_TROOP, south_secrets  # noqa: F401

HTMX = {"HTTP_HX_REQUEST": "true"}
POINTS = {"a4": (841.89, 595.28), "a3": (1190.55, 841.89)}  # landscape: width, height


@pytest.fixture(autouse=True)
def russian():
    with translation.override("ru"):
        yield


def render(game, kind, **params) -> bytes:
    return services.render_document(game, kind, params)[2]


def text_of(content: bytes) -> str:
    (page,) = pdf_pages(content)
    return squash(page)


def cards_held(faction) -> set[str]:
    """The names of the troop types in a faction's armies, fleets and garrisons."""
    cards = TroopCard.objects.filter(game=faction.game).select_related("troop_type")
    held = set()
    for card in cards:
        if (card.army and card.army.faction_id == faction.pk) or (card.fleet and card.fleet.faction_id == faction.pk) \
                or (card.garrison and card.garrison.owner_id == faction.pk):
            held.add(card.troop_type.name_ru)
    return held


# --- the moderators' copy ----------------------------------------------------------------------

def test_the_moderators_map_lists_every_army_and_fleet_at_its_place(latin_game):
    text = text_of(render(latin_game, "map"))
    assert "Карта — для модераторов" in text and latin_game.title in text and "До первого хода" in text
    units = list(Army.objects.filter(game=latin_game, destroyed=False).select_related("province", "faction"))
    units += list(Fleet.objects.filter(game=latin_game, destroyed=False).select_related("sea", "faction"))
    assert len(units) == 44
    for unit in units:
        place = unit.sea.name if isinstance(unit, Fleet) else unit.province.name
        label = f"флот {unit.roman}" if isinstance(unit, Fleet) else f"армия {unit.roman}"
        assert f"{label} — {place}" in text, (unit.code, label, place)
    for faction in latin_game.factions.all():
        count = sum(1 for u in units if u.faction_id == faction.pk)
        assert f"{faction.name} ({count}):" in text
    # positions for everyone, contents for no one: that is the battle sheets' and the factions' copies' business
    for commander in Commander.objects.filter(game=latin_game):
        assert commander.name_ru not in text
    assert "Большое войско" not in text and "Эскадра" not in text


@pytest.mark.parametrize("kind", ["map", "faction-map"])
@pytest.mark.parametrize("paper", ["a4", "a3"])
def test_one_landscape_page_of_the_paper_asked_for(latin_game, kind, paper):
    params = {"paper": paper} if kind == "map" else {"paper": paper, "faction": "venice"}
    filename, mimetype, content = services.render_document(latin_game, kind, params)
    reader = PdfReader(io.BytesIO(content))
    assert mimetype == "application/pdf" and len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == tuple(round(v) for v in POINTS[paper])
    assert filename.endswith(f"-{paper}.pdf") and ("venice" in filename) == (kind == "faction-map")


# --- a faction's copy ----------------------------------------------------------------------------

def test_a_factions_map_shows_its_own_stacks_contents_and_nothing_of_the_others(latin_game):
    latin = latin_game.factions.get(code="latin_empire")
    text = text_of(render(latin_game, "faction-map", faction="latin_empire"))
    assert "Карта — Латинская империя" in text and "только для этой фракции" in text
    for expected in ["Армия I — Константинополь: Большое войско, Малое войско", "Балдуин I Фландрский (4)",
                     "Генрих Фландрский (5)", "Флот I — Пропонтида", "Гарнизоны"]:
        assert expected in text, expected
    mine = cards_held(latin)
    others = set()
    for faction in latin_game.factions.exclude(pk=latin.pk):
        others |= cards_held(faction)
    assert others - mine, "the scenario has troop types Latin Empire does not hold"
    for name in others - mine:
        assert name not in text, name
    for commander in Commander.objects.filter(game=latin_game).exclude(faction=latin):
        assert commander.name_ru not in text, commander.name_ru
    # every flag is on the map all the same: the other factions are in the legend, their places named
    assert "Болгария" in text and "Трапезунд" in text


def test_every_factions_map_is_a_page_of_its_own_secrets_only(tiny_game, south_secrets):
    pages = [squash(p) for p in pdf_pages(render(tiny_game, "faction-map"))]
    assert len(pages) == 3  # Восток, Север, Юг: by name
    east, north, south = pages
    assert "Карта — Юг" in south and SOUTH_SECRET_TROOP in south and SOUTH_SECRET_COMMANDER in south
    for page in (east, north):
        assert SOUTH_SECRET_TROOP not in page and SOUTH_SECRET_COMMANDER not in page and "Всеволод" not in page
    assert "Альберт (3)" in north and "Альберт" not in east and "Альберт" not in south
    moderators = text_of(render(tiny_game, "map"))
    assert SOUTH_SECRET_TROOP not in moderators and SOUTH_SECRET_COMMANDER not in moderators


# --- a past turn ------------------------------------------------------------------------------

def test_a_past_turns_map_shows_the_positions_at_its_start(tiny_game):
    Turn.objects.create(game=tiny_game, number=1, draw=["north", "south", "east"],
                        start_state=case_from_game(tiny_game))
    army = Army.objects.get(game=tiny_game, faction__code="north", number=2)
    army.province = Province.objects.get(game=tiny_game, code="midtown")
    army.save()  # it moved later on
    now = text_of(render(tiny_game, "map"))
    then = text_of(render(tiny_game, "map", turn=1))
    assert "армия II — Серединград" in now and "Ход 1, текущее положение" in now
    assert "армия II — Северное Поле" in then and "армия II — Серединград" not in then
    assert "Ход 1, начало" in then
    north = text_of(render(tiny_game, "faction-map", faction="north", turn=1))
    assert "Армия II — Северное Поле: Среднее войско" in north


def test_a_finished_turns_map_after_its_regroup(latin_game, resolved_turn):
    start = text_of(render(latin_game, "map", turn=1))
    after = text_of(render(latin_game, "map", turn=1, after=True))
    assert "Ход 1, после перегруппировки" in after and "Ход 1, начало" in start
    # Epirus II marched into Bodonitsa, left empty by Athens II, without a battle
    def epirus_in(text):
        return text[text.index("Эпир (4):"):][:120]

    assert "армия II — Бодоница" in epirus_in(after) and "армия II — Бодоница" not in epirus_in(start)
    assert "армия II — Бодоница" in start  # Athens II, before it marched home
    epirus = text_of(render(latin_game, "faction-map", faction="epirus", turn=1, after=True))
    assert "Армия II — Бодоница" in epirus


@pytest.mark.parametrize("kind, params, message", [
    ("map", {"paper": "a5"}, "Формат бумаги"),
    ("battle-sheets", {"paper": "a3"}, "Формат бумаги"),
    ("map", {"turn": 3}, "Ход 3 ещё не начался"),
    ("faction-map", {"turn": 1, "after": True}, "Ход 1 ещё не начался"),
    ("map", {"after": "1"}, "Игра ещё не началась"),
])
def test_a_map_that_cannot_be_drawn_says_why(tiny_game, moderator, kind, params, message):
    with pytest.raises(services.PrintError, match=message):
        services.request_print(tiny_game, kind, params, moderator)
    assert not PrintJob.objects.exists()


def test_the_map_after_a_regroup_not_yet_made_says_so(latin_game, resolved_turn):
    from larp.battles.models import TurnResolution
    from larp.campaign.services.members import add_moderator

    mod, _ = add_moderator(latin_game, "map-mod")
    TurnResolution.objects.filter(turn__game=latin_game).update(result={"fought": [], "awaiting": {"battle": 1}})
    with pytest.raises(services.PrintError, match="Ход 1 ещё не прошёл перегруппировку"):
        services.request_print(latin_game, "map", {"turn": 1, "after": "on"}, mod)


def test_after_means_the_current_turn_unless_one_is_named(latin_game, resolved_turn):
    from larp.campaign.services.members import add_moderator

    mod, _ = add_moderator(latin_game, "map-mod")
    job, _ = services.request_print(latin_game, "faction-map", {"after": "1", "faction": "epirus", "paper": "A3"}, mod)
    assert job.params == {"paper": "a3", "faction": latin_game.factions.get(code="epirus").pk, "turn": 1,
                          "after": True}


# --- who may have it ------------------------------------------------------------------------------

@pytest.mark.parametrize("params", [{"kind": "map"}, {"kind": "faction-map", "faction": "south"},
                                    {"kind": "faction-map"}, {"kind": "faction-map", "faction": "north"}])
def test_a_player_gets_neither_another_factions_map_nor_the_moderators(tiny_game, moderator, player, client_for,
                                                                        params):
    c = client_for(player)
    assert c.post(reverse("sheets:request", args=[tiny_game.pk]), params).status_code == 403
    assert c.post(reverse("sheets:request", args=[tiny_game.pk]), params, **HTMX).status_code == 403
    with pytest.raises(PermissionDenied):
        services.request_print(tiny_game, params["kind"], params, player)
    assert not PrintJob.objects.exists()
    # nor the copies a moderator made: the status and the PDF are the moderators' too
    job, _ = services.request_print(tiny_game, params["kind"], params, moderator)
    services.run_job(job.pk)
    for name in ("sheets:job", "sheets:download"):
        assert c.get(reverse(name, args=[tiny_game.pk, job.pk])).status_code == 403


def test_the_moderator_prints_the_map_from_the_buttons(tiny_game, moderator, client_for):
    c = client_for(moderator)
    page = c.get(reverse("sheets:index", args=[tiny_game.pk])).content.decode()
    assert 'value="map"' in page and 'value="faction-map"' in page and '<option value="a3">A3</option>' in page
    response = c.post(reverse("sheets:request", args=[tiny_game.pk]),
                      {"kind": "faction-map", "paper": "a3", "faction": tiny_game.factions.get(code="south").pk,
                       "turn": ""}, **HTMX)
    job = PrintJob.objects.get()
    assert response.status_code == 200 and job.kind == "faction-map"
    assert job.params == {"paper": "a3", "faction": tiny_game.factions.get(code="south").pk}
    assert "Карта фракции" in response.content.decode() and "текущее положение" in response.content.decode()
    services.run_job(job.pk)
    pdf = c.get(reverse("sheets:download", args=[tiny_game.pk, job.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert "Карта — Юг" in text_of(pdf.content)


def test_historys_turn_page_offers_that_turns_map(latin_game, resolved_turn, latin_moderator, client_for):
    page = client_for(latin_moderator).get(reverse("battles:history_turn", args=[latin_game.pk, 1])).content.decode()
    assert 'value="map"' in page and 'value="faction-map"' in page
    assert '<option value="1" selected>ход 1: начало</option>' in page and 'name="after"' in page


def test_the_command_prints_the_map(latin_game, resolved_turn, tmp_path):
    from django.core.management import call_command

    out = tmp_path / "map.pdf"
    call_command("print_sheets", latin_game.title, "--kind", "map", "--turn", "1", "--after", "--paper", "a3",
                 "-o", str(out))
    assert "Ход 1, после перегруппировки" in text_of(out.read_bytes())
