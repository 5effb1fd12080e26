"""The roll-off, the push direction and the paired attack through the «Орда» table's pages: the role matrix
(moderator, the side's player, the other side's player, a player of the game not at the table, a stranger),
hostile input refused in Russian with nothing saved, and what each page offers. Every number is the data set MADE UP
FOR THE TESTS (tests/orda_table/data.py)."""
import re

import pytest
from django.urls import reverse

from larp.dice.models import Roll
from larp.orda import services
from larp.tables import services as tables
from larp.tables.access import seat
from larp.tables.models import Step, Table
from tests.orda_table.data import CROSSBOW_AND_SAPPER, arranged_setup


@pytest.fixture
def users(moderator, player, other_player, east_player, stranger):
    return {"moderator": moderator, "player": player, "other_player": other_player, "east_player": east_player,
            "stranger": stranger}


def arranged(game, moderator, **kw):
    """China (the north's players) against North Mongolia (the south's)."""
    return tables.create_table(game, "orda", "Арбалет и порох",
                               [("china", "Китай", game.factions.get(code="north")),
                                ("north_mongolia", "Северная Монголия", game.factions.get(code="south"))],
                               moderator, setup=arranged_setup(["china", "north_mongolia"], CROSSBOW_AND_SAPPER, **kw),
                               seed=11)


@pytest.fixture
def waiting(tiny_game, moderator):
    return arranged(tiny_game, moderator, rolloff=True)


@pytest.fixture
def in_battle(tiny_game, moderator, player):
    t = arranged(tiny_game, moderator)
    services.act(t.pk, player, seat(player, tiny_game.pk, t.pk), "turn_start", {})
    return t


def act_url(table, name):
    return reverse("orda:act", args=[table.game_id, table.pk, name])


def page_of(client, table, query=""):
    return client.get(reverse("orda:table", args=[table.game_id, table.pk]) + query).content.decode()


def saved(table):
    return Step.objects.filter(table=table).count(), Roll.objects.count(), Table.objects.get(pk=table.pk).state


def errors_of(response) -> list[str]:
    return re.findall(r'<li class="error">(.*?)</li>', response.content.decode())


def test_only_the_moderator_holds_the_rolloff_and_names_the_first(waiting, users, client_for):
    before = saved(waiting)
    hand = {"how": "hand", "die_china": 6, "die_north_mongolia": 1}
    named = {"first": "china", "reason": "бросили на столе"}
    for role, want in (("player", 403), ("other_player", 403), ("east_player", 403), ("stranger", 403)):
        c = client_for(users[role])
        assert c.post(act_url(waiting, "rolloff"), hand).status_code == want, role
        assert c.post(act_url(waiting, "rolloff"), {"how": "server"}).status_code == want, role
        assert c.post(act_url(waiting, "override_first"), named).status_code == want, role
    assert client_for(None).post(act_url(waiting, "rolloff"), hand).status_code == 302      # to the sign-in page
    assert saved(waiting) == before
    mod = client_for(users["moderator"])
    assert mod.post(act_url(waiting, "rolloff"), hand).status_code == 302
    table = Table.objects.get(pk=waiting.pk)
    assert table.state["rolloff"]["first"] == "china" and Step.objects.filter(table=table, kind="rolloff").count() == 1


def test_the_pages_show_the_rolloff_to_everyone_and_its_forms_to_the_moderator(waiting, users, client_for):
    mod = client_for(users["moderator"])
    page = page_of(mod, waiting)
    assert "Порядок ходов" in page and "Жеребьёвка кубиками сервера" in page and 'name="die_china"' in page
    assert "Или назначить первую фракцию" in page and act_url(waiting, "turn_start") not in page
    for role in ("player", "other_player"):
        page = page_of(client_for(users[role]), waiting)
        assert "Первый ход ждёт жеребьёвки" in page and "каждая фракция бросает кубик" in page
        assert act_url(waiting, "rolloff") not in page and act_url(waiting, "turn_start") not in page
    mod.post(act_url(waiting, "rolloff"), {"how": "hand", "die_china": 5, "die_north_mongolia": 5})
    page = page_of(client_for(users["other_player"]), waiting)
    assert "Ничья за лучший результат, перебрасывают" in page and "<strong>Китай 5</strong>" in page
    mod.post(act_url(waiting, "rolloff"), {"how": "hand", "die_china": 1, "die_north_mongolia": 3})
    page = page_of(client_for(users["other_player"]), waiting)
    assert "Первый ход — Северная Монголия." in page and act_url(waiting, "turn_start") in page
    page = page_of(client_for(users["player"]), waiting)
    assert act_url(waiting, "turn_start") not in page and "Ходит: Северная Монголия" in page
    log = page_of(mod, waiting).split('id="orda-log"')[1]
    assert "Жеребьёвка первого хода, бросок 2: Китай 1, Северная Монголия 3 — первый ход: Северная Монголия" in log


