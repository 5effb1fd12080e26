"""The start (O9 event, O6 Border check, O11 summon) and the end (O20 siege, O21 young herd, O19 expiry,
O6 hold, O10 discard, O22 victory) of a faction's turn."""
from __future__ import annotations

from typing import Any

from . import outcomes as O
from .case import CaseError, State, need_hex, need_list, need_obj, need_str
from .combat import spring_trap
from .dice import seeded_shuffle
from .errors import Refused
from .hexes import adjacent, as_list, distance, hex_order, neighbours
from .values import active_trait, trait_of
from .victory import check_victory


def _on_board_with_trait(state: State, faction: str, trait: str) -> bool:
    return any(u.on_board and u.faction == faction and trait_of(u) == trait for u in state.units)


def _draw_event(state: State, choices: dict) -> tuple[Any, bool]:
    ev = state.event
    reshuffled = False
    if ev["current"] is not None:                       # a card left in force goes to the discards first
        ev["discard"].insert(0, ev["current"])
        ev["current"] = None
    if not ev["draw_pile"]:
        if not ev["discard"]:
            return None, False
        wanted = choices.get("reshuffle")
        if wanted is not None:
            order = [need_str(x, f"choices.reshuffle[{i}]")
                     for i, x in enumerate(need_list(wanted, "choices.reshuffle", 100))]
            if sorted(order) != sorted(ev["discard"]):
                raise CaseError("choices.reshuffle: must list exactly the discarded cards")
        elif state.seed is None:
            raise CaseError("seed: the event deck is empty and must be reshuffled; give choices.reshuffle or a seed")
        else:
            order = seeded_shuffle(state.seed, ev["discard"])
        ev["draw_pile"], ev["discard"], reshuffled = list(order), [], True
    ev["current"] = ev["draw_pile"].pop(0)
    return ev["current"], reshuffled


def _border_check(state: State) -> dict | None:
    hold = state.border_hold
    if state.mode != O.BORDER or hold is None or hold["faction"] != state.active:
        return None
    beyond = _beyond(state)
    held = sum(1 for uid in hold["units"] if state.by_id[uid].on_board and state.by_id[uid].hex in beyond)
    won = held >= state.data.number("modes", "border", "mongolia_units_beyond")
    if won:
        state.winner = O.MONGOLIA
    else:
        state.border_hold = None
    return {"recorded": len(hold["units"]), "held": held, "won": won}


def _beyond(state: State) -> frozenset:
    if state.border is None:
        raise CaseError("border: the Border mode needs the line and the hexes beyond it")
    return state.border["beyond"]


def _summon_hexes(state: State, faction: str) -> tuple[list, bool]:
    """(candidate hexes at the least distance from the capital, whether the capital hex itself may take it)."""
    cap = state.capital(faction)
    side = state.side(faction)
    occupied = state.occupant()
    ring = [h for h in neighbours(cap.hex) if h in state.board]
    surrounded = bool(ring) and all(h in occupied and occupied[h].side != side for h in ring)
    capital_ok = surrounded and cap.hex not in occupied
    free = [h for h in state.board if h != cap.hex and state.is_free(h, side, occupied)]
    if not free:
        return [], capital_ok
    least = min(distance(cap.hex, h) for h in free)
    return hex_order(cap.hex, [h for h in free if distance(cap.hex, h) == least]), capital_ok


def _tribute(state: State, faction: str) -> int:
    side = state.side(faction)
    extra = 0
    for f in state.capitals:
        if state.side(f) != side and _on_board_with_trait(state, f, "tribute") \
                and _on_board_with_trait(state, f, "harsh_drill"):
            extra = state.data.trait("tribute")["enemy_summon_extra"]
    return extra


