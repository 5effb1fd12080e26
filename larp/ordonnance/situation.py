"""The one adapter of «Ордонанс»: a table's setup and live steps -> engine cases -> the replayed state.

`Table.setup` is the engine's `contest` case (players, deck, plays) with the table's own keys
beside it (mode, first player, territory names, the scoring to announce, the deck's name);
a table made by the bridge from a battle of the war carries only the case, and `setup_of`
fills in the rest. The live steps (larp.tables.models.Step) are:

- `lot`   the first player: `{"first_player": key, "how": "server"|"hand", "die": n}` (a die of as
          many sides as players, on the record);
- `deal`  a virtual deck's lot and shuffle: `{"first_player", "how", "die", "picks": [...]}`, where
          `picks[j]` is the server die (sides i + 1) for position i = len - 1 - j of the Fisher-Yates
          shuffle (larp.rules.dice.shuffled); the engine deals from the order it gives;
- `play`  one laid card: `{"player", "territory", "card"}` (symbols at a physical table, an id of
          the deck in a virtual game);
- `override_turn` the moderator gives the turn to `{"to_move": key}`, with the reason;
- `override_end`  the moderator ends a physical game at a dead end (C13 ruling), with the reason.

The state is always the engine's replay of these steps from the setup (`replay`).
"""
from __future__ import annotations

from typing import Any, Iterable

from larp.rules import dice

from .engine import modes
from .engine import parse as p
from .engine.errors import OrdonnanceCaseError
from .engine.table import Table as EngineTable
from .words import SYMBOLS

PHYSICAL, VIRTUAL = "physical", "virtual"
TERRITORIES = 5


def ordered(symbols: Iterable[str]) -> list[str]:
    """A card's symbols in rank order (C2), duplicates dropped."""
    found = set(symbols)
    return [s for s in SYMBOLS if s in found]


def expand_deck(cards: list[dict]) -> list[dict]:
    """A deck list's kinds with counts -> the engine's roster, one entry per card with its id."""
    out = []
    for kind in cards:
        for _ in range(int(kind.get("count", 0))):
            out.append({"id": f"c{len(out) + 1:03d}", "symbols": ordered(kind["symbols"])})
    return out


def setup_of(setup: dict, side_keys: list[str]) -> dict:
    """The table's setup with every key present (a bridge-made setup carries only the contest case)."""
    out = dict(setup or {})
    out.setdefault("players", list(side_keys))
    out.setdefault("deck", None)
    out.setdefault("plays", [])
    out.setdefault("mode", VIRTUAL if out.get("virtual") else PHYSICAL)
    out.setdefault("territory_names", None)
    out.setdefault("announce", "territories")
    out.setdefault("first_player", None)
    out.setdefault("deck_name", None)
    out.setdefault("made_for_tests", False)
    return out


def territory_name(setup: dict, t: int) -> str | None:
    names = setup.get("territory_names") or []
    return names[t - 1] if len(names) >= t and names[t - 1] else None


def shuffled_order(ids: list[str], picks: list[int]) -> list[str]:
    """The deck's order from the recorded dice: position i takes picks[len - 1 - i] (a die of i + 1 sides)."""
    n = len(ids)
    return dice.shuffled(ids, lambda i: picks[n - 1 - i] - 1)


def _kind(step) -> str:
    return step.kind if hasattr(step, "kind") else step["kind"]


def _payload(step) -> dict:
    return step.payload if hasattr(step, "payload") else step["payload"]


def _seq(step) -> int | None:
    return step.seq if hasattr(step, "seq") else step.get("seq")


def _rules_case(setup: dict) -> dict:
    return {"rules": setup["rules"]} if setup.get("rules") else {}


def _card_symbols(card: Any, deck: list[dict] | None) -> list[str]:
    if isinstance(card, str):
        for c in deck or []:
            if c.get("id") == card:
                return ordered(c["symbols"])
        return []
    return ordered(card.get("symbols", [])) if isinstance(card, dict) else []


def replay(setup: dict, steps: list) -> dict:
    """The state of the table after the live steps (raises OrdonnanceCaseError on a step the engine refuses)."""
    if setup["mode"] == VIRTUAL:
        return _replay_virtual(setup, steps)
    return _replay_physical(setup, steps)


