"""A whole battle through the views: armies, approval, actions with hand and server dice, undo, override, end."""
from larp.campaign.models import AuditEntry
from larp.dice.models import Roll
from larp.tables.models import Table
from larp.tactical import services
from larp.tactical import situation as sit

from .conftest import add_unit, url


def ids(table):
    return {u["name"]: u["id"] for u in table.state["units"]}


def test_armies_built_approved_and_started(battle):
    state = battle.state
    assert state["phase"] == "battle" and battle.status == Table.PLAYING
    assert state["start"] == {"north": 12, "south": 12}
    phal = next(u for u in state["units"] if u["name"] == "Фаланга")
    assert phal["general"]["talents"] == {"steadiness": 2, "melee": 1, "specialty": 0}
    assert [sum(g["count"] for g in r) for r in phal["ranks"]] == [5, 5, 2]
    # the general's dice typed in at the table are on the record as hand dice
    assert Roll.objects.filter(stream=battle.dice, source=Roll.HAND).count() == 4


def test_refusal_explained_in_russian_and_not_approvable(table, player, moderator, client_for):
    c = client_for(player)
    bad = {"name": "Фаланга", "entry": "phalangite", "specialty": "3", "steadiness": "3", "melee": "2",
           "weapon": "bow", "armour": "", "shield": "", "horse_armour": "", "formation": "very_dense", "count": "12"}
    assert add_unit(c, table, "north", bad).status_code == 302
    page = c.get(url(table, "table")).content.decode()
    assert "T5.3" not in page and "этот род войск не носит такого оружия" in page
    r = client_for(moderator).post(url(table, "approve"), {"side": "north", "approve": "on"})
    assert r.status_code == 400 and "Утвердить можно только армию по правилам" in r.content.decode()


def test_clash_with_hand_dice_then_server_and_replay(battle, moderator, client_for):
    mod = client_for(moderator)
    u = ids(battle)
    data = {"kind": "clash", "attacker": u["Рыцари"], "defender": u["Фаланга"], "attacked_from": "front",
            "hand_dice": "6 5"}
    r = mod.post(url(battle, "act"), data)
    assert r.status_code == 400 and "Нужен ещё один кубик" in r.content.decode()
    assert not battle.steps.filter(kind="clash").exists()
    r = mod.post(url(battle, "act"), {**data, "server_rest": "on"})
    assert r.status_code == 302
    step = battle.steps.get(kind="clash")
    assert step.payload["by"]["hand"] == [6, 5] and len(step.payload["by"]["server"]) > 0
    server = list(Roll.objects.filter(stream=battle.dice, source=Roll.SERVER, ref=step.ref).order_by("counter"))
    assert [r.value for r in server] == step.payload["by"]["server"]
    battle.refresh_from_db()
    assert battle.state == services.replay_table(battle)
    before = sit.replay(battle.setup, [(s.kind, s.payload, s.outcome) for s in battle.steps.filter(seq__lt=step.seq)])
    assert sit.rerun(before, "clash", step.payload) == step.outcome
    assert AuditEntry.objects.filter(action="table_step", detail__seq=step.seq).exists()


def test_undo_override_and_end(battle, moderator, client_for):
    mod = client_for(moderator)
    u = ids(battle)
    mod.post(url(battle, "act"), {"kind": "test", "test_kind": "unit", "attacker": u["Арбалетчики"], "killed": "3",
                                  "attacked_from": "front", "server_rest": "on"})
    assert battle.steps.filter(kind="test").count() == 1
    assert mod.post(url(battle, "undo"), {"reason": ""}).status_code == 400
    assert mod.post(url(battle, "undo"), {"reason": "не тот отряд"}).status_code == 302
    assert battle.steps.get(kind="test").undone
    assert mod.post(url(battle, "override"), {"unit": u["Арбалетчики"], "state": "fleeing", "reason": ""}).status_code == 400
    assert mod.post(url(battle, "override"), {"unit": u["Арбалетчики"], "state": "fleeing",
                                              "reason": "бегут за край стола"}).status_code == 302
    battle.refresh_from_db()
    assert next(x for x in battle.state["units"] if x["name"] == "Арбалетчики")["fleeing"]
    assert AuditEntry.objects.filter(action="table_override").exists()
    assert mod.post(url(battle, "end"), {"winner": "north", "ended_by": "rout"}).status_code == 302
    battle.refresh_from_db()
    assert battle.status == Table.FINISHED
    assert battle.result == {"winner": "north", "ended_by": "rout",
                             "losses": {"north": {"start": 12, "lost": 0}, "south": {"start": 12, "lost": 0}}}
    assert battle.state == services.replay_table(battle)


