"""A battle of the war sent to a «Тактические правила» table, its suggested armies approved, played there through
the tactical services with hand dice to its end, its result confirmed back into the turn (docs/bridge.md,
docs/tactical-rules.md "Table").

The storm of Янина (battle 5 of the default scenario's first turn: Thessalonica II against Epirus III behind the
walls) is sent to the table. The conversion suggests one unit per troop card, the commanders as grouped generals
and the walls as the «Укрепления» of the defender; the moderator approves both armies as the pages do, and plays
the battle assistant — the Initiative, clashes, melees and a rally test, every die typed in at the table — until
every unit of one side has fled or been destroyed (T29: the engine names no winner, the page shows the rout) and
ends it by his act. The suggested outcome is the side's power × the share of its figures lost, rounded half up;
confirmed, the turn ends as `adjudicate turn` with the same outcome gives it.
"""
import html
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from larp.battles import services as console
from larp.bridge import convert
from larp.bridge import services as bridge
from larp.bridge.models import TableBattle
from larp.campaign.models import Membership
from larp.dice.models import Roll
from larp.tables import services as tables
from larp.tables.models import Table
from larp.tactical import forms as f
from larp.tactical import printing
from larp.tactical import services as tactical
from larp.tactical import situation as sit
from larp.turns import services as turns
from larp.turns.models import AuditEntry
from tests.bridge.test_flow import finish_the_turn_as_adjudicate_turn, played, roll, tactics  # noqa: F401

REASON = "штурм Янины решают командующие"
STORM = 5            # the storm of Янина: Thessalonica II (medium, small) against Epirus III (small, medium)


@pytest.fixture(autouse=True)
def russian():
    from django.utils import translation

    with translation.override("ru"):
        yield


def send(game, mod):
    """Battles 1-4 by autobattle with the fixed dice, the storm of Янина sent to a tactical table."""
    tactics(game, mod)
    rolls = [roll(game, mod, i) for i in range(STORM - 1)]
    awaiting = console.current_result(game)[2]["awaiting"]
    assert awaiting["n"] == STORM and awaiting["province"] == "yanina" and awaiting["storm"]
    tb = bridge.send_to_table(game, mod, STORM, "tactical", REASON, seed=42)
    return tb, rolls


def user(game, login):
    return Membership.objects.get(game=game, user__username=login).user


