"""W42.1: the melee, volley and command-roll calculators with the engine's exact odds (W41.7), usable without a
board: the moderator's page, its numbers against the engine's own, and hostile input refused in Russian."""
from html import unescape

import pytest
from django.urls import reverse

from larp.campaign.labels import odds_text
from larp.campaign.models import AuditEntry
from larp.redplains.engine.modes import odds_mode
from larp.tables.models import Step, Table


def calc_url(game, **params):
    from urllib.parse import urlencode
    return reverse("redplains:calc", args=[game.pk]) + ("?" + urlencode(params, doseq=True) if params else "")


MELEE = {"calc": "melee", "m-kind": "attack", "m-a_type": "cavalry", "m-a_figures": 8, "m-a_attacks": "front",
         "m-b_type": "ashigaru_spears", "m-b_figures": 8, "m-b_hold": "on", "m-c_attacks": "left"}


def test_only_the_game_s_moderators_use_the_calculators(tiny_game, moderator, player, other_player, stranger,
                                                        client_for):
    for params in ({}, MELEE):
        path = calc_url(tiny_game, **params)
        codes = {name: client_for(user).get(path).status_code for name, user in (
            ("moderator", moderator), ("player", player), ("other_player", other_player), ("stranger", stranger),
            ("anonymous", None))}
        assert codes == {"moderator": 200, "player": 403, "other_player": 403, "stranger": 403, "anonymous": 302}
    assert client_for(moderator).post(calc_url(tiny_game), MELEE).status_code == 405


def test_the_calculators_are_reached_from_the_new_battle_page(tiny_game, moderator, client_for):
    page = client_for(moderator).get(reverse("redplains:new", args=[tiny_game.pk])).content.decode()
    assert f'href="{calc_url(tiny_game)}"' in page
    page = client_for(moderator).get(calc_url(tiny_game)).content.decode()
    assert "Калькуляторы Красной равнины" in page and "data-calc-result" not in page


def test_an_attack_s_chances_are_the_engine_s(tiny_game, moderator, client_for):
    r = client_for(moderator).get(calc_url(tiny_game, **MELEE))
    assert r.status_code == 200
    page = unescape(r.content.decode())
    engine = odds_mode({"melee": {"kind": "attack",
                                  "defender": {"id": "b", "side": "south", "type": "ashigaru_spears", "figures": 8,
                                               "hold": True},
                                  "attackers": [{"id": "a", "side": "north", "type": "cavalry", "figures": 8,
                                                 "attacks": "front"}]}})
    results = {"repelled": "атака отбита", "pushed_back": "защитник отброшен", "routed": "защитник обращён в бегство",
               "destroyed": "защитник уничтожен"}
    shown = [r for r in results if r in engine]
    assert shown
    for key in shown:
        assert f"<td>{results[key]}</td><td>{odds_text(engine[key])}</td>" in page
    assert "Итог атаки" in page and "шеренг 2" in page
    assert "Попаданий" in page and "гарантированный урон" in page
    assert f"{engine['expected_losses']['b']:.2f}".replace(".", ",") in page


def test_a_second_attacker_and_a_meeting_engagement(tiny_game, moderator, client_for):
    two = {**MELEE, "m-c_type": "samurai_spears", "m-c_figures": 8, "m-c_attacks": "rear"}
    page = client_for(moderator).get(calc_url(tiny_game, **two)).content.decode()
    assert "Второй нападающий: Пешие самураи с копьями, фигурок 8" in page
    meeting = {**MELEE, "m-kind": "meeting"}
    page = unescape(client_for(moderator).get(calc_url(tiny_game, **meeting)).content.decode())
    engine = odds_mode({"melee": {"kind": "meeting",
                                  "a": {"id": "a", "side": "north", "type": "cavalry", "figures": 8},
                                  "b": {"id": "b", "side": "south", "type": "ashigaru_spears", "figures": 8,
                                        "hold": True}, "same_cell": False}})
    assert "Победитель во встречном бою" in page
    assert odds_text(engine["winner"]["a"]) in page


def test_a_volley_s_losses_and_effect(tiny_game, moderator, client_for):
    params = {"calc": "volley", "v-t_type": "samurai_spears", "v-t_figures": 8, "v-t_in_forest": "on",
              "v-s1_type": "ashigaru_arquebus", "v-s1_figures": 4, "v-s1_straight": "on"}
    page = unescape(client_for(moderator).get(calc_url(tiny_game, **params)).content.decode())
    engine = odds_mode({"volley": {"target": {"id": "t", "side": "south", "type": "samurai_spears", "figures": 8,
                                              "in_forest": True},
                                   "shooters": [{"id": "s1", "side": "north", "type": "ashigaru_arquebus",
                                                 "figures": 4, "straight": True}]}})
    for losses, p in engine["losses"].items():
        assert f"<td>{losses}</td><td>{odds_text(p)}</td>" in page
    assert "Последствия обстрела" in page and "броня цели" in page


