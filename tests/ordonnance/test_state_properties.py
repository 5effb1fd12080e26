"""Ordonnance engine properties over random legal states (hypothesis): no card from nothing, one place per
card, no play of a card already laid (or not held), laid cards never move, byte-identical replays (issue 32).

A state is a seeded deal of an 18-card roster to 2-3 players advanced by a random
number of legal moves; then one call applies a batch of random moves, legal and
not (another player's turn, a card already on the table, a card in another hand).
"""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import result, run_case

SYMBOLS = ["spear", "bow", "swords", "helmet", "flag"]
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = ["anna", "boris", "vera", "gleb"]


def _symbols(mask):
    return [SYMBOLS[i] for i in range(5) if mask >> i & 1]


# small: each play searches C11 over the pool
DECK = [{"id": f"c{i:02d}", "symbols": _symbols(1 + (i * 11) % 31)} for i in range(18)]
IDS = sorted(c["id"] for c in DECK)


def once(mode: str, case: dict) -> dict:
    code, out, err = run_case(mode, case)
    assert code == 0, err
    return json.loads(out)


def identical(mode: str, case: dict) -> dict:
    text = json.dumps(case, ensure_ascii=False)
    once = run_case(mode, text)
    assert once == run_case(mode, text), "the same input and seed give byte-identical output"
    assert once[0] == 0, once[2]
    return json.loads(once[1])


def places(state: dict, players: list[str]) -> list[str]:
    return (state["draw_pile"] + [c for p in players for c in state["hands"][p]]
            + [p["card"] for p in state["plays"]])


@st.composite
def games(draw):
    n = draw(st.integers(2, 3))
    players = PLAYERS[:n]
    dealt = identical("deal", {"players": players, "deck": DECK, "order": None,
                                    "seed": draw(st.integers(0, 10 ** 9)), "first_player": None})
    assert sorted(dealt["draw_pile"] + [c for p in players for c in dealt["hands"][p]]) == IDS
    state = {"draw_pile": dealt["draw_pile"], "hands": dealt["hands"], "plays": [], "to_move": dealt["to_move"]}
    # a random legal prefix, laid in one call: the mover lays a card of its hand (or the one it draws)
    moves, sim_hands, sim_pile = [], {p: list(h) for p, h in state["hands"].items()}, list(state["draw_pile"])
    mover = state["to_move"]
    for _ in range(draw(st.integers(0, 10))):
        if sim_pile:
            sim_hands[mover].append(sim_pile.pop(0))
        card = draw(st.sampled_from(sim_hands[mover]))
        sim_hands[mover].remove(card)
        moves.append({"player": mover, "card": card, "territory": draw(st.integers(1, 5))})
        mover = players[(players.index(mover) + 1) % n]
    if moves:
        state = once("play", {"players": players, "deck": DECK, **state, "moves": moves})["state"]
    return players, state


@st.composite
def batches(draw):
    players, state = draw(games())
    laid = [p["card"] for p in state["plays"]]
    hands, pile = {p: list(h) for p, h in state["hands"].items()}, list(state["draw_pile"])
    mover, moves = state["to_move"] or players[0], []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["own", "own", "own", "laid", "any", "out_of_turn"]))
        player = draw(st.sampled_from(players)) if kind == "out_of_turn" else mover
        if kind == "laid" and laid:
            card = draw(st.sampled_from(laid))
        elif kind in ("any", "out_of_turn") or not (hands[mover] or pile):
            card = draw(st.sampled_from(IDS))
        else:   # as the engine will: draw first, then lay a card of the hand (a legal move unless the line is full)
            if pile:
                hands[mover].append(pile.pop(0))
            card = draw(st.sampled_from(hands[mover]))
            hands[mover].remove(card)
            laid.append(card)
            mover = players[(players.index(mover) + 1) % len(players)]
        moves.append({"player": player, "card": card, "territory": draw(st.integers(1, 5))})
    return players, state, moves


@SETTINGS
@given(batch=batches())
def test_a_batch_of_moves_keeps_every_card_in_one_place_and_a_refused_move_changes_nothing(batch):
    players, state, moves = batch
    out = identical("play", {"players": players, "deck": DECK, **state, "moves": moves})
    after = out["state"]
    assert sorted(places(after, players)) == IDS, "no card from nothing, none lost, none in two places"
    assert after["plays"][:len(state["plays"])] == state["plays"], "a laid card stays where it was laid"
    on_table = {p["card"] for p in state["plays"]}
    laid_now = [e for e in out["events"] if e["result"] == "laid"]
    assert [p["card"] for p in after["plays"][len(state["plays"]):]] == [e["card"] for e in laid_now]
    for e in out["events"]:
        if e["card"] in on_table:
            assert e["result"] == "refused", "a card already on the table is never played again"
        if e["result"] == "laid":
            on_table.add(e["card"])
    per_territory = {}
    for p in after["plays"]:
        key = (p["player"], p["territory"])
        per_territory[key] = per_territory.get(key, 0) + 1
    assert max(per_territory.values(), default=0) <= 4, "at most four cards of a player in a territory"
    kept = [m for m, e in zip(moves, out["events"]) if e["result"] != "refused"]
    if len(kept) < len(moves):
        without = once("play", {"players": players, "deck": DECK, **state, "moves": kept})
        assert without["state"] == after, "a refused move changes nothing (its draw included)"