def text_of(page) -> str:
    """What a person reads on the page: no tags, no scripts, no option values."""
    s = re.sub(r"<(script|style)\b.*?</\1>", "", page.content.decode(), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", s)))


def hand_dice(state, kind, payload, strong):
    """The dice the table rolls for the action, typed in one by one as the engine asks for them (sit.resolve
    names the list and the unit it waits for): every die goes `strong`'s way — a 1 for its strikes and tests
    (at or below the value), a 6 for its general's death die and its Initiative — and the other side's the other
    way."""
    hand = []
    for _ in range(sit.MAX_DICE):
        try:
            sit.resolve(state, kind, payload, hand, None)
            return hand
        except sit.NeedDice as need:
            if kind == "test" and payload["test"]["kind"] == "initiative":       # one die a side, the higher wins
                hand.append(6 if sorted(payload["test"]["initiative"])[len(hand) % 2] == strong else 1)
                continue
            owner = need.unit or payload.get("unit") or ""
            good = (sit.unit(state, owner)["side"] if owner else strong) == strong
            hand.append((6 if good else 1) if need.kind == "death" else (1 if good else 6))
    raise AssertionError("the engine never had its dice")


def act(table, mod, data, strong):
    """One action as the moderator's page sends it: the action form at the door, the engine's dice typed in."""
    state = Table.objects.get(pk=table.pk).state
    units = [{"id": u["id"], "side": u["side"], "label": u["name"]} for u in sit.live_units(state)]
    form = f.ActionForm(data, units=units)
    assert form.is_valid(), form.errors
    kind, payload = form.engine_kind(), form.payload(state)
    dice = hand_dice(state, kind, payload, strong)
    tactical.act(table.pk, mod, kind, payload, hand=dice, server_rest=False,
                 summary=lambda st, outcome: f"{kind}: {', '.join(sit.involved(kind, payload))}")
    return Table.objects.get(pk=table.pk).state


def play_to_the_rout(table, mod, strong):
    """The Initiative, then the `strong` side's units attack the other's until all of those have fled or been
    destroyed: a clash, a melee while two units stay locked in one, a rally test of a fleeing enemy unit."""
    state = act(table, mod, {"kind": "test", "test_kind": "initiative"}, strong)
    tactical.advance_turn(table.pk, mod, strong, lambda turn: "Первый ход")
    for _ in range(20):
        state = Table.objects.get(pk=table.pk).state
        if sit.routed(state):
            return state
        live = [u for u in sit.live_units(state) if not u["fleeing"]]
        mine = [u for u in live if u["side"] == strong]
        theirs = [u for u in live if u["side"] != strong]
        locked = [u for u in theirs if u["in_melee"]]
        if locked:
            partner = next(u for u in mine if u["in_melee"])
            act(table, mod, {"kind": "melee", "melee_units": [partner["id"], locked[0]["id"]],
                             "attacked_from": "front"}, strong)
        elif not table.steps.filter(kind="melee").exists():
            act(table, mod, {"kind": "melee", "melee_units": [mine[0]["id"], theirs[-1]["id"]],
                             "attacked_from": "front"}, strong)
        else:
            act(table, mod, {"kind": "clash", "attacker": mine[0]["id"], "defender": theirs[0]["id"],
                             "attacked_from": "front"}, strong)
        fled = [u for u in sit.live_units(Table.objects.get(pk=table.pk).state)
                if u["fleeing"] and u["side"] != strong]
        if fled and not table.steps.filter(kind="test", payload__test__kind="rally").exists():
            act(table, mod, {"kind": "test", "test_kind": "rally", "attacker": fled[0]["id"], "in_command": "on"},
                strong)
    raise AssertionError("the battle never ended")


def test_a_storm_at_a_tactical_table_is_played_to_its_end_and_the_turn_goes_on_as_adjudicate_turn(played):  # noqa: F811
    game, mod = played
    turn = turns.current_phase(game).turn
    tb, rolls = send(game, mod)
    table = Table.objects.get(pk=tb.table_id)
    conv = bridge.conversions(game)["tactical"]
    kinds = bridge.powers(game)
    assert tb.sides == {"attacker": "a", "defender": "b"} and tb.power == {"attacker": 14, "defender": 14}
    assert {s.key: s.faction.code for s in table.sides.all()} == {"a": "thessalonica", "b": "epirus"}

    # The suggested armies: one unit per troop card in R11's order, named by the card and its stack, sized by the
    # card's power within the bounds; the commanders as grouped generals, the strongest the commander-in-chief.
    for role, key in tb.sides.items():
        cards = [(stack["key"], card) for stack in tb.battle[role]["stacks"] for card in stack["troops"]]
        units = [u for u in table.setup["units"] if u["side"] == key]
        assert [(u["_stack"], u["_card"]) for u in units] == cards
        for u in units:
            count = u["figures"][0]["count"]
            assert count == convert.unit_size(kinds[u["_card"]], conv["size"])
            assert conv["size"]["min"] <= count <= conv["size"]["max"]
            assert u["figures"][0]["profile"] == conv["units"][u["_card"]]["profile"]
        commanders = sorted((c for s in tb.battle[role]["stacks"] for c in s["commanders"]),
                            key=lambda c: -c["power"])
        generals = [u["general"] for u in units if u["general"]]
        assert [g["name"] for g in generals] == [c["name"] for c in commanders][:len(units)]
        assert generals[0]["_kind"] == conv["leaders"]["first"]
    assert [u["name"] for u in table.setup["units"]] == [
        "Среднее войско (Фессалоники II)", "Малое войско (Фессалоники II)", "Малое войско (Эпир III)",
        "Среднее войско (Эпир III)"]
    assert table.setup["terrain"] == [{"piece": "fortifications", "side": "b"}]    # the walls: a storm
    assert table.status == Table.SETUP

    # The moderator's page: the suggestion in words (no ids, no Python values), the walls named.
    moderator = Client()
    moderator.force_login(mod)
    url = reverse("tactical:table", args=[game.pk, table.pk])
    page = text_of(moderator.get(url))
    assert "Армия: Эпир — предложена по сражению войны" in page
    assert "Укрепления: Эпир (выгодная позиция, T16.2)" in page
    assert "Михаил I Комнин Дука — главнокомандующий" in page
    assert "помещается на свои подставки, ждёт мастера" in page
    for leak in ("_card", "_stack", "_kind", "{'", "None", "fortifications", "epirus-3", "spearman"):
        assert leak not in page, leak

    # Approved as the pages do; the battle does not start before both are.
    tactical.approve(table.pk, mod, "a", True)
    with pytest.raises(ValidationError, match="У стороны «Эпир» ещё нет утверждённой армии"):
        tactical.start(table.pk, mod)
    tactical.approve(table.pk, mod, "b", True)
    assert "утверждена мастером" in text_of(moderator.get(url))
    tactical.start(table.pk, mod)
    table.refresh_from_db()
    assert table.state["phase"] == "battle" and table.status == Table.PLAYING
    start = {key: sum(u["figures"][0]["count"] for u in table.setup["units"] if u["side"] == key)
             for key in ("a", "b")}
    assert table.state["start"] == start
    assert [u["general"]["name"] for u in table.state["units"] if u["general"]] == [
        "Бертольд фон Катценельнбоген", "Михаил I Комнин Дука"]

    # The battle assistant, every die typed in, until Epirus's army has fled or been destroyed.
    final = play_to_the_rout(table, mod, "a")
    assert sit.routed(final) == ["b"]
    played_kinds = set(table.steps.filter(undone=False).values_list("kind", flat=True))
    assert {"clash", "melee", "test", "turn"} <= played_kinds
    assert not Roll.objects.filter(stream=table.dice, source=Roll.SERVER).exists()     # every die by hand
    assert Roll.objects.filter(stream=table.dice, source=Roll.HAND).count() > 10
    assert "Все отряды стороны «Эпир» бежали или уничтожены." in text_of(moderator.get(url))
    tactical.end(table.pk, mod, "a", "rout", "Сражение окончено: победили Фессалоники")
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    lost = {key: start[key] - sit.side_figures(final, key) for key in start}
    assert lost["b"] > 0
    assert table.result == {"winner": "a", "ended_by": "rout",
                            "losses": {key: {"start": start[key], "lost": lost[key]} for key in start}}
    steps = tables.live_steps(table)
    assert table.state == sit.replay(table.setup, [(s.kind, s.payload, s.outcome) for s in steps])
    for i, s in enumerate(steps):                     # every action: the engine run again on its stored dice
        if s.kind in sit.ACTIONS:
            before = sit.replay(table.setup, [(x.kind, x.payload, x.outcome) for x in steps[:i]])
            assert sit.rerun(before, s.kind, s.payload) == s.outcome

    # Back at the console: the power × the share of the figures lost, rounded half up.
    tb = TableBattle.objects.get(pk=tb.pk)
    assert bridge.state_of(tb) == "to_confirm"
    suggested = bridge.suggestion(tb)
    expected = {role: int((Decimal(tb.power[role]) * lost[key] / start[key]).quantize(0, ROUND_HALF_UP))
                for role, key in tb.sides.items()}
    assert suggested == {"winner": "attacker", "losses": expected}
    bridge.confirm_result(game, mod, tb.pk, suggested["winner"], suggested["losses"]["attacker"],
                          suggested["losses"]["defender"])
    assert bridge.state_of(tb) == "returned"
    assert AuditEntry.objects.filter(game=game, action="outside_outcome_entered").exists()
    fought = console.current_result(game)[2]["fought"][STORM - 1]
    assert fought["outside"] is True and fought["defender"]["losses"] == expected["defender"]
    finish_the_turn_as_adjudicate_turn(game, mod, turn, rolls, STORM, suggested)


def test_the_suggested_army_is_corrected_by_the_moderator_before_play(played, client_for):  # noqa: F811
    """The moderator's ruling on a suggested unit before the battle (figures, formation, general): the moderator's
    only, refused in Russian for what cannot change before the battle, hidden from the other side, and the side's
    army is approved again."""
    game, mod = played
    tb, _rolls = send(game, mod)
    table = Table.objects.get(pk=tb.table_id)
    url = reverse("tactical:override", args=[game.pk, table.pk])
    approve = reverse("tactical:approve", args=[game.pk, table.pk])
    page = reverse("tactical:table", args=[game.pk, table.pk])
    a_player, b_player, stranger = (user(game, f"p-{c}") for c in ("thessalonica", "epirus", "rum"))
    moderator = client_for(mod)
    edit = {"unit": "b2", "figures": "8", "reason": "часть гарнизона ушла на стены"}

    for who in (a_player, b_player, stranger):                         # the role matrix
        assert client_for(who).post(url, edit).status_code == 403
        assert client_for(who).post(approve, {"side": "b", "approve": "on"}).status_code == 403
    assert not table.steps.exists()
    assert moderator.post(approve, {"side": "b", "approve": "on"}).status_code == 302

    # Hostile or wrong input: 400 in Russian, nothing saved.
    for data, words in (({**edit, "state": "fleeing"}, "До начала сражения у отряда можно поменять только"),
                        ({**edit, "figures": "-3"}, "больше либо равно 1"),
                        ({**edit, "formation": "phalanx"}, "Такого построения нет: выберите из списка."),
                        ({**edit, "reason": "  "}, "Обязательное поле"),
                        ({**edit, "unit": "z9"}, "За этим столом нет такого отряда: выберите из списка."),
                        ({"unit": "b2", "reason": "просто так"}, "Нечего менять")):
        r = moderator.post(url, data)
        assert r.status_code == 400 and words in r.content.decode(), (data, r.content.decode()[:300])
        assert "z9" not in text_of(r) and "phalanx" not in text_of(r)          # no hostile value echoed
    assert table.steps.count() == 1                                  # only the approval

    assert moderator.post(url, edit).status_code == 302
    assert moderator.post(url, {"unit": "a1", "formation": "open", "general_lost": "on",
                                "reason": "полководец остался в лагере"}).status_code == 302
    table.refresh_from_db()
    step = table.steps.filter(kind="roster").order_by("seq").first()
    assert step.side == "b" and step.payload == {"side": "b", "unit": "b2",
                                                 "changes": {"figures": 8, "disordered": 0, "bases": 1}}
    assert step.reason == "часть гарнизона ушла на стены" and table.status == Table.SETUP
    state = tactical.replay_table(table)
    assert state["approved"] == []                                   # approved again after the edit
    assert sit.figures(sit.unit(state, "b2")) == 8
    a1 = sit.unit(state, "a1")
    # open order: 10 figures in four ranks of three, on two bases (three ranks a base, as the bridge sizes them)
    assert a1["formation"] == "open" and a1["general"] is None and sit.figures(a1) == 10 and a1["bases"] == 2
    assert [sum(g["count"] for g in rank) for rank in a1["ranks"]] == [3, 3, 3, 1]
    assert "Предложенная армия поправлена: «Среднее войско (Эпир III)»" in text_of(moderator.get(page))
    # The fog: the other side sees neither the edited army nor its edit in the log.
    seen_by_a = text_of(client_for(a_player).get(page))
    assert "Среднее войско (Эпир III)" not in seen_by_a and "часть гарнизона" not in seen_by_a
    seen_by_b = text_of(client_for(b_player).get(page))
    assert "Среднее войско (Эпир III)" in seen_by_b and "Среднее войско (Фессалоники II)" not in seen_by_b
    assert "предложена по сражению войны, ждёт мастера" in seen_by_b     # the other side's status only

    # The printed roster and unit cards are the suggested army's.
    data = printing.roster(table, state, table.sides.get(key="b"))
    assert data["list"] == "предложена по сражению войны" and not data["approved"]
    assert [(u["name"], u["count"]) for u in data["units"]] == [("Малое войско (Эпир III)", 4),
                                                               ("Среднее войско (Эпир III)", 8)]
    assert [(c["name"], c["figures"], c["bases"], c["shoots"]) for c in data["cards"]] == [
        ("Малое войско (Эпир III)", 4, 1, True), ("Среднее войско (Эпир III)", 8, 1, False)]
    assert [g["name"] for g in data["generals"]] == ["Михаил I Комнин Дука"]
    for what in ("roster", "cards"):
        r = client_for(b_player).get(reverse("tactical:print_army", args=[game.pk, table.pk, "b", what]))
        assert r.status_code == 200 and r["Content-Type"] == "application/pdf"

    assert moderator.post(approve, {"side": "a", "approve": "on"}).status_code == 302
    assert moderator.post(approve, {"side": "b", "approve": "on"}).status_code == 302
    assert moderator.post(reverse("tactical:start", args=[game.pk, table.pk])).status_code == 302
    table.refresh_from_db()
    assert table.state["start"] == {"a": 10 + 4, "b": 4 + 8}
    # in battle the ruling has every change again
    assert moderator.post(url, {"unit": "b2", "state": "fleeing", "reason": "бегут со стен"}).status_code == 302


def test_the_walls_stay_through_the_weather_form_and_a_built_army_replaces_the_suggestion(  # noqa: F811
        played, client_for):
    game, mod = played
    tb, _rolls = send(game, mod)
    table = Table.objects.get(pk=tb.table_id)
    moderator = client_for(mod)
    conditions = reverse("tactical:conditions", args=[game.pk, table.pk])
    assert moderator.post(conditions, {"rain": "on", "terrain": ["hill"], "fortified": "b"}).status_code == 302
    table.refresh_from_db()
    assert tactical.replay_table(table)["terrain"] == ["hill", {"piece": "fortifications", "side": "b"}]
    page = text_of(moderator.get(reverse("tactical:table", args=[game.pk, table.pk])))
    assert "холм, Укрепления: Эпир (выгодная позиция, T16.2)" in page
    r = moderator.post(conditions, {"fortified": "x"})
    assert r.status_code == 400 and "Такой стороны нет." in r.content.decode()
    assert moderator.post(conditions, {"fortified": ""}).status_code == 302
    table.refresh_from_db()
    assert tactical.replay_table(table)["terrain"] == []

    # A side that builds its own army on the pages: its units replace the suggestion at the start.
    add = reverse("tactical:army", args=[game.pk, table.pk, "a", "unit"])
    unit = {"name": "Фаланга", "entry": "phalangite", "specialty": "3", "steadiness": "3", "melee": "2",
            "weapon": "infantry_pike", "armour": "light_armour", "shield": "", "horse_armour": "",
            "formation": "very_dense", "count": "12"}
    assert moderator.post(add, {f"u-a-{k}": v for k, v in unit.items()}).status_code == 302
    table.refresh_from_db()
    state = tactical.replay_table(table)
    assert sit.suggested(state, "a") == [] and len(sit.suggested(state, "b")) == 2
    r = moderator.post(reverse("tactical:override", args=[game.pk, table.pk]),
                       {"unit": "a1", "figures": "8", "reason": "поправить"})
    assert r.status_code == 400 and "Эта сторона собрала свою армию" in r.content.decode()
    for side in ("a", "b"):
        tactical.approve(table.pk, mod, side, True)
    tactical.start(table.pk, mod)
    table.refresh_from_db()
    assert [u["name"] for u in table.state["units"] if u["side"] == "a"] == ["Фаланга"]
    assert [u["name"] for u in table.state["units"] if u["side"] == "b"] == [
        "Малое войско (Эпир III)", "Среднее войско (Эпир III)"]