def test_odds_preview_and_player_odds(battle, moderator, player, client_for):
    u = ids(battle)
    q = {"kind": "clash", "attacker": u["Рыцари"], "defender": u["Фаланга"], "attacked_from": "front"}
    page = client_for(moderator).get(url(battle, "table"), q).content.decode()
    assert "Точные шансы" in page and "%" in page
    page = client_for(player).get(url(battle, "table"), {**q, "attacker": u["Фаланга"], "defender": u["Рыцари"]})
    assert "Проигравший" in page.content.decode()
    page = client_for(player).get(url(battle, "table"), q).content.decode()
    assert "Сначала выберите свой отряд" in page


def test_initiative_and_the_turn_tracker(battle, moderator, player, client_for):
    mod = client_for(moderator)
    r = mod.post(url(battle, "act"), {"kind": "test", "test_kind": "initiative", "hand_dice": "5 2"})
    assert r.status_code == 302
    step = battle.steps.get(kind="test")
    assert step.outcome["chooser"] == "north"      # 5 + north's Initiative 1 against 2 + 0
    assert client_for(player).post(url(battle, "turn"), {"first": "north"}).status_code == 403
    assert mod.post(url(battle, "turn"), {"first": "west"}).status_code == 400
    assert mod.post(url(battle, "turn"), {"first": "north"}).status_code == 302
    for _ in range(5):
        assert mod.post(url(battle, "turn"), {}).status_code == 302
    battle.refresh_from_db()
    assert battle.state["turn"] == {"number": 1, "side": "south", "step": 0, "first": "north"}
    for _ in range(5):
        mod.post(url(battle, "turn"), {})
    battle.refresh_from_db()
    assert battle.state["turn"] == {"number": 2, "side": "north", "step": 0, "first": "north"}
    page = client_for(player).get(url(battle, "table")).content.decode()
    assert "Ход 2, ходит: Север" in page
    assert battle.state == services.replay_table(battle)


def test_show_the_odds_after_a_refused_resolve_stays_on_the_table(battle, moderator, client_for):
    """A refused «Решить» leaves the page at the act's address; its «Показать шансы» (a GET form) goes to the
    table's page, and a GET of the act's address itself goes back there too, never a 405."""
    mod = client_for(moderator)
    u = ids(battle)
    q = {"kind": "clash", "attacker": u["Рыцари"], "defender": u["Фаланга"], "attacked_from": "front"}
    r = mod.post(url(battle, "act"), {**q, "hand_dice": "6 5"})
    assert r.status_code == 400
    assert 'id="tr-action-form"' in r.content.decode() and f'action="{url(battle, "table")}"' in r.content.decode()
    r = mod.get(url(battle, "act"), {**q, "preview": "1"})
    assert r.status_code == 302 and r.url.startswith(url(battle, "table") + "?")
    assert "Точные шансы" in mod.get(r.url).content.decode()
    assert not battle.steps.filter(kind="clash").exists()


def test_a_removal_names_the_unit_and_players_see_no_rule_codes(table, player, moderator, client_for):
    from .conftest import PHALANX, add_unit, url
    north = client_for(player)
    add_unit(north, table, "north", PHALANX)
    add_unit(north, table, "north", {**PHALANX, "name": "Гипасписты", "entry": "hypaspist",
                                     "weapon": "infantry_spear", "count": "8", "formation": "dense"})
    page = north.get(url(table, "table")).content.decode()
    assert "Генералы:" in page and "T12.1" not in page
    assert "(T12.1)" in client_for(moderator).get(url(table, "table")).content.decode()
    table.refresh_from_db()
    uid = next(u["id"] for u in table.state["armies"]["north"]["units"] if u["name"] == "Гипасписты")
    assert north.post(url(table, "army", "north", "remove-unit"), {"item": uid}).status_code == 302
    assert "Отряд «Гипасписты» убран из армии" in north.get(url(table, "table")).content.decode()
