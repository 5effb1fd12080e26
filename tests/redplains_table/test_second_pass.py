"""Red Plains at the hall, second pass (issue 34): the river and the bridge set up on the «new battle» page, drawn on
the board and given to the engine; one press rolls all the execution's remaining dice; the moderator's page has the
tables' frame; rulings show on the tablets; the protocol lists undone steps and is footed with the system's name;
the players' screens carry no rule numbers; the projector says whose move it is and, at the end, who won."""
import re

import pytest
from django.urls import reverse

from larp.redplains import services
from larp.redplains.engine.turn import turn_mode
from larp.redplains import situation as sit

from .conftest import ARMIES, PLACES, deploy_both, give_turn_one
from .test_printing import pdf_text

NEW = {"title": "У реки", "north_name": "Журавли", "north_faction": "", "south_name": "Скорпионы",
       "south_faction": "", "defender": "south", "north_messengers": 1, "south_messengers": 0, "hills": "",
       "forests": "", "north_type_1": "cavalry", "north_figures_1": 8, "north_type_2": "samurai_spears",
       "north_figures_2": 12, "south_type_1": "ashigaru_spears", "south_figures_1": 10,
       "south_type_2": "samurai_bows", "south_figures_2": 6}


def page(client, table):
    r = client.get(reverse("redplains:table", args=[table.game_id, table.pk]))
    assert r.status_code == 200
    return r.content.decode()


def act(client, table, name, data=None):
    return client.post(reverse("redplains:act", args=[table.game_id, table.pk, name]), data or {})


def test_the_new_page_sets_up_the_river_and_the_bridge_and_the_board_draws_them(tiny_game, moderator, client_for):
    c = client_for(moderator)
    new = reverse("redplains:new", args=[tiny_game.pk])
    form = c.get(new).content.decode()
    assert 'name="river"' in form and '<option value="A13 C13">A13 — C13</option>' in form
    r = c.post(new, {**NEW, "bridge": "A13 C13"})                      # a bridge needs the river
    assert r.status_code == 400 and "Мост стоит над рекой" in r.content.decode()
    r = c.post(new, {**NEW, "river": "on", "bridge": "A13 C13", "forests": "C13"})
    assert r.status_code == 400 and "Лес нельзя ставить ни на одну из клеток" in r.content.decode()
    r = c.post(new, {**NEW, "river": "on", "bridge": "A13 C13", "hills": "A24"})
    assert r.status_code == 400 and "в зоне расстановки защищающейся армии" in r.content.decode()
    assert not tiny_game.tables.exists()
    r = c.post(new, {**NEW, "river": "on", "bridge": "A13 C13", "hills": "C24"})
    assert r.status_code == 302
    table = tiny_game.tables.get()
    assert table.setup["field"]["river"] is True and table.setup["field"]["bridge"] == ["A13", "C13"]
    board = page(c, table)
    assert "data-river" in board and 'data-bridge="A13 — C13"' in board
    assert "Река течёт между первыми линиями; мост соединяет A13 — C13." in board