def test_hostile_rolloff_input_is_refused_in_russian_and_nothing_is_saved(waiting, users, client_for):
    mod = client_for(users["moderator"])
    before = saved(waiting)
    cases = [("rolloff", {"how": "hand", "die_china": 7, "die_north_mongolia": 1}),
             ("rolloff", {"how": "hand", "die_china": 2}),
             ("rolloff", {"how": "hand", "die_china": 2, "die_north_mongolia": 3, "die_rus": 4}),
             ("rolloff", {"how": "hand", "die_china": "два", "die_north_mongolia": 3}),
             ("rolloff", {"how": "loaded"}),
             ("override_first", {"first": "rus", "reason": "Руси нет за столом"}),
             ("override_first", {"first": "nope", "reason": "x"}),
             ("override_first", {"first": "china", "reason": "   "})]
    for name, data in cases:
        r = mod.post(act_url(waiting, name), data)
        assert r.status_code == 400, (name, data, r.status_code)
        errors = errors_of(r)
        assert errors and all(re.search("[а-яА-Я]", e) for e in errors), (name, errors)
        echoed = {str(v) for v in data.values()}
        assert not any(w not in echoed for e in errors for w in re.findall("[a-zA-Z]{3,}", e)), (name, errors)
    assert saved(waiting) == before


def test_the_shooters_side_chooses_the_push_hex_on_its_tablet(in_battle, users, client_for):
    t = in_battle
    before = saved(t)
    data = {"attacker": "cn-crossbowman-1", "target": "nm-raider-1", "push_to": "2,-1"}
    for role in ("other_player", "east_player", "stranger"):
        assert client_for(users[role]).post(act_url(t, "declare"), data).status_code == 403, role
    assert saved(t) == before
    player = client_for(users["player"])
    page = page_of(player, t, "?unit=cn-crossbowman-1")
    form = page.split('name="target" value="nm-raider-1"')[1].split("</form>")[0]
    assert re.findall(r'<option value="(-?\d+,-?\d+)"', form) == ["1,-2", "2,-2", "2,-1"]
    assert '<option value="1,-2" selected>1,-2 (по умолчанию правил)' in form
    assert 'name="second"' not in form                       # an Арбалетчик has one target
    assert player.post(act_url(t, "declare"), data).status_code == 302
    assert Table.objects.get(pk=t.pk).state["pending"]["push_to"] == [2, -1]
    for role in ("other_player", "moderator"):               # everyone sees where the target will go
        page = page_of(client_for(users[role]), t)
        assert "При попадании цель отбрасывается на 2,-1" in page
        assert re.search(r'class="hex[^"]*mark-push" data-hex="2,-1"', page)


def test_the_moderator_may_choose_the_push_hex_too(in_battle, users, client_for):
    mod = client_for(users["moderator"])
    r = mod.post(act_url(in_battle, "declare"), {"attacker": "cn-crossbowman-1", "target": "nm-raider-1",
                                                 "push_to": "2,-2"})
    assert r.status_code == 302 and Table.objects.get(pk=in_battle.pk).state["pending"]["push_to"] == [2, -2]


def test_the_paired_attack_offers_the_legal_second_targets_only(in_battle, users, client_for):
    t = in_battle
    player = client_for(users["player"])
    page = page_of(player, t, "?unit=cn-sapper-1")
    form = page.split('name="target" value="nm-thief-1"')[1].split("</form>")[0]
    assert re.findall(r'<option value="(nm-[a-z_0-9-]+)"', form) == ["nm-raider-2", "nm-thief-2"]
    assert "нет, только эта цель" in form and 'name="push_to"' not in form
    data = {"attacker": "cn-sapper-1", "target": "nm-thief-1", "second": "nm-raider-2"}
    before = saved(t)
    for role in ("other_player", "east_player", "stranger"):
        assert client_for(users[role]).post(act_url(t, "declare"), data).status_code == 403, role
    assert saved(t) == before
    assert player.post(act_url(t, "declare"), data).status_code == 302
    page = page_of(client_for(users["other_player"]), t)
    assert "Затем вторая цель: Налётчик 2" in page and "Выберите контрмеру" in page
    assert re.search(r'class="hex[^"]*mark-second" data-hex="-1,0"', page)
    other = client_for(users["other_player"])
    assert other.post(act_url(t, "counter"), {"counter": "defence"}).status_code == 302
    mod = client_for(users["moderator"])
    assert mod.post(act_url(t, "attack"), {"how": "hand", "die_attacker": 6, "die_defender": 1}).status_code == 302
    page = page_of(other, t)                                  # the second target now answers for itself
    assert "Выберите контрмеру" in page and "Затем вторая цель" not in page
    assert Table.objects.get(pk=t.pk).state["pending"]["target"] == "nm-raider-2"