def _explain(setup: dict, state: dict) -> None:
    """Per decided territory, the engine's `versus` (why the winner beats each other army) at this state."""
    deck = setup.get("deck")
    pool = None
    if deck is not None:
        laid = {}
        for play in state["plays"]:
            key = tuple(play["symbols"])
            laid[key] = laid.get(key, 0) + 1
        pool = []
        for card in deck:
            key = tuple(ordered(card["symbols"]))
            if laid.get(key, 0) > 0:
                laid[key] -= 1
            else:
                pool.append({"symbols": list(key)})
    why = {}
    for terr in state["result"]["territories"]:
        if not terr["decided"]:
            continue
        t = terr["territory"]
        armies = []
        for player in setup["players"]:
            cards = [{"symbols": pl["symbols"]} for pl in state["plays"] if pl["player"] == player
                     and pl["territory"] == t][:4]
            army = {"player": player, "cards": cards}
            if len(cards) == 4:
                army["completed_at"] = terr["armies"][player]["completed_at"]
            armies.append(army)
        analysis = modes.territory({"armies": armies, "pool": pool, **_rules_case(setup)})
        why[str(t)] = {"versus": analysis.get("versus", []),
                       "armies": {a["player"]: a for a in analysis["armies"]}}
    state["why"] = why


def _next_player(table: EngineTable, players: list[str], after: str) -> str | None:
    start = players.index(after)
    for k in range(1, len(players) + 1):
        candidate = players[(start + k) % len(players)]
        if table.can_lay_somewhere(candidate):
            return candidate
    return None


def _replay_physical(setup: dict, steps: list) -> dict:
    """A physical table: the `contest` mode's replay, the turn followed clockwise (not enforced, C7)."""
    case = {"players": setup["players"], "deck": setup["deck"], "plays": [], **_rules_case(setup)}
    rules = p.rules_of(case)
    seats = p.players(case["players"], rules)
    deck = p.deck(case, rules, need_ids=False)
    index = deck.index() if deck is not None else None
    table = EngineTable(rules, seats, deck)
    players = list(seats)
    first = setup.get("first_player")
    to_move = first
    plays, events, refused = [], [], []
    dead_end = False
    entries = [{"kind": "play", "payload": pl, "seq": None} for pl in setup.get("plays") or []] + list(steps)
    for step in entries:
        kind, payload = _kind(step), _payload(step)
        if kind == "lot":
            first = to_move = payload["first_player"]
        elif kind == "override_turn":
            to_move = payload["to_move"]
        elif kind == "override_end":
            if not table.game_over:
                laid = table.end_in_dead_end()
                events.append({"seq": _seq(step), "play": None, **laid})
                dead_end = True
        elif kind == "play":
            number = len(plays) + 1
            where = f"plays[{number - 1}]"
            player = p.player(payload.get("player"), f"{where}.player", seats)
            t = p.territory(payload.get("territory"), f"{where}.territory", rules)
            mask, cid = p.card(payload.get("card"), f"{where}.card", rules, deck, index)
            reason = table.refusal(player, t)
            if reason is not None:
                refused.append({"seq": _seq(step), "player": player, "territory": t, "reason": reason.value})
                continue
            laid = table.lay(number, player, t, mask, f"{where}.card")
            symbols = _card_symbols(payload.get("card"), setup.get("deck"))
            plays.append({"n": number, "seq": _seq(step), "player": player, "territory": t,
                          "symbols": symbols, "card": cid})
            events.append({"seq": _seq(step), "play": number, "player": player, "territory": t, **laid})
            to_move = None if table.game_over else _next_player(table, players, player)
    result = table.result()
    state = {"mode": PHYSICAL, "players": players, "first_player": first, "to_move": to_move,
             "plays": plays, "events": events, "refused": refused, "result": result, "dead_end": dead_end,
             "game_over": result["game_over"]}
    _explain(setup, state)
    return state


