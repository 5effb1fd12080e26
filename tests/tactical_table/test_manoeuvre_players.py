"""The players' manoeuvring on their tablets (T40, T30-T32): each side marks its own corps' targets and rolls them
with the server's dice in its own move, ends the move, declares the night halt, offers battle, answers an offer by
the rule of T32.1 and (the attacker) chooses the field; the hands dealt by the server. The role matrix of every new
act, hostile input (4xx in Russian, nothing saved), the fog on the server, and the stored state equal to the replay.
"""
import re

import pytest
from django.db import transaction

from larp.campaign.models import AuditEntry
from larp.dice.models import Roll
from larp.tables.models import Step
from larp.tactical import services
from larp.tactical import situation as sit

from .conftest import url

OPS = ["target", "untarget", "roll", "pass", "halt", "offer", "answer", "field", "lay", "play"]


def who(request, role):
    return None if role is None else request.getfixturevalue(role)


def side_url(table, side, op):
    return url(table, "manoeuvre_side", side, op)


def place(mod, table, name, side, cell):
    assert mod.post(url(table, "manoeuvre_act", "corps"), {"name": name, "side": side, "cell": cell}).status_code == 302


def corps(table):
    table.refresh_from_db()
    return {c["name"]: c for c in table.state["strategic"]["corps"]}


def steps(table):
    return Step.objects.filter(table=table).count()


def refusal(response) -> str:
    """What a refused act says: the page's error message, or the plain text of a 400."""
    text = response.content.decode()
    if response["Content-Type"].startswith("text/plain"):
        return text
    found = re.search(r'<ul class="messages"><li class="error">(.*?)</li>', text, re.S)
    return found.group(1) if found else ""


def same_as_replay(table):
    table.refresh_from_db()
    assert table.state == services.replay_table(table)


@pytest.fixture
def mapped(table, moderator, client_for):
    """Three corps on a clear map; north moves first (named by the moderator after a roll at the table)."""
    mod = client_for(moderator)
    place(mod, table, "Парменион", "north", "C5")
    place(mod, table, "Кратер", "north", "A5")
    place(mod, table, "Бодуэн", "south", "C1")
    assert mod.post(url(table, "manoeuvre_act", "first"), {"side": "north"}).status_code == 302
    return table


@pytest.mark.parametrize("role,allowed", [("moderator", True), ("player", True), ("other_player", False),
                                          ("east_player", False), ("stranger", False), (None, False)])
def test_the_side_acts_role_matrix(request, mapped, client_for, subtests, role, allowed):
    """North's acts: north's player and the moderator get through the door (302, or 400 for an act the rules
    refuse now); south's player, another faction's, a stranger: 403; anonymous: to the login. Refused: nothing.
    Each act is tried on the same mapped table, and what it did is rolled back before the next one."""
    c = client_for(who(request, role))
    tried = []
    for op in OPS:
        with subtests.test(op=op), transaction.atomic():
            before = steps(mapped)
            r = c.post(side_url(mapped, "north", op), {})
            if allowed:
                assert r.status_code in (302, 400)
            elif role is None:
                assert r.status_code == 302 and "/login" in r["Location"]
            else:
                assert r.status_code == 403
            if not allowed or r.status_code == 400:
                assert steps(mapped) == before
            r = c.get(side_url(mapped, "north", op))  # a GET acts on nothing: back to the map (or sign in, or 403)
            assert r.status_code == (403 if role in ("east_player", "stranger") else 302)
            tried.append(op)
            transaction.set_rollback(True)  # the next act meets the table as `mapped` left it
    assert tried == OPS


@pytest.mark.parametrize("op", ["deal", "first", "rule", "undo"])
@pytest.mark.parametrize("role", ["player", "other_player", "east_player", "stranger"])
def test_the_moderators_new_map_acts_are_his(request, table, client_for, op, role):
    r = client_for(who(request, role)).post(url(table, "manoeuvre_act", op), {"reason": "x", "side": "north"})
    assert r.status_code == 403 and not Step.objects.filter(table=table).exists()