def _n1_attack(tiny_game, moderator, player, other_player, river):
    """North's cavalry n1 attacking from A11 into C11 (across the line of contact) in turn 1, the turn run by the
    engine with a fixed seed: its melee result."""
    setup = sit.make_setup(ARMIES, messengers={"north": 1, "south": 0}, river=river)
    table = services.create(tiny_game, moderator, "Брод", [("north", "С", None), ("south", "Ю", None)], setup,
                            seed=4242)
    deploy_both(table, moderator)
    give_turn_one(table, moderator, player, other_player)
    table.refresh_from_db()
    case = sit.turn_case(table.setup, table.state)
    assert case["field"]["river"] is river                                       # the engine gets the river
    out = turn_mode({**case, "seed": 7})
    found = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("units"), dict) and "n1" in node["units"] and "impetus" in node["units"]["n1"]:
                found.append(node["units"]["n1"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(out)
    assert found, "n1 fought no melee"
    return found[0]


def test_the_engine_counts_the_river(tiny_game, moderator, player, other_player):
    """W36.2: a unit attacking across the river has 1 impetus less (the same attack, the same dice)."""
    dry = _n1_attack(tiny_game, moderator, player, other_player, river=False)
    wet = _n1_attack(tiny_game, moderator, player, other_player, river=True)
    assert wet["impetus"] == dry["impetus"] - 1


def test_one_press_rolls_all_the_remaining_dice_each_group_on_the_log(table, moderator, player, other_player,
                                                                      client_for):
    deploy_both(table, moderator)
    give_turn_one(table, moderator, player, other_player)
    c = client_for(moderator)
    text = page(c, table)
    assert "data-exec-all" in text and "Бросить все оставшиеся кубики" in text
    assert act(client_for(player), table, "dice_all").status_code == 403          # the moderator's act
    r = act(c, table, "dice_all")
    assert r.status_code == 302
    table.refresh_from_db()
    assert sit.preview(table.setup, table.state)["complete"]
    groups = table.steps.filter(kind="dice", undone=False)
    assert groups.count() >= 2 and all(s.payload["source"] == "server" for s in groups)
    assert "data-exec-all" not in page(c, table) and "data-execute" in page(c, table)
    r = act(c, table, "dice_all")                                                # nothing left: refused
    assert r.status_code == 400 and table.steps.filter(kind="dice").count() == groups.count()


def _frame(html):
    m = re.search(r'<div class="console-frame table-frame" data-table-frame[^>]*>(.*?)</div>\s*</div>\s*</div>', html, re.S)
    assert m, "no table frame"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", m.group(1)))


def test_the_moderator_page_has_the_frame_with_the_turn_whose_move_and_the_next_act(table, moderator, player,
                                                                                   other_player, client_for):
    c = client_for(moderator)
    html = page(c, table)
    assert html.index("data-table-frame") < html.index('class="rp rp-moderator"')      # first in <main>
    frame = _frame(html)
    assert "Ход расстановки" in frame and "Ждём: Клан Журавля, Клан Скорпиона — расстановка" in frame
    assert 'href="#side-north"' in html
    services.deploy(table.pk, moderator, "north", PLACES["north"])
    services.confirm(table.pk, moderator, "north")
    assert "Ждём: Клан Скорпиона — расстановка" in _frame(page(c, table))
    services.deploy(table.pk, moderator, "south", PLACES["south"])
    services.confirm(table.pk, moderator, "south")
    frame = _frame(page(c, table))
    assert "Ход 1 из 12 · Фаза командования" in frame and "ставка, бросок и приказы" in frame
    give_turn_one(table, moderator, player, other_player)
    html = page(c, table)
    assert "Мастер: кубики исполнения" in _frame(html) and 'href="#rp-dice"' in html and 'id="rp-dice"' in html
    services.all_execution_dice(table.pk, moderator)
    html = page(c, table)
    assert 'href="#rp-execute"' in html and 'id="rp-execute"' in html
    services.execute(table.pk, moderator)
    html = page(c, table)
    frame = _frame(html)
    assert "Битва окончена" in frame and "Клан Журавля" in frame and "frame-whose over" in html
    assert "data-frame-next" not in html
    assert "Битва окончена" in page(client_for(player), table)
    assert "data-table-frame" not in page(client_for(player), table)             # the frame is the moderator's


def test_rulings_show_on_the_tablets_and_the_protocol_lists_undone_steps(table, moderator, player, other_player,
                                                                         client_for):
    services.override(table.pk, moderator, "s2", {"figures": 6}, "пришли из резерва")      # in the deployment turn
    deploy_both(table, moderator)
    services.override(table.pk, moderator, "s1", {"figures": 5}, "подошло подкрепление")
    give_turn_one(table, moderator, player, other_player)
    services.execution_dice(table.pk, moderator, hand=None)
    services.undo(table.pk, moderator, "кубик скатился со стола")
    for client in (client_for(player), client_for(other_player)):
        text = page(client, table)
        assert "Принятые решения мастера" in text
        assert "Решение мастера об отряде «Асигару с копьями 1»: фигурок: 5 — подошло подкрепление" in text
        assert "Мастер отменил шаг — кубик скатился со стола" in text
    assert "Мастер отменил шаг (кубики исполнения) — кубик скатился со стола" in page(client_for(moderator), table)
    services.all_execution_dice(table.pk, moderator)
    services.execute(table.pk, moderator)
    protocol = pdf_text(client_for(moderator), table, "protocol")
    assert "Отменённые шаги" in protocol and "кубик скатился со стола" in protocol
    assert "кубики исполнения" in protocol
    assert "Ход расстановки: мастер изменил отряд «Асигару с копьями 2» (пришли из резерва)" in protocol
    assert "Ход 0" not in protocol                                                # turns count from 1
    assert "Warlords: Битва на Красной равнине · протокол битвы" in protocol and "автобоя" not in protocol


def test_the_players_screens_and_the_projector_carry_no_rule_numbers(table, moderator, player, other_player,
                                                                      client_for):
    deploy_both(table, moderator)
    services.stake(table.pk, player, "north", "low")
    services.roll(table.pk, player, "north")
    for client in (client_for(player), client_for(other_player)):
        assert not re.search(r"\bW\d+(\.\d+)?\b", page(client, table))
    assert re.search(r"\(W9\.3\)", page(client_for(moderator), table))                # kept for the moderator
    projector = client_for(moderator).get(reverse("redplains:projector", args=[table.game_id, table.pk]))
    text = projector.content.decode()
    assert not re.search(r"\bW\d+(\.\d+)?\b", text)
    assert "Ход 1 из 12" in text and "Ждём: Клан Журавля, Клан Скорпиона — ставка, бросок и приказы" in text


def test_the_projector_shows_the_winner_and_the_losses(table, moderator, player, other_player, client_for):
    deploy_both(table, moderator)
    give_turn_one(table, moderator, player, other_player)
    services.all_execution_dice(table.pk, moderator)
    services.execute(table.pk, moderator)
    text = client_for(moderator).get(reverse("redplains:projector", args=[table.game_id, table.pk])).content.decode()
    winner = re.search(r'<p class="rp-proj-winner"[^>]*>(.*?)</p>', text, re.S).group(1)
    assert "Клан Журавля" in winner
    losses = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.search(r"data-losses>(.*?)</table>", text, re.S).group(1)))
    table.refresh_from_db()
    south = table.result["losses"]["south"]
    assert f"Клан Скорпиона {south['lost']} {south['start']}" in losses and south["start"] == 8


