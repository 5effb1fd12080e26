"""Loading scenarios: the default one whole, broken ones with every problem listed, nothing half-made."""
import copy
import io

import pytest
import yaml
from django.core.management import CommandError, call_command

from larp.campaign.models import Adjacency, Faction, Game, Province, SpecialState
from larp.scenarios.loader import create_game, load_scenario
from larp.forces.models import Army, Commander, Fleet, TroopCard
from larp.scenarios import ScenarioError, load, validate

# The original's table of starting positions (seeds/003, "Стартовые позиции армий").
STARTING_POSITIONS = {
    "Латинская империя": ["Константинополь", "Никомедия", "Кизик", "Родосто"],
    "Фессалоники": ["Фессалоники", "Фессалия", "Серре"],
    "Ахея": ["Ахея", "Лакония"],
    "Никея": ["Никея", "Опсикий", "Букеларии", "Меандра"],
    "Трапезунд": ["Трапезунд", "Пафлагония"],
    "Эпир": ["Арта", "Акарнания", "Янина", "Лиссос"],
    "Рум": ["Конья", "Писидия", "Эрзурум", "Анкара"],
    "Киликия": ["Сис", "Аланья", "Селевкия"],
    "Болгария": ["Тырново", "Созополь", "Охрид", "Струмица"],
    "Венеция": ["Кандия", "Негропонте", "Дураццо", "Корфу"],
    "Афины": ["Афины", "Бодоница"],
}


def test_default_scenario_is_valid():
    assert validate(load("latin-east-1204")) == []


def test_default_scenario_loads_whole(latin_game):
    data = load("latin-east-1204")
    assert latin_game.factions.count() == 11
    assert Army.objects.filter(game=latin_game).count() == 36
    for faction_name, provinces in STARTING_POSITIONS.items():
        faction = Faction.objects.get(game=latin_game, name_ru=faction_name)
        armies = list(faction.armies.order_by("number").select_related("province"))
        assert [a.number for a in armies] == list(range(1, len(provinces) + 1)), faction_name
        assert [a.province.name_ru for a in armies] == provinces, faction_name
        assert armies[0].province == faction.capital, "army I starts in the capital"
    codes = set(Province.objects.filter(game=latin_game).values_list("code", flat=True))
    assert codes == {p["id"] for p in data["provinces"]}
    assert Province.objects.filter(game=latin_game, domain="sea").count() == 11
    assert Adjacency.objects.filter(game=latin_game).count() == len(data["adjacency"]) == 167
    assert Fleet.objects.filter(game=latin_game).count() == sum(len(f["fleets"]) for f in data["factions"])


def test_default_scenario_stacks_and_specials(latin_game):
    thess_1 = Army.objects.get(faction__game=latin_game, faction__code="thessalonica", number=1)
    assert sorted(c.troop_type.code for c in thess_1.cards.all()) == ["medium", "medium"]
    assert sum(c.power for c in thess_1.commanders.all()) == 3
    corinth = Province.objects.get(game=latin_game, code="corinth")
    assert corinth.owner is None and corinth.fortress and corinth.special == "acrocorinth"
    assert sorted(c.troop_type.code for c in corinth.garrison_cards.all()) == ["detachment", "small"]
    assert Province.objects.get(game=latin_game, code="serres").start_owner.code == "thessalonica"
    states = {s.special: s.state for s in SpecialState.objects.filter(game=latin_game)}
    assert states == {
        "meander_miracle": {"used": False},
        "victory_march": {"lost": False},
        "greek_fire_land": {"charges": 2},
    }
    assert Commander.objects.filter(game=latin_game, army__isnull=True, fleet__isnull=True).count() == 0


def test_second_load_with_same_title_is_refused(tiny_game):
    before = (Game.objects.count(), Province.objects.count(), TroopCard.objects.count())
    with pytest.raises(ScenarioError) as exc:
        load_scenario("tiny", title=tiny_game.title)
    assert "already exists" in str(exc.value)
    assert (Game.objects.count(), Province.objects.count(), TroopCard.objects.count()) == before


