"""A whole turn through the console's services on the default scenario (R6-R12, R14)."""
import threading

import pytest
from django.db import connection

from larp.battles import services as console
from larp.battles.models import DiceRoll, TurnResolution
from larp.campaign.models import Province
from larp.campaign.services.members import add_moderator, create_player
from larp.engine import run_turn
from larp.forces.models import Army
from larp.orders.services import file_order
from larp.turns import services as turns
from larp.turns.models import AuditEntry
from larp.turns.situation import case_from_game

ORDERS = [
    ("bulgaria", "bulgaria-4", {"type": "attack", "path": ["serres"]}),
    ("rum", "rum-2", {"type": "attack", "path": ["attalia"]}),
    ("cilicia", "cilicia-2", {"type": "attack", "path": ["attalia"]}),
    ("thessalonica", "thessalonica-2", {"type": "attack", "path": ["yanina"]}),
    ("epirus", "epirus-2", {"type": "attack", "path": ["bodonitsa"]}),
    ("athens", "athens-2", {"type": "march", "path": ["athens"]}),
    ("latin_empire", "latin_empire-1", {"type": "attack", "path": ["adrianople"]}),
]
DRAW = ["athens", "bulgaria", "nicaea", "epirus", "rum", "latin_empire", "thessalonica", "cilicia", "achaea",
        "trebizond", "venice"]
DICE = [(6, 2), (3, 5), (4, 4), (5, 1), (2, 6), (6, 6), (1, 3), (5, 5), (3, 2), (6, 1), (2, 2), (4, 6)]


@pytest.fixture
def played(latin_game):
    """Orders filed by several factions' players, the Strategy phase closed, movement under way."""
    mod, _ = add_moderator(latin_game, "console-mod")
    turns.enter_draw(latin_game, mod, DRAW)  # the original's examples: Athens 1st, Bulgaria 2nd ...
    turns.start_game(latin_game, mod)
    for faction, unit, order in ORDERS:
        player, _ = create_player(latin_game.factions.get(code=faction), f"p-{faction}")
        file_order(player, latin_game, unit, order)
    turns.next_phase(latin_game, mod)  # Strategy closes (implicit holds), Movement starts
    return latin_game, mod


def fight_all(game, mod):
    rolls = []
    for attacker, defender in DICE * 3:
        _turn, _res, result = console.current_result(game)
        awaiting = result.get("awaiting")
        if awaiting is None:
            return rolls
        count = awaiting["dice_count"]
        a, d = [attacker] * count["attacker"], [defender] * count["defender"]
        console.confirm_battle(game, mod, awaiting["n"], a, d)
        rolls.append({"attacker": a, "defender": d})
    raise AssertionError("battles never ended")


def test_whole_turn_equals_adjudicate_turn(played):
    game, mod = played
    turn = turns.current_phase(game).turn
    result = console.apply_movement(game, mod)
    assert [b["province"] for b in result["battles"]] == ["serres", "attalia", "adrianople", "yanina"]
    assert result["occupied"] == [{"province": "bodonitsa", "unit": "epirus-2"}]
    assert Army.objects.get(faction__code="epirus", number=2).province.code == "bodonitsa"  # positions applied
    turns.next_phase(game, mod)  # Tactics
    rolls = fight_all(game, mod)
    assert len(rolls) >= 5  # Serres, Attalia (two fights), Yanina storm(s), Adrianople storm(s)
    turns.next_phase(game, mod)  # Regroup
    final = console.apply_regroup(game, mod)

    # The same data through the engine gives the same state as the database now holds.
    case = dict(turn.start_state)
    case["orders"] = [o.payload for o in turn.orders.order_by("implicit", "filed_at", "id")]
    case["dice"] = rolls
    expected = run_turn(case)["state"]
    assert final["state"] == expected
    now = case_from_game(game)
    assert {a["id"]: (a["province"], sorted(a["troops"])) for a in now["armies"]} == \
        {k: (v["province"], sorted(v["troops"])) for k, v in expected["armies"].items()}
    assert {p["id"]: (p["owner"], sorted(p["garrison"])) for p in now["provinces"]} == \
        {k: (v["owner"], sorted(v["garrison"])) for k, v in expected["provinces"].items()}
    assert now["special_state"] == expected["special_state"]
    assert Province.objects.get(game=game, code="bodonitsa").owner.code == "epirus"  # recoloured (R12)
    assert AuditEntry.objects.filter(game=game, action="battle_confirmed").count() == len(rolls)
    with pytest.raises(console.ConsoleError):
        console.apply_regroup(game, mod)  # once