def test_players_march_in_their_own_move_offer_and_the_tired_cannot_refuse(mapped, moderator, player, other_player,
                                                                             client_for):
    table = mapped
    north, south, mod = client_for(player), client_for(other_player), client_for(moderator)
    c = corps(table)
    # south may not act in north's move
    r = south.post(side_url(table, "south", "target"), {"t-corps": c["Бодуэн"]["id"], "t-steps": "C2"})
    assert r.status_code == 400 and "Сейчас не ваш ход" in r.content.decode()
    # north may not mark south's corps (not among its choices), nor a card that is not there
    r = north.post(side_url(table, "north", "target"), {"t-corps": c["Бодуэн"]["id"], "t-steps": "C2"})
    assert r.status_code == 400
    r = north.post(side_url(table, "north", "target"), {"t-corps": c["Парменион"]["id"], "t-steps": "C4 Z9"})
    assert r.status_code == 400 and "буква от A до E" in r.content.decode()
    # a path that jumps a card: the engine refuses it (T31.7), in Russian, before any die
    r = north.post(side_url(table, "north", "target"), {"t-corps": c["Парменион"]["id"], "t-steps": "C3"})
    assert r.status_code == 400 and "T31.7" not in r.content.decode() and "на соседнюю" in r.content.decode()
    assert not Roll.objects.filter(stream=table.dice).exists()
    # targets first (T31.1): the engine's cost shown; nothing of it on south's page or log
    assert north.post(side_url(table, "north", "target"),
                      {"t-corps": c["Парменион"]["id"], "t-steps": "C4 C3"}).status_code == 302
    assert north.post(side_url(table, "north", "target"),
                      {"t-corps": c["Кратер"]["id"], "t-steps": "A4"}).status_code == 302
    page = north.get(url(table, "manoeuvre")).content.decode()
    assert "C4 → C3, цена 2" in page and "A4, цена 1" in page
    spy = south.get(url(table, "manoeuvre")).content.decode()
    assert "Парменион" not in spy and "Кратер" not in spy and "C4 → C3" not in spy
    # the roll: each marked corps with the server's dice from the table's stream
    assert north.post(side_url(table, "north", "roll")).status_code == 302
    marches = list(table.steps.filter(kind="march").order_by("seq"))
    assert [s.side for s in marches] == ["north", "north"]
    for s in marches:
        assert [r.value for r in Roll.objects.filter(stream=table.dice, ref=s.ref, source=Roll.SERVER)] == \
            s.payload["dice"] and s.payload["by"]["hand"] == []
    assert corps(table)["Кратер"]["cell"] == [3, 0]
    # one roll per move
    r = north.post(side_url(table, "north", "roll"))
    assert r.status_code == 400 and "уже брошены" in r.content.decode()
    r = north.post(side_url(table, "north", "target"), {"t-corps": c["Кратер"]["id"], "t-steps": "A3"})
    assert r.status_code == 400
    # south's page: the marches are north's business
    spy = south.get(url(table, "manoeuvre")).content.decode()
    assert "Переход корпуса" not in spy and "Кратер" not in spy
    # the moderator's ruling (a card's effect): Parmenion on C3, tired; with a reason, audited as a ruling
    r = mod.post(url(table, "manoeuvre_act", "rule"), {"corps": c["Парменион"]["id"], "cell": "C3", "tired": "on",
                                                       "reason": "Нездоровая местность"})
    assert r.status_code == 302
    assert AuditEntry.objects.filter(action="table_override", reason="Нездоровая местность").exists()
    assert north.post(side_url(table, "north", "pass")).status_code == 302
    # south's move: Baldwin to C2, next to Parmenion: now in contact, seen — not its fatigue
    assert south.post(side_url(table, "south", "target"),
                      {"t-corps": c["Бодуэн"]["id"], "t-steps": "C2"}).status_code == 302
    assert south.post(side_url(table, "south", "roll")).status_code == 302
    assert corps(table)["Бодуэн"]["cell"] == [1, 2]
    spy = south.get(url(table, "manoeuvre")).content.decode()
    assert "Парменион (Север) — в соприкосновении" in spy and "Кратер" not in spy
    assert "Парменион (Север) — устал" not in spy
    # north may not offer in south's move; south offers at the end of its move
    r = north.post(side_url(table, "north", "offer"))
    assert r.status_code == 400 and "в конце своего хода" in r.content.decode()
    assert south.post(side_url(table, "south", "offer")).status_code == 302
    r = south.post(side_url(table, "south", "pass"))
    assert r.status_code == 400 and "ждёт ответа" in r.content.decode()
    # north's page: the offer, and it must accept (its tired corps in contact, T32.1)
    page = north.get(url(table, "manoeuvre")).content.decode()
    assert "Другая сторона обязана принять" in page and 'value="refuse" disabled' in page
    before = steps(table)
    r = north.post(side_url(table, "north", "answer"), {"answer": "refuse"})
    assert r.status_code == 400 and "Отказаться нельзя" in r.content.decode() and "«Парменион»" in r.content.decode()
    assert steps(table) == before
    r = south.post(side_url(table, "south", "answer"), {"answer": "accept"})
    assert r.status_code == 400 and "сама на него не отвечает" in r.content.decode()
    assert north.post(side_url(table, "north", "answer"), {"answer": "maybe"}).status_code == 400
    assert north.post(side_url(table, "north", "answer"), {"answer": "accept"}).status_code == 302
    # the attacker chooses the field (T32.2); the defender may not
    table.refresh_from_db()
    assert table.state["strategic"]["offer"]["answer"] == "accepted"
    r = north.post(side_url(table, "north", "field"), {"index": "0"})
    assert r.status_code == 400 and "Поле выбирает сторона" in r.content.decode()
    assert south.post(side_url(table, "south", "field"), {"index": "99"}).status_code == 400
    assert south.post(side_url(table, "south", "field"), {"index": "0"}).status_code == 302
    r = north.post(side_url(table, "north", "target"), {"t-corps": c["Кратер"]["id"], "t-steps": "A3"})
    assert r.status_code == 400 and "маневрирование окончено" in r.content.decode()
    table.refresh_from_db()
    assert table.state["strategic"]["field"] is not None
    # the moderator's page followed every act, both sides' corps and the log in words
    page = mod.get(url(table, "manoeuvre")).content.decode()
    for words in ("Сторона «Север» отмечает цель корпуса «Парменион»: C4 → C3, цена 2", "Переход корпуса «Кратер»",
                  "Сторона «Юг» предлагает сражение", "Сторона «Север» принимает сражение",
                  "Сторона «Север» заканчивает ход", "Решение мастера по корпусу «Парменион»"):
        assert words in page, words
    same_as_replay(table)