def broken_tiny() -> dict:
    data = copy.deepcopy(load("tiny"))
    provinces = {p["id"]: p for p in data["provinces"]}
    north = next(f for f in data["factions"] if f["id"] == "north")
    south = next(f for f in data["factions"] if f["id"] == "south")
    data["adjacency"] += [
        ["northgate", "atlantis"],          # unknown id
        ["northgate", "northgate"],         # self
        ["northfield", "northgate"],        # duplicate of [northgate, northfield]
    ]
    provinces["south_sea"]["owner"] = "south"                          # a sea zone with an owner
    south["fleets"] = [{"number": 1, "sea": "north_sea", "troops": ["squadron"]}]  # no coast of south there
    north["armies"][0]["troops"] = ["huge", "huge", "huge", "huge"]    # 80 000 men
    north["armies"][1]["province"] = "southfield"                      # outside north's land
    south["armies"][0]["troops"].append("squadron")                    # naval card in an army
    provinces["midtown"]["owner"] = "nobody"                           # unknown faction
    return data


def test_broken_scenario_lists_every_problem():
    problems = [str(p) for p in validate(broken_tiny())]
    text = "\n".join(problems)
    expected = [
        "adjacency[13] (northgate, atlantis): unknown id atlantis",
        "adjacency[14] (northgate, northgate): a province next to itself",
        "adjacency[15] (northfield, northgate): duplicate pair",
        "provinces south_sea: a sea zone cannot have an owner (has 'south')",
        "factions south fleet 1: north_sea touches none of south's provinces",
        "factions north army 1: 80 000 men; an army may have at most 60 000 (R1)",
        "factions north army 2: starts in southfield, outside north's land",
        "factions south army 1: squadron is a naval card",
        "provinces midtown: owner 'nobody' is not a faction id",
    ]
    for fragment in expected:
        assert fragment in text, f"missing problem: {fragment}\n--- got:\n{text}"
    assert len(problems) == len(expected)


def test_broken_scenario_creates_nothing(db):
    with pytest.raises(ScenarioError) as exc:
        create_game(broken_tiny(), title="Broken")
    assert len(exc.value.problems) == 9
    assert not Game.objects.exists() and not Province.objects.exists()


def test_failure_midway_leaves_nothing_behind(db, monkeypatch):
    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Commander.objects, "bulk_create", explode)
    with pytest.raises(RuntimeError):
        load_scenario("tiny", title="Half made")
    assert not Game.objects.exists()
    assert not Faction.objects.exists() and not Army.objects.exists() and not TroopCard.objects.exists()


def test_unreadable_files_are_reported(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("factions: [unclosed", encoding="utf-8")
    with pytest.raises(ScenarioError, match="not valid YAML"):
        load(bad)
    with pytest.raises(ScenarioError, match="no such scenario"):
        load("no-such-scenario")


def test_load_scenario_command(db, tmp_path):
    out = io.StringIO()
    call_command("load_scenario", "tiny", "--game", "Команда", stdout=out)
    assert "3 factions" in out.getvalue() and Game.objects.filter(title="Команда").exists()
    broken = tmp_path / "broken.yaml"
    broken.write_text(yaml.safe_dump(broken_tiny(), allow_unicode=True), encoding="utf-8")
    with pytest.raises(CommandError) as exc:
        call_command("load_scenario", str(broken), "--game", "Сломанная")
    assert "9 problem(s)" in str(exc.value) and "atlantis" in str(exc.value)
    assert not Game.objects.filter(title="Сломанная").exists()


def test_a_whole_game_can_be_deleted_but_a_used_province_cannot(tiny_game):
    from django.db.models import RestrictedError

    with pytest.raises(RestrictedError):
        Province.objects.get(game=tiny_game, code="northgate").delete()  # armies stand there
    tiny_game.delete()
    assert not Province.objects.exists() and not Army.objects.exists() and not TroopCard.objects.exists()