def test_the_command_roll_for_both_stakes(tiny_game, moderator, client_for):
    page = unescape(client_for(moderator).get(calc_url(tiny_game, **{"calc": "command", "c-rerolls": 1})).content.decode())
    engine = odds_mode({"command": {"rerolls_left": 1}})
    assert odds_text(engine["low"]["success"]) == "35 из 36 (97 %)"
    assert "<td>малая ставка</td><td>5+</td><td>35 из 36 (97 %)</td>" in page
    assert f"<td>{odds_text(engine['high']['success'])}</td>" in page


@pytest.mark.parametrize("params,words", [
    ({**MELEE, "m-a_figures": 99}, "16"),
    ({**MELEE, "m-a_figures": "много"}, "целое число"),
    ({**MELEE, "m-a_type": "dragon"}, "из списка"),
    ({**MELEE, "m-a_type": ""}, "Выберите из списка"),
    ({**MELEE, "m-c_type": "cavalry", "m-c_figures": 6, "m-c_attacks": "front"}, "с одной и той же стороны"),
    ({**MELEE, "m-kind": "meeting", "m-b_fleeing": "on"}, "Бегущий отряд не ведёт встречный бой"),
    ({**MELEE, "m-a_fleeing": "on"}, "По правилам эти отряды так сражаться не могут"),
    ({**MELEE, "m-c_type": "samurai_spears", "m-c_figures": 8, "m-c_fleeing": "on"},
     "По правилам эти отряды так сражаться не могут"),
    ({**MELEE, "m-b_mod_armour": 40}, "5"),
    ({"calc": "volley", "v-t_type": "samurai_spears", "v-t_figures": 8, "v-s1_type": "cavalry",
      "v-s1_figures": 8}, "из списка"),
    ({"calc": "command", "c-rerolls": -1}, "0"),
    ({"calc": "teleport"}, "Неизвестное действие"),
])
def test_hostile_input_is_refused_in_russian_and_nothing_is_saved(tiny_game, moderator, client_for, params, words):
    before = (Step.objects.count(), Table.objects.count(), AuditEntry.objects.count())
    r = client_for(moderator).get(calc_url(tiny_game, **params))
    assert r.status_code == 400
    page = unescape(r.content.decode())
    assert words in page and "data-calc-result" not in page
    assert (Step.objects.count(), Table.objects.count(), AuditEntry.objects.count()) == before


def test_every_troop_type_against_every_other_answers(tiny_game, moderator, client_for):
    """No pairing of the data's troop types breaks the page (the engine answers every one)."""
    from larp.redplains import situation as sit
    for a in sit.TYPES:
        for b in sit.TYPES:
            params = {**MELEE, "m-a_type": a, "m-b_type": b, "m-b_fleeing": "on" if a == b else ""}
            assert client_for(moderator).get(calc_url(tiny_game, **params)).status_code == 200, (a, b)


def test_the_page_never_offers_a_fleeing_attacker_or_shooter(tiny_game, moderator, client_for):
    """W35.1: a fleeing unit does not attack; only the defender and the target may be marked fleeing (W35.4).
    Units destroyed, dispersed or withdrawn are never offered: the page has no such status at all."""
    page = client_for(moderator).get(calc_url(tiny_game)).content.decode()
    for name in ("m-b_fleeing", "v-t_fleeing"):
        assert f'name="{name}"' in page
    for name in ("m-a_fleeing", "m-c_fleeing", "v-s1_fleeing", "v-s2_fleeing"):
        assert f'name="{name}"' not in page
    for status in ("destroyed", "dispersed", "withdrawn", "уничтожен", "рассеян", "отведён"):
        assert status not in page


def test_a_fleeing_defender_is_still_counted(tiny_game, moderator, client_for):
    page = unescape(client_for(moderator).get(calc_url(tiny_game, **{**MELEE, "m-b_fleeing": "on"})).content.decode())
    engine = odds_mode({"melee": {"kind": "attack",
                                  "defender": {"id": "b", "side": "south", "type": "ashigaru_spears", "figures": 8,
                                               "hold": True, "status": "fleeing"},
                                  "attackers": [{"id": "a", "side": "north", "type": "cavalry", "figures": 8,
                                                 "attacks": "front"}]}})
    assert "data-calc-result" in page and "W35.4" in page
    assert f"{engine['expected_losses']['b']:.2f}".replace(".", ",") in page