def _summon(state: State, choices: dict) -> tuple:
    f = state.active
    slot = state.summon_track.get(f)
    summoned = indicator = placed = None
    if slot is not None:
        u = state.by_id[slot["unit"]]
        if slot["cell"] <= state.data.number("summon", "arrives_from_cell"):
            cands, capital_ok = _summon_hexes(state, f)
            cap_hex = state.capital(f).hex
            want = choices.get("summon_hex")
            if want is not None:
                h = need_hex(want, "choices.summon_hex")
                if h not in cands and not (capital_ok and h == cap_hex):
                    raise Refused(O.SUMMON_HEX_INVALID, f"{list(h)} is not a free hex nearest to {f}'s capital")
            else:
                h = cap_hex if capital_ok else (cands[0] if cands else None)
            if h is not None:
                u.where, u.hex = O.BOARD, h
                u.drill = _on_board_with_trait(state, f, "harsh_drill") and u.kind.trait != "harsh_drill"
                state.summon_track[f] = slot = None
                summoned = {"unit": u.id, "hex": as_list(h), "trap": spring_trap(state, u, h)}
                if summoned["trap"] is None:
                    del summoned["trap"]
        else:
            to = slot["cell"] - state.data.number("summon", "advance_per_own_turn")
            indicator = {"unit": u.id, "from": slot["cell"], "to": to}
            state.summon_track[f] = slot = {"unit": u.id, "cell": to}
    reserve = [u for u in state.units if u.faction == f and u.where == O.RESERVE]
    if slot is None and reserve:
        want = choices.get("summon_next")
        if want is not None:
            nxt = state.unit(want, "choices.summon_next")
            if nxt not in reserve:
                raise Refused(O.SUMMON_NEXT_INVALID, f"{nxt.id} is not in {f}'s reserve")
        else:
            nxt = min(reserve, key=lambda u: (u.stat("summon"), u.id))
        cell = nxt.stat("summon") + _tribute(state, f)
        nxt.where = O.INDICATOR
        state.summon_track[f] = {"unit": nxt.id, "cell": cell}
        placed = {"unit": nxt.id, "cell": cell}
    return indicator, summoned, placed


def _siege(state: State, turn_start: dict) -> list:
    f = state.active
    out = []
    per_unit = state.data.number("siege", "durability_loss_per_unit")
    for c in state.cities:
        if c.destroyed or c.side == state.side(f):
            continue
        if any(u.on_board and u.hex == c.hex and u.side == c.side for u in state.units):
            continue                                    # a garrison blocks the siege (O20)
        by = []
        for u in sorted(state.units, key=lambda x: x.id):
            if u.on_board and u.faction == f and adjacent(u.hex, c.hex) and u.id in turn_start \
                    and turn_start[u.id] is not None and adjacent(turn_start[u.id], c.hex):
                pts = per_unit
                if active_trait(state, u) == "incendiary_arrows":
                    pts += state.data.trait("incendiary_arrows")["extra_durability_loss"]
                by.append({"unit": u.id, "points": pts})
        if not by:
            continue
        if c.durability is None:
            raise CaseError(f"cities[{c.index}].durability: {c.id}'s durability is unknown (not in the source, O23) "
                            f"and the case does not give it")
        lost = sum(b["points"] for b in by)
        c.damage = min(c.durability, c.damage + lost)
        c.destroyed = c.damage >= c.durability
        out.append({"city": c.id, "damage": lost, "destroyed": c.destroyed, "by": by})
    return out


def _young_herd(state: State) -> list:
    from .activation import expiry
    spec = state.data.trait("young_herd")
    added = []
    grooms = sorted((u for u in state.units if u.on_board and u.faction == state.active
                     and active_trait(state, u) == "young_herd"), key=lambda u: u.id)
    for g in grooms:
        for v in sorted(state.units, key=lambda x: x.id):
            if v.on_board and v is not g and v.side == g.side and v.kind.mounted and adjacent(v.hex, g.hex):
                eff = {"kind": "young_herd", "param": "speed", "value": spec["speed"], "from": g.id,
                       "expires": expiry(state, spec["lasts"], v.faction)}
                v.effects.append(eff)
                added.append(dict(eff, unit=v.id))
    return added


