"""A past turn replayed on the map, frame by frame: the turn's start, each move in the order it was made, each
battle with its result, and the map after regroup (History; the projector shows the frame the console shows).

Read from what the turn stored (its start state, the engine's result, the moderators' modifiers): nothing is
recomputed or written. The last frame is the engine's state after regroup, which is the next turn's start.
"""
from __future__ import annotations

from django.core.cache import cache
from django.utils.translation import gettext as _

from larp.battles import selectors
from larp.campaign import labels
from larp.turns import situation

START, MOVE, BATTLE, END = "start", "move", "battle", "end"
HALL_REPLAY_SECONDS = 2 * 60 * 60


def _positions(start: dict[str, str], result: dict, last_seq: int | None) -> dict[str, str]:
    """Where every unit stands once the moves up to `last_seq` are made (every move when None)."""
    where = dict(start)
    for m in result.get("moves") or []:
        if m.get("seq") is not None and m.get("to") and (last_seq is None or m["seq"] <= last_seq):
            where[m["unit"]] = m["to"]
    return where


def _side(names: dict, side: dict | None) -> str:
    faction = (side or {}).get("faction")
    return names["factions"].get(faction, faction) if faction else _("neutral garrison")


def _battle_lines(f: dict, names: dict, modifiers: list[dict], outside: dict | None) -> list[str]:
    """The battle's totals and losses, and (for the moderators) the modifiers it was fought with and why."""
    if f.get("outside"):
        lines = [_("Fought at a table")]
    else:
        lines = [f'{_side(names, f.get("attacker"))} {f["attacker"].get("total")} : '
                 f'{f["defender"].get("total")} {_side(names, f.get("defender"))}']
    lines.append(_("Losses: %(a)s and %(d)s") % {"a": f["attacker"].get("losses", 0), "d": f["defender"].get("losses", 0)})
    lines += [_("Modifier: %(side)s %(value)s «%(reason)s»") % {
        "side": names["roles"].get(m.get("side"), m.get("side")), "value": labels.signed(int(m.get("value") or 0)),
        "reason": m.get("reason", "")} for m in modifiers]
    if outside and (outside.get("table") or {}).get("title"):
        lines.append(_("Table: %(title)s") % {"title": outside["table"]["title"]})
    return lines


def frames(turn, resolution, names: dict, next_start: dict | None = None, *, moderators: bool = True) -> list[dict]:
    """Every frame of the turn's replay, in order. Each is {"n", "kind", "title", "lines", "place" (the
    province to mark, if any), "map": the keyword arguments of `maps.map_view` that draw it}.

    `next_start` (the next turn's start state) ends the replay when the result kept no state of its own.
    The players' replay (`moderators=False`) leaves out the moderators' modifiers and their reasons; positions,
    flags and battles' results are what the hall saw (R13), and no stack's contents are ever in a frame.
    """
    start_state = turn.start_state or {}
    result = (resolution.result if resolution else None) or {}
    start = situation.start_positions(turn)
    out = [{"kind": START, "title": _("Turn %(n)s: the map at the start") % {"n": turn.number},
            "lines": [_("Draw") + ": " + ", ".join(names["factions"].get(f, f) for f in turn.draw or [])],
            "place": None, "map": {"state": start_state}}]
    steps = selectors.movement_steps(result, names, selectors.filed_orders(turn))
    for s in steps:
        lines = [f'{s["order"]}; {_("route")}: {s["route_text"]}', s["result_text"]
                 + (f': {s["battle_place"]}' if s["battle"] else "")]
        out.append({"kind": MOVE, "title": _("Move %(n)s of %(count)s: %(unit)s") % {
                        "n": s["n"], "count": len(steps), "unit": s["unit"]},
                    "lines": lines, "colour": s["colour"], "place": None,
                    "map": {"state": start_state, "positions": _positions(start, result, s["seq"]), "route": s["route"]}})
    after_moves = _positions(start, result, None)
    modifiers = {}
    for m in (resolution.choices or {}).get("modifiers", []) if resolution else []:
        modifiers.setdefault(m.get("battle"), []).append(m)
    outside = selectors.outside_battles(resolution)
    fought = result.get("fought") or []
    for f in fought:
        place = names["provinces"].get(f["province"], f["province"])
        title = _("Battle %(n)s of %(count)s: %(place)s") % {"n": f["n"], "count": len(fought), "place": place}
        if f.get("storm"):
            title += f' ({labels.storm_text(f.get("storm_no"))})'
        out.append({"kind": BATTLE, "title": title, "decision": labels.decision(f),
                    "lines": _battle_lines(f, names, modifiers.get(f["n"], []) if moderators else [],
                                           outside.get(f["n"])),
                    "place": f["province"],
                    "map": {"state": start_state, "positions": after_moves, "route": [f["province"]]}})
    end_state = result.get("state") or next_start
    if end_state and not result.get("awaiting"):
        lines = [f'{names["units"].get(r["unit"], r["unit"])}: {names["provinces"].get(r["from"], r["from"])} → '
                 + (_("destroyed: nowhere to retreat") if r.get("destroyed")
                    else names["provinces"].get(r["to"], r["to"])) for r in result.get("retreats") or []]
        lines += [f'{names["provinces"].get(r["province"], r["province"])} → {names["factions"].get(r["to"], r["to"])}'
                  for r in result.get("recoloured") or []]
        out.append({"kind": END, "title": _("Turn %(n)s: the map after regroup") % {"n": turn.number},
                    "lines": lines or [_("No province changed hands and no unit retreated.")],
                    "place": None, "map": {"state": end_state}})
    for n, frame in enumerate(out):
        frame["n"] = n
    return out


def turn_frames(game, number: int, *, moderators: bool = True) -> tuple:
    """(turn, its frames) for a past or current turn of the game; the names are the game's."""
    from larp.battles.models import TurnResolution
    from larp.turns.models import Turn
    from larp.turns.selectors import names as names_of

    turn = Turn.objects.get(game=game, number=number)
    resolution = TurnResolution.objects.filter(turn=turn).first()
    following = Turn.objects.filter(game=game, number=number + 1).values_list("start_state", flat=True).first()
    return turn, frames(turn, resolution, names_of(game), following or None, moderators=moderators)


def finished_turns(game):
    """The turns whose regroup is applied, newest first: what the players may replay on their tablets."""
    from larp.turns.models import Turn

    return Turn.objects.filter(game=game, resolution__applied_at__isnull=False).order_by("-number")


def clamp(value, count: int) -> int:
    try:
        return max(0, min(int(value), count - 1))
    except (TypeError, ValueError):
        return 0


# --- the frame the hall sees ---------------------------------------------------------------------


def _hall_key(game) -> str:
    return f"larp:hall-replay:{game.pk}"


def show_in_hall(game, number: int, frame: int) -> None:
    """The projector shows this frame of a past turn's replay until the console stops it (kept in the cache:
    if it is lost, the projector goes back to the game as it stands)."""
    cache.set(_hall_key(game), {"turn": number, "frame": frame}, HALL_REPLAY_SECONDS)


def stop_in_hall(game) -> None:
    cache.delete(_hall_key(game))


def in_hall(game) -> dict | None:
    """{"turn": n, "frame": k} the projector is showing, or None."""
    try:
        value = cache.get(_hall_key(game))
    except Exception:  # noqa: BLE001 - a cache outage only costs the replay's picture
        return None
    return value if isinstance(value, dict) and "turn" in value else None