def test_a_fresh_side_refuses_and_then_moves_as_usual(mapped, moderator, player, other_player, client_for):
    table = mapped
    north, south, mod = client_for(player), client_for(other_player), client_for(moderator)
    c = corps(table)
    assert mod.post(url(table, "manoeuvre_act", "rule"), {"corps": c["Парменион"]["id"], "cell": "C2",
                                                          "reason": "засада"}).status_code == 302
    assert north.post(side_url(table, "north", "offer")).status_code == 302
    page = south.get(url(table, "manoeuvre")).content.decode()
    assert "Другая сторона может отказаться" in page
    assert south.post(side_url(table, "south", "answer"), {"answer": "refuse"}).status_code == 302
    table.refresh_from_db()
    m = table.state["strategic"]
    assert m["offer"]["answer"] == "refused" and m["move"]["side"] == "south"     # the refuser moves as usual
    r = south.post(side_url(table, "south", "field"), {"index": "0"})
    assert r.status_code == 400
    r = north.post(side_url(table, "north", "answer"), {"answer": "accept"})
    assert r.status_code == 400 and "Нет предложения сражения" in r.content.decode()
    same_as_replay(table)


def test_the_night_halt_comes_when_both_declare_it(mapped, moderator, player, other_player, client_for):
    table = mapped
    north, south, mod = client_for(player), client_for(other_player), client_for(moderator)
    c = corps(table)
    r = north.post(side_url(table, "north", "halt"))
    assert r.status_code == 400 and "ночью" in r.content.decode()
    # Parmenion tired by a march typed in at the table: cost 3 (forest), a 1
    assert mod.post(url(table, "manoeuvre_act", "cell"), {"cell": "C4", "card": "forest"}).status_code == 302
    assert mod.post(url(table, "manoeuvre_act", "march"),
                    {"corps": c["Парменион"]["id"], "steps": "C4", "hand_dice": "1"}).status_code == 302
    # Krateros tired before the day by a ruling: it stands still in north's move and rests (T31.4)
    assert mod.post(url(table, "manoeuvre_act", "rule"), {"corps": c["Кратер"]["id"], "cell": "A5", "tired": "on",
                                                          "reason": "ночной переход"}).status_code == 302
    assert north.post(side_url(table, "north", "pass")).status_code == 302
    now = corps(table)
    assert now["Парменион"]["tired"] and not now["Кратер"]["tired"]
    assert south.post(side_url(table, "south", "pass")).status_code == 302
    table.refresh_from_db()
    assert table.state["strategic"]["move"]["night"] is True
    page = north.get(url(table, "manoeuvre")).content.decode()
    assert "День 1: ночь" in page
    assert north.post(side_url(table, "north", "halt")).status_code == 302
    r = north.post(side_url(table, "north", "halt"))
    assert r.status_code == 400 and "уже объявили" in r.content.decode()
    assert corps(table)["Парменион"]["tired"]                   # one side's declaration is not yet the halt
    assert south.post(side_url(table, "south", "halt")).status_code == 302
    table.refresh_from_db()
    m = table.state["strategic"]
    assert m["move"]["day"] == 2 and m["move"]["side"] == "north" and not m["move"]["night"]
    assert not any(x["tired"] for x in m["corps"])
    same_as_replay(table)