def _expire(state: State) -> list:
    now = (state.tour, state.position(state.active))
    gone = []
    for u in state.units:
        keep = []
        for e in u.effects:
            exp = e.get("expires")
            if exp is not None and exp["faction"] in state.order and \
                    (exp["tour"], state.position(exp["faction"])) <= now:
                gone.append(dict(e, unit=u.id))
            else:
                keep.append(e)
        u.effects = keep
    return gone


def _record_hold(state: State):
    f = state.active
    if state.mode != O.BORDER or state.side(f) != O.MONGOLIA:
        return state.border_hold
    beyond = _beyond(state)
    ids = sorted(u.id for u in state.units if u.on_board and u.side == O.MONGOLIA and u.hex in beyond)
    if len(ids) >= state.data.number("modes", "border", "mongolia_units_beyond"):
        state.border_hold = {"faction": f, "units": ids}
    elif state.border_hold is not None and state.border_hold["faction"] == f:
        state.border_hold = None
    return state.border_hold


def _state(state: State) -> dict:
    return {"game": state.game_dict(), "units": [u.as_dict() for u in state.units],
            "cities": [c.as_dict() for c in state.cities], "traps": state.traps_list(),
            "summon_track": {f: (None if v is None else dict(v)) for f, v in state.summon_track.items()},
            "event": {k: (list(v) if isinstance(v, list) else v) for k, v in state.event.items()},
            "border_hold": state.border_hold, "activations": {k: list(v) for k, v in state.activations.items()}}


def turn_mode(state: State) -> dict:
    stage = need_str(state.raw.get("stage"), "stage", (O.START, O.END))
    choices = need_obj(state.raw.get("choices") or {}, "choices")
    for f in state.order:
        state.summon_track.setdefault(f, None)
    f, tour = state.active, state.tour
    try:
        if stage == O.START:
            return _start(state, choices, f, tour)
        return _end(state, f, tour)
    except Refused as r:
        return {"refused": r.as_dict()}


def _start(state: State, choices: dict, f: str, tour: int) -> dict:
    drawn, reshuffled = (None, False)
    if state.order[0] == f:
        drawn, reshuffled = _draw_event(state, choices)
    border_check = _border_check(state)
    indicator = summoned = placed = None
    if state.winner is None:
        indicator, summoned, placed = _summon(state, choices)
    return {"refused": None, "stage": O.START, "faction": f, "tour": tour, "event_drawn": drawn,
            "reshuffled": reshuffled, "border_check": border_check, "indicator": indicator, "summoned": summoned,
            "placed": placed, "winner": state.winner,
            "reason": O.BORDER_HELD if state.winner else None, "state": _state(state)}


def _end(state: State, f: str, tour: int) -> dict:
    raw_start = need_obj(state.raw.get("turn_start") or {}, "turn_start")
    turn_start = {}
    for uid, h in raw_start.items():
        state.unit(uid, f"turn_start.{uid}")
        turn_start[uid] = None if h is None else need_hex(h, f"turn_start.{uid}")
    siege = _siege(state, turn_start)
    boosts = _young_herd(state)
    expired = _expire(state)
    hold = _record_hold(state)
    discarded = None
    if state.order[-1] == f and state.event["current"] is not None:
        discarded = state.event["current"]
        state.event["discard"].insert(0, discarded)
        state.event["current"] = None
    winner, reason = check_victory(state)
    if winner:
        state.winner = winner
    else:
        i = state.position(f) + 1
        if i == len(state.order):
            state.tour, i = state.tour + 1, 0
        state.active = state.order[i]
        state.activations = {}
    return {"refused": None, "stage": O.END, "faction": f, "tour": tour, "siege": siege, "boosts": boosts,
            "expired": expired, "border_hold": hold, "event_discarded": discarded, "winner": winner,
            "reason": reason, "state": _state(state)}