def _replay_virtual(setup: dict, steps: list) -> dict:
    """A virtual deck: the engine deals from the recorded dice, then `play` mode applies the moves (C5, C7-C13)."""
    deck = setup["deck"]
    base = {"players": setup["players"], "deck": deck, **_rules_case(setup)}
    state: dict = {"mode": VIRTUAL, "players": list(setup["players"]), "first_player": None, "to_move": None,
                   "plays": [], "events": [], "refused": [], "dealt": False, "hands": {}, "draw_pile": [],
                   "dead_end": False}
    engine_state = None
    pending: list[dict] = []
    pending_seqs: list = []
    result = None

    def flush():
        nonlocal engine_state, result
        if engine_state is None:
            return
        out = modes.play({**base, **engine_state, "moves": pending})
        for seq, event in zip(pending_seqs, out["events"]):
            if event["result"] != "laid":
                raise OrdonnanceCaseError(f"moves[{event['move'] - 1}]", f"refused: {event['reason']}")
            state["events"].append({"seq": seq, **event})
            state["plays"].append({"n": event["play"], "seq": seq, "player": event["player"],
                                   "territory": event["territory"], "card": event["card"],
                                   "symbols": _card_symbols(event["card"], deck), "drew": event["drew"]})
        engine_state = dict(out["state"])
        result = out
        state["dead_end"] = out["dead_end"]
        pending.clear()
        pending_seqs.clear()

    for step in steps:
        kind, payload = _kind(step), _payload(step)
        if kind == "deal":
            order = shuffled_order([c["id"] for c in deck], payload["picks"])
            dealt = modes.deal({**base, "order": order, "first_player": payload["first_player"]})
            state["first_player"] = dealt["first_player"]
            engine_state = {"draw_pile": dealt["draw_pile"], "hands": dealt["hands"], "plays": [],
                            "to_move": dealt["to_move"]}
            state["dealt"] = True
            state["order"] = order
        elif kind == "play":
            pending.append({"player": payload["player"], "card": payload["card"], "territory": payload["territory"]})
            pending_seqs.append(_seq(step))
        elif kind == "override_turn":
            flush()
            if engine_state is not None:
                engine_state["to_move"] = payload["to_move"]
    flush()
    if engine_state is None:   # not dealt yet: the empty table
        empty = modes.contest({**base, "plays": []})
        state["result"] = {k: v for k, v in empty.items() if k != "refused"}
        state["game_over"] = False
        state["why"] = {}
        return state
    state["hands"] = engine_state["hands"]
    state["draw_pile"] = engine_state["draw_pile"]
    state["to_move"] = engine_state["to_move"]
    state["result"] = {k: v for k, v in result.items() if k not in ("events", "state", "refused", "dead_end")}
    state["game_over"] = result["game_over"]
    _explain(setup, state)
    return state


def engine_log(setup: dict, state: dict) -> dict:
    """The stored log as the engine's own case, for anyone to replay it: `contest` (physical) or `play` (virtual)."""
    if setup["mode"] == VIRTUAL:
        return {"players": setup["players"], "deck": setup["deck"],
                "plays": [{"player": pl["player"], "territory": pl["territory"], "card": pl["card"]}
                          for pl in state["plays"]]}
    return {"players": setup["players"], "deck": setup["deck"],
            "plays": [{"player": pl["player"], "territory": pl["territory"],
                       "card": pl["card"] if pl["card"] and setup["deck"] else {"symbols": pl["symbols"]}}
                      for pl in state["plays"]]}


def table_result(setup: dict, state: dict) -> dict:
    """The result every table stores (docs/tables.md): the winner announced, how it ended, territories lost."""
    res = state["result"]
    winner = res["points_winner"] if setup.get("announce") == "points" else res["winner"]
    return {"winner": winner, "ended_by": "dead_end" if state.get("dead_end") else "fifth_marker",
            "losses": {pl: {"start": TERRITORIES, "lost": TERRITORIES - res["territories_won"][pl]}
                       for pl in setup["players"]},
            "announce": setup.get("announce", "territories"), "territories_winner": res["winner"],
            "points_winner": res["points_winner"], "points": res["points"],
            "territories_won": res["territories_won"], "markers": res["markers"]}