def test_the_server_rolls_for_the_first_move(table, moderator, client_for):
    mod = client_for(moderator)
    place(mod, table, "Парменион", "north", "C5")
    assert mod.post(url(table, "manoeuvre_act", "first"), {"side": ""}).status_code == 302
    step = table.steps.get(kind="first")
    rolls = step.payload["rolls"]
    assert rolls and rolls[-1][0] != rolls[-1][1] and all(a == b for a, b in rolls[:-1])
    assert [r.value for r in Roll.objects.filter(stream=table.dice, ref=step.ref)] == [v for p in rolls for v in p]
    table.refresh_from_db()
    assert table.state["strategic"]["move"]["side"] == ("north" if rolls[-1][0] > rolls[-1][1] else "south")
    r = mod.post(url(table, "manoeuvre_act", "first"), {"side": "north"})
    assert r.status_code == 400 and "уже решено" in r.content.decode()
    r = mod.post(url(table, "manoeuvre_act", "first"), {"side": "west"})
    assert r.status_code == 400


def test_the_deal_the_hands_in_the_fog_and_the_terrain_laid_in_turn(table, moderator, player, other_player,
                                                                     client_for):
    north, south, mod = client_for(player), client_for(other_player), client_for(moderator)
    assert mod.post(url(table, "manoeuvre_act", "deal")).status_code == 302
    step = table.steps.get(kind="deal")
    assert len(step.payload["picks"]) == 39
    assert Roll.objects.filter(stream=table.dice, ref=step.ref, source=Roll.SERVER).count() == \
        39 + 2 * len(step.payload["rolls"])
    table.refresh_from_db()
    m = table.state["strategic"]
    assert {k: len(v) for k, v in m["hands"].items()} == {"north": 6, "south": 6} and len(m["deck"]) == 28
    r = mod.post(url(table, "manoeuvre_act", "deal"))
    assert r.status_code == 400 and "уже розданы" in r.content.decode()
    # the fog: each player sees their own cards, of the other hand only how many; the deal's dice are not theirs
    view = north.get(url(table, "manoeuvre")).context["map"]["hands"]
    assert [(h["key"], [c["id"] for c in h["cards"]], h["count"]) for h in view] == \
        [("north", m["hands"]["north"], 6), ("south", [], 6)]
    assert "по серверу" not in south.get(url(table, "manoeuvre")).content.decode()
    assert all(len(h["cards"]) == 6 for h in mod.get(url(table, "manoeuvre")).context["map"]["hands"])
    # the terrain cards laid in turn (T30.2)
    layer = sit.next_layer(m)
    assert layer is not None                                  # the table's seed deals terrain cards
    other = "south" if layer == "north" else "north"
    clients = {"north": north, "south": south}
    card = next(x for x in m["hands"][layer] if sit.CARD_KIND[x] == "terrain")
    other_terrain = [x for x in m["hands"][other] if sit.CARD_KIND[x] == "terrain"]
    if other_terrain:
        r = clients[other].post(side_url(table, other, "lay"), {"l-card": other_terrain[0], "l-cell": "B2"})
        assert r.status_code == 400 and "не ваша очередь" in r.content.decode()
    not_held = next(x for x in sit.TERRAIN_CARDS if x not in m["hands"][layer])
    assert clients[layer].post(side_url(table, layer, "lay"), {"l-card": not_held, "l-cell": "B2"}).status_code == 400
    assert clients[layer].post(side_url(table, layer, "lay"), {"l-card": card, "l-cell": "B2"}).status_code == 302
    table.refresh_from_db()
    m2 = table.state["strategic"]
    assert m2["grid"][1][1] == card and len(m2["hands"][layer]) == 5 and m2["lays"] == [layer]
    # a card of the hand that is not terrain: played; a weather card changes the weather in play
    playable = [x for x in m2["hands"][layer] if sit.CARD_KIND[x] != "terrain" and x not in sit.MARCH_CARDS.values()
                and x not in ("heavy_mud", "river_flood", "path")]
    if playable:
        assert clients[layer].post(side_url(table, layer, "play"), {"p-card": playable[0]}).status_code == 302
        table.refresh_from_db()
        if sit.CARD_KIND[playable[0]] == "weather":
            assert playable[0] in table.state["strategic"]["weather"]
    same_as_replay(table)