def test_hostile_declarations_are_refused_in_russian_and_nothing_is_saved(in_battle, users, client_for):
    t = in_battle
    c = client_for(users["player"])
    before = saved(t)
    cases = [{"attacker": "cn-crossbowman-1", "target": "nm-raider-1", "push_to": "9,9"},
             {"attacker": "cn-crossbowman-1", "target": "nm-raider-1", "push_to": "0,-1"},
             {"attacker": "cn-crossbowman-1", "target": "nm-raider-1", "push_to": "x,y"},
             {"attacker": "cn-crossbowman-1", "target": "nm-raider-1", "push_to": "99999,1"},
             {"attacker": "cn-sapper-1", "target": "nm-thief-1", "push_to": "-2,-1"},
             {"attacker": "cn-sapper-1", "target": "nm-thief-1", "second": "nope"},
             {"attacker": "cn-sapper-1", "target": "nm-thief-1", "second": "nm-thief-1"},
             {"attacker": "cn-sapper-1", "target": "nm-thief-1", "second": "nm-raider-1"},
             {"attacker": "cn-sapper-1", "target": "nm-thief-1", "second": "cn-crossbowman-1"},
             {"attacker": "cn-crossbowman-1", "target": "nm-raider-1", "second": "nm-raider-2"},
             {"attacker": "cn-sapper-1", "target": "nm-thief-1", "second": "x" * 200}]
    for data in cases:
        r = c.post(act_url(t, "declare"), data)
        assert r.status_code == 400, (data, r.status_code)
        errors = errors_of(r)
        assert errors and all(re.search("[а-яА-Я]", e) for e in errors), (data, errors)
        assert not any(re.findall("[a-zA-Z]{3,}", e) for e in errors), (data, errors)   # no ids echoed
    assert saved(t) == before


def test_a_new_table_may_wait_for_a_rolloff(tiny_game, orda_data, users, client_for):
    c = client_for(users["moderator"])
    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    r = c.post(reverse("orda:new", args=[tiny_game.pk]),
               {"title": "Бой", "data": orda_data.pk, "mode": "skirmish", "players": 2, "rus_china": "rus",
                "mongolia": "north_mongolia", "first": "rolloff", "faction_rus": north.pk,
                "faction_north_mongolia": south.pk})
    assert r.status_code == 302
    table = Table.objects.get()
    assert table.setup["rolloff"] is True and table.setup["game"]["order"] == ["rus", "north_mongolia"]
    page = page_of(client_for(users["player"]), table)
    assert "Первый ход ждёт жеребьёвки" in page
    assert client_for(users["player"]).post(act_url(table, "turn_start")).status_code == 400
    new_page = c.get(reverse("orda:new", args=[tiny_game.pk])).content.decode()
    assert "Жеребьёвка за столом перед первым ходом" in new_page


def test_with_four_players_a_mongol_first_moves_the_zigzag_on_by_one(tiny_game, orda_data, users, client_for):
    c = client_for(users["moderator"])
    r = c.post(reverse("orda:new", args=[tiny_game.pk]),
               {"title": "Двое на двое", "data": orda_data.pk, "mode": "conquest", "players": 4, "rus_china": "rus",
                "mongolia": "north_mongolia", "first": "mongolia"})
    assert r.status_code == 302
    table = Table.objects.get()
    assert table.setup["game"]["order"] == ["north_mongolia", "china", "south_mongolia", "rus"]
    assert "rolloff" not in table.setup
    assert [s.key for s in table.sides.all()] == table.setup["game"]["order"]


def test_the_page_shows_the_latest_steps_and_sends_to_the_protocol_for_the_rest(waiting, users, client_for,
                                                                                 monkeypatch):
    """A table at tour 30 has hundreds of steps and its page is drawn after every act: it shows the latest
    (selectors.LOG_SHOWN), newest first with their dice, and says where the whole log is."""
    from larp.orda import selectors

    mod = client_for(users["moderator"])
    for dice in ((5, 5), (4, 4), (1, 3)):               # two ties, then North Mongolia first: three steps
        mod.post(act_url(waiting, "rolloff"), {"how": "hand", "die_china": dice[0], "die_north_mongolia": dice[1]})
    table = Table.objects.get(pk=waiting.pk)
    total = table.steps.count()
    state = services.current(table)
    whole = selectors.log(table, state["case"])
    assert len(whole) == total == 3
    assert selectors.log(table, state["case"], limit=2) == whole[:2]          # the same entries, dice and all
    assert whole[0]["dice"] and [d["value"] for d in whole[0]["dice"]] == [1, 3]
    log = page_of(mod, table).split('id="orda-log"')[1]
    assert "Показано шагов" not in log and "бросок 1" in log
    monkeypatch.setattr(selectors, "LOG_SHOWN", 2)
    log = page_of(mod, table).split('id="orda-log"')[1]
    assert f"Показано шагов: 2 из {total}." in log and "Весь журнал — в протоколе боя." in log
    assert reverse("orda:print", args=[table.game_id, table.pk, "protocol"]) in log
    assert "бросок 3" in log and "бросок 1:" not in log and log.count('<span class="seq">') == 2