def test_undo_restores_the_exact_previous_state(played):
    game, mod = played
    _turn, _res, before = console.current_result(game)
    console.confirm_battle(game, mod, 1, [6], [1])
    _turn, res, after = console.current_result(game)
    assert after != before and len(after["fought"]) == 1
    assert console.undo_last_battle(game, mod, "wrong die read") == 1
    _turn, res, again = console.current_result(game)
    assert again == before and res.dice == []
    assert DiceRoll.objects.get(resolution=res).undone is True
    assert AuditEntry.objects.filter(game=game, action="battle_undone", reason="wrong die read").exists()


def test_confirming_twice_applies_once(played):
    game, mod = played
    first = console.confirm_battle(game, mod, 1, [6], [1])
    second = console.confirm_battle(game, mod, 1, [1], [6])
    assert first["already"] is False and second["already"] is True
    res = TurnResolution.objects.get(turn__game=game)
    assert res.dice == [{"attacker": [6], "defender": [1]}]
    assert AuditEntry.objects.filter(game=game, action="battle_confirmed").count() == 1


def test_wrong_dice_are_refused_with_the_rule(played):
    game, mod = played
    with pytest.raises(console.ConsoleError) as exc:
        console.confirm_battle(game, mod, 1, [7], [1])
    assert "R8" in str(exc.value)
    with pytest.raises(console.ConsoleError):
        console.confirm_battle(game, mod, 1, [3, 3], [1])
    with pytest.raises(console.ConsoleError):
        console.confirm_battle(game, mod, 2, [3], [1])  # not the battle awaiting dice
    assert all(r.dice == [] for r in TurnResolution.objects.filter(turn__game=game))


def test_server_roll_is_stored_and_confirmed_as_rolled(played):
    game, mod = played
    roll = console.server_roll(game, mod, 1)
    assert all(1 <= d <= 6 for d in roll.attacker + roll.defender)
    outcome = console.confirm_battle(game, mod, 1, None, None, roll_id=roll.pk)
    assert outcome["result"]["fought"][0]["attacker"]["dice"] == roll.attacker
    assert DiceRoll.objects.filter(resolution__turn__game=game, source="server").count() == 1


def test_modifier_needs_a_reason_and_counts(played):
    game, mod = played
    with pytest.raises(console.ConsoleError):
        console.add_modifier(game, mod, 1, "defender", 2, "  ")
    result = console.add_modifier(game, mod, 1, "defender", 2, "rain on the river")
    assert result["awaiting"]["n"] == 1
    outcome = console.confirm_battle(game, mod, 1, [3], [3])["result"]["fought"][0]
    assert {"source": "modifier", "value": 2} in [{k: i[k] for k in ("source", "value")}
                                                   for i in outcome["defender"]["items"]]


@pytest.mark.django_db(transaction=True)
def test_two_moderators_confirming_at_once_apply_once(latin_game):
    mod, _ = add_moderator(latin_game, "mod-a")
    turns.start_game(latin_game, mod)
    player, _ = create_player(latin_game.factions.get(code="bulgaria"), "p-bul")
    file_order(player, latin_game, "bulgaria-4", {"type": "attack", "path": ["serres"]})
    turns.next_phase(latin_game, mod)
    console.current_result(latin_game)
    outcomes, barrier = [], threading.Barrier(4)

    def confirm(dice):
        barrier.wait()
        try:
            outcomes.append(console.confirm_battle(latin_game, mod, 1, [dice], [1])["already"])
        except console.ConsoleError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(d,)) for d in (2, 3, 4, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count(False) == 1
    assert len(TurnResolution.objects.get(turn__game=latin_game).dice) == 1
    assert AuditEntry.objects.filter(game=latin_game, action="battle_confirmed").count() == 1