def lay_all_terrain(table, clients):
    """Every terrain card of both hands laid in turn (T30.2), off column C where the corps march."""
    free = [f"{col}{row}" for row in range(1, 6) for col in "ABDE"]
    while True:
        table.refresh_from_db()
        m = table.state["strategic"]
        layer = sit.next_layer(m)
        if layer is None:
            return
        card = next(x for x in m["hands"][layer] if sit.CARD_KIND[x] == "terrain")
        r = clients[layer].post(side_url(table, layer, "lay"), {"l-card": card, "l-cell": free.pop(0)})
        assert r.status_code == 302


def test_road_is_played_from_the_hand_with_a_march(tiny_game, moderator, player, other_player, client_for):
    north, south, mod = client_for(player), client_for(other_player), client_for(moderator)
    factions = [("north", "Север", tiny_game.factions.get(code="north")),
                ("south", "Юг", tiny_game.factions.get(code="south"))]
    for seed in range(1, 200):                   # a deal that gives north the Road card and south none
        table = services.create(tiny_game, f"Дорога {seed}", factions, moderator, seed=seed)
        services.deal(table.pk, moderator, "раздача")
        table.refresh_from_db()
        hands = table.state["strategic"]["hands"]
        if "road" in hands["north"] and "road" not in hands["south"]:
            break
    place(mod, table, "Парменион", "north", "C5")
    place(mod, table, "Бодуэн", "south", "C1")
    lay_all_terrain(table, {"north": north, "south": south})
    assert mod.post(url(table, "manoeuvre_act", "first"), {"side": "north"}).status_code == 302
    assert 'name="t-road"' in north.get(url(table, "manoeuvre")).content.decode()
    c = corps(table)
    assert north.post(side_url(table, "north", "target"),
                      {"t-corps": c["Парменион"]["id"], "t-steps": "C4 C3 C2", "t-road": "on"}).status_code == 302
    table.refresh_from_db()
    assert table.state["strategic"]["targets"][0]["cost"] == 3           # the Road: every card 1 MP
    assert north.post(side_url(table, "north", "roll")).status_code == 302
    table.refresh_from_db()
    m = table.state["strategic"]
    assert "road" not in m["hands"]["north"] and len(m["hands"]["north"]) == len(hands["north"]) - \
        sum(1 for x in hands["north"] if sit.CARD_KIND[x] == "terrain") - 1
    assert table.steps.get(kind="march").payload["march"]["road"] is True
    assert 'name="t-road"' not in north.get(url(table, "manoeuvre")).content.decode()
    same_as_replay(table)