def test_the_moderator_sets_the_terrain_before_play_and_the_engine_gets_it(table, moderator, player, client_for):
    """A table the bridge made has no terrain: the moderator sets the river, the bridge, hills and forests before
    play (a step on the log, checked as the deployment would check it); the board and the engine's case get them."""
    c = client_for(moderator)
    assert 'id="rp-terrain"' in page(c, table)
    assert act(client_for(player), table, "terrain", {"river": "on"}).status_code == 403
    r = act(c, table, "terrain", {"river": "on", "bridge": "B12 D12", "forests": "D12"})     # a forest on the bridge
    assert r.status_code == 400 and "леса нет на мосту" in r.content.decode()
    r = act(c, table, "terrain", {"river": "on", "bridge": "B12 D12", "hills": "C23", "forests": "D25"})
    assert r.status_code == 302
    table.refresh_from_db()
    assert sit.field_of(table.setup, table.state)["bridge"] == ["B12", "D12"]
    assert table.setup["field"]["river"] is False                                  # the setup stays as it was made
    html = page(c, table)
    assert 'data-bridge="B12 — D12"' in html and "data-river" in html
    state = sit.replay(table.setup, services.step_dicts(table))
    assert state == table.state and sit.turn_case(table.setup, state)["field"]["river"] is True
    deploy_both(table, moderator)
    r = act(c, table, "terrain", {"river": ""})                                    # not after the deployment
    assert r.status_code == 400 and "до того, как одна из сторон подтвердит" in r.content.decode()
    assert 'id="rp-terrain"' not in page(c, table)
