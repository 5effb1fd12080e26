"""History's replay of a past turn on the map: its start, each move, each battle, and the map after regroup,
which is the next turn's start; the projector shows the console's frame; the tablets replay finished turns."""
import html
import re

import pytest
from django.urls import reverse

from larp.battles import replay, selectors, services as console
from larp.battles.models import TurnResolution
from larp.campaign import labels
from larp.campaign.services.members import create_player
from larp.maps import view as maps
from larp.turns import services as turns
from larp.turns.models import Turn
from larp.turns.selectors import names as names_of
from tests.battles.test_console_flow import fight_all, played  # noqa: F401


def text_of(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def where(drawn: dict) -> dict[str, str]:
    """{unit code: place name} of a drawn map's flags and ships."""
    return {u["code"]: u["place"] for u in drawn["flags"] + drawn["ships"]}


def colours(drawn: dict) -> dict[str, str]:
    return {n["code"]: n["colour"] for n in drawn["nodes"]}


@pytest.fixture
def finished(played):  # noqa: F811
    """Turn 1 played to its end (a modifier with its reason on the first battle) and turn 2 begun."""
    game, mod = played
    console.apply_movement(game, mod)
    turns.next_phase(game, mod)
    console.add_modifier(game, mod, 1, "attacker", 2, "засада в ущелье")
    assert fight_all(game, mod), "the turn fought no battle"
    turns.next_phase(game, mod)
    console.apply_regroup(game, mod)
    turns.next_phase(game, mod)
    assert turns.current_phase(game).turn.number == 2
    return game, mod


def test_the_replay_runs_from_the_turns_start_through_every_move_and_battle_to_the_next_turns_start(finished):
    game, _mod = finished
    turn, frames = replay.turn_frames(game, 1)
    result = TurnResolution.objects.get(turn=turn).result
    steps = selectors.movement_steps(result, names_of(game), selectors.filed_orders(turn))
    kinds = [f["kind"] for f in frames]
    assert kinds == ["start"] + ["move"] * len(steps) + ["battle"] * len(result["fought"]) + ["end"]
    assert [f["n"] for f in frames] == list(range(len(frames)))
    # The first frame: every unit where the turn began, even one that moved or was destroyed since.
    first = maps.map_view(game, **frames[0]["map"])
    names = names_of(game)
    start = {u["id"]: names["provinces"][u["province"]] for u in turn.start_state["armies"]}
    assert {code: place for code, place in where(first).items() if code in start} == start
    # Each move frame moves its own unit along its route, and the frames after it keep it there.
    for step, frame in zip(steps, frames[1:]):
        drawn = maps.map_view(game, **frame["map"])
        if step["result"] in ("moved", "occupied", "battle") and step["route"]:
            assert where(drawn)[step["code"]] == names["provinces"][step["route"][-1]], frame["title"]
    # Each battle frame tells the engine's decision, marks the province and carries the modifier's reason.
    battles = [f for f in frames if f["kind"] == "battle"]
    assert [b["decision"] for b in battles] == [labels.decision(f) for f in result["fought"]]
    assert [b["place"] for b in battles] == [f["province"] for f in result["fought"]]
    assert any("засада в ущелье" in line for line in battles[0]["lines"])
    # The last frame is the next turn's start, which is the map as it stands now.
    last = maps.map_view(game, **frames[-1]["map"])
    now = maps.map_view(game)
    assert where(last) == where(now) and colours(last) == colours(now)
    next_start = Turn.objects.get(game=game, number=2).start_state
    assert {a["id"]: a["province"] for a in next_start["armies"]} == {
        code: a["province"] for code, a in frames[-1]["map"]["state"]["armies"].items()}


def test_the_console_steps_the_replay_and_the_projector_follows(finished, client_for):
    game, mod = finished
    c = client_for(mod)
    _turn, frames = replay.turn_frames(game, 1)
    url = reverse("battles:history_replay", args=[game.pk, 1])
    assert url in c.get(reverse("battles:history_turn", args=[game.pk, 1])).content.decode()
    for frame in frames:
        page = c.get(url, {"frame": frame["n"]})
        assert page.status_code == 200
        assert frame["title"] in text_of(page)
    assert c.get(url, {"frame": "999"}).status_code == 200  # past the end: the last frame
    assert 'data-frame="%d"' % frames[-1]["n"] in c.get(url, {"frame": "999"}).content.decode()
    partial = c.get(url, {"frame": 1}, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in partial and 'data-frame="1"' in partial
    projector = reverse("battles:projector", args=[game.pk])
    version = selectors.hall_version(game)
    assert "data-projector-replay" not in c.get(projector).content.decode()
    c.post(reverse("battles:history_replay_hall", args=[game.pk, 1]), {"frame": 2, "show": "1"})
    assert selectors.hall_version(game) != version
    shown = text_of(c.get(projector))
    assert "Повтор хода 1" in shown and frames[2]["title"] in shown
    c.get(url, {"frame": 3})  # the console steps on: the hall follows
    assert frames[3]["title"] in text_of(c.get(projector))
    c.post(reverse("battles:history_replay_hall", args=[game.pk, 1]), {"frame": 3, "show": "0"})
    assert "data-projector-replay" not in c.get(projector).content.decode()


def test_a_player_replays_a_finished_turn_without_the_moderators_reasons(finished, client_for):
    game, _mod = finished
    player, _ = create_player(game.factions.get(code="nicaea"), "replay-player")
    c = client_for(player)
    assert reverse("tablet:replay", args=[game.pk, 1]) in c.get(reverse("tablet:history", args=[game.pk])).content.decode()
    _turn, frames = replay.turn_frames(game, 1)
    battle = next(f for f in frames if f["kind"] == "battle")
    page = text_of(c.get(reverse("tablet:replay", args=[game.pk, 1]), {"frame": battle["n"]}))
    assert battle["title"] in page and battle["decision"].capitalize()[:20] in page
    assert "засада в ущелье" not in page
    # The turn being played is not replayed on a tablet: the hall's projector tells it as it happens.
    assert c.get(reverse("tablet:replay", args=[game.pk, 2])).status_code == 404


def test_a_stranger_gets_no_replay(finished, client_for, django_user_model):
    game, _mod = finished
    stranger = django_user_model.objects.create_user("stranger", password="x")
    c = client_for(stranger)
    assert c.get(reverse("tablet:replay", args=[game.pk, 1])).status_code in (403, 404)
    assert c.get(reverse("battles:history_replay", args=[game.pk, 1])).status_code in (403, 404)