def test_hostile_side_input_is_refused_in_russian_and_nothing_saved(mapped, moderator, player, client_for):
    table = mapped
    north, mod = client_for(player), client_for(moderator)
    c = corps(table)
    before = steps(table)
    for op, data in (("target", {"t-corps": c["Парменион"]["id"], "t-steps": "C4 " * 30}),
                     ("target", {"t-corps": c["Парменион"]["id"], "t-steps": ""}),
                     ("target", {"t-corps": "<script>", "t-steps": "C4"}),
                     ("untarget", {"corps": c["Парменион"]["id"]}),
                     ("roll", {}),
                     ("answer", {"answer": "accept"}),
                     ("field", {"index": "-1"}),
                     ("lay", {"l-card": "forest", "l-cell": "B2"}),
                     ("play", {"p-card": "rain"}),
                     ("bogus", {})):
        r = north.post(side_url(table, "north", op), data)
        assert r.status_code == 400, (op, data)
        assert "<script>" not in r.content.decode()
        said = refusal(r).replace("&lt;script&gt;", "")                  # the hostile value echoed, escaped
        assert said and re.search("[а-яё]", said) and not re.search("[a-z]{4,}", said), (op, said)
    assert mod.post(side_url(table, "west", "pass")).status_code == 403
    assert mod.post(url(table, "manoeuvre_act", "rule"), {"corps": c["Парменион"]["id"], "cell": "C3",
                                                          "reason": " "}).status_code == 400
    assert mod.post(url(table, "manoeuvre_act", "undo"), {"reason": ""}).status_code == 400
    assert steps(table) == before


def test_the_moderator_undoes_a_players_act_with_a_reason(mapped, moderator, player, other_player, client_for):
    table = mapped
    north, mod = client_for(player), client_for(moderator)
    assert north.post(side_url(table, "north", "pass")).status_code == 302
    table.refresh_from_db()
    assert table.state["strategic"]["move"]["side"] == "south"
    assert mod.post(url(table, "manoeuvre_act", "undo"), {"reason": "рано закончил ход"}).status_code == 302
    table.refresh_from_db()
    assert table.state["strategic"]["move"]["side"] == "north"
    assert table.steps.get(kind="pass").undone_reason == "рано закончил ход"
    assert "рано закончил ход" in client_for(other_player).get(url(table, "manoeuvre")).content.decode()
    same_as_replay(table)
