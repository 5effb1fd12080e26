"""Reads of a turn's resolution for pages and printing."""
from __future__ import annotations

import logging

from django.core.cache import cache
from django.db.models import Count, Max

from larp.battles.models import DiceRoll, TurnResolution
from larp.campaign import labels
from larp.campaign.models import Game
from larp.dice.verify import BattleRecord
from larp.orders.models import Order

logger = logging.getLogger(__name__)


def turn_result(game: Game, number: int) -> dict | None:
    """{"turn": n, "result": <engine run_turn output>, "news": str, "applied": bool,
    "outside": {battle number: its outcome decided at a table}} or None."""
    resolution = TurnResolution.objects.filter(turn__game=game, turn__number=number).select_related("turn").first()
    if resolution is None or not resolution.result:
        return None
    return {"turn": number, "result": resolution.result, "news": resolution.news,
            "applied": resolution.applied_at is not None, "outside": outside_battles(resolution)}


def outside_battles(resolution) -> dict[int, dict]:
    """The turn's battles decided elsewhere (a table, larp/bridge), by battle number: the outcome as entered
    (`winner`, `losses`) and what it was fought as (`table`: id, system, title, result)."""
    if resolution is None:
        return {}
    return {o["battle"]: o for o in (resolution.choices or {}).get("outcomes", []) if isinstance(o, dict)
            and "battle" in o}


# --- movement, one move at a time (R6: the moderators move the armies one by one) ------------


def filed_orders(turn) -> dict[str, dict]:
    """Unit id -> its order of this turn as filed (so a move reads as the order was written)."""
    if turn is None:
        return {}
    return {o.payload.get("unit"): o.payload for o in turn.orders.all()}


def movement_steps(result: dict, names: dict, orders: dict[str, dict] | None = None) -> list[dict]:
    """Every move worth showing, in execution order (the draw): all but the units that simply hold.

    Each step says who moved, the order, the route, the result in the game's words and the battle it
    schedules (the contested province, R6.5; the battle's own number comes when it is fought). `orders` (unit id -> the order as
    filed) lets the order read as on the tablet and the orders table; the paper numbers the steps the same way.
    """
    orders = orders or {}
    contested = {b["province"]: i for i, b in enumerate(result.get("battles") or [], 1)}
    steps = []
    for m in result.get("moves") or []:
        if m.get("result") == "held" and m.get("order") == "hold":
            continue
        battle = contested.get(m.get("to")) if m.get("result") == "battle" else None
        steps.append({
            "n": len(steps) + 1, "seq": m.get("seq"), "code": m.get("unit"), "faction": m.get("faction"),
            "unit": names["units"].get(m.get("unit"), m.get("unit")),
            "colour": names["colours"].get(m.get("faction")),
            "faction_name": names["factions"].get(m.get("faction"), m.get("faction")),
            "order": labels.move_order_text(m, names, orders.get(m.get("unit"))), "route": labels.move_route(m),
            "route_text": labels.route_text(m, names), "result": m.get("result"),
            "result_text": labels.move_result(m.get("result", "")),
            "battle": battle, "battle_place": names["provinces"].get(m.get("to")) if battle else None,
        })
    return steps


def positions_at(start: dict[str, str], result: dict, steps: list[dict], shown: int) -> dict[str, str]:
    """Where every army and fleet stands once the first `shown` steps are made: {unit id: place id}.

    Read from the engine's result only (nothing is written): the map shows the hall the moves so far.
    """
    where = dict(start)  # {unit id: place id} at the turn's start (larp.turns.situation.start_positions)
    if shown <= 0 or not steps:
        return where
    last_seq = steps[min(shown, len(steps)) - 1]["seq"]
    for m in result.get("moves") or []:
        if m.get("seq") is not None and m["seq"] <= last_seq and m.get("to"):
            where[m["unit"]] = m["to"]
    return where


SHOWN_SECONDS = 6 * 60 * 60


def _shown_key(game: Game) -> str:
    return f"larp:hall-shown:{game.pk}"


def remember_shown(game: Game, turn_number: int, view: str, step: int = 0) -> None:
    """What the console shows (`movement` and its step, or `battles`), so the projector shows the same.

    Kept in the cache: if it is lost, the hall only loses a picture, never a move.
    """
    try:
        cache.set(_shown_key(game), {"turn": turn_number, "view": view, "step": step}, SHOWN_SECONDS)
    except Exception:  # noqa: BLE001 - a cache outage must not stop the console
        logger.warning("could not remember what the console of game %s shows", game.pk)


def shown(game: Game, turn_number: int) -> dict | None:
    """{"view": "movement"|"battles", "step": k} the console last showed for this turn, or None."""
    try:
        value = cache.get(_shown_key(game))
    except Exception:  # noqa: BLE001
        return None
    if not value or value.get("turn") != turn_number:
        return None
    return {"view": value.get("view"), "step": int(value.get("step") or 0)}


def hall_version(game: Game) -> str:
    """What the projector's picture depends on, as a short token it polls cheaply (one indexed query).

    Every act that changes the map, the phase or a battle is audited, so the newest audit entry names the
    state; what the console shows (the movement step, the battles page) is in the cache; the orders filed
    are counted for the Strategy board.
    """
    from larp.campaign.models import AuditEntry

    latest = AuditEntry.objects.filter(game=game).order_by("-id").values_list("id", flat=True).first()
    try:
        on_console = cache.get(_shown_key(game)) or {}
    except Exception:  # noqa: BLE001 - a cache outage only costs the step being followed
        on_console = {}
    # Filing an order is not audited (only a change is), yet the Strategy board counts the orders filed.
    filed = Order.objects.filter(turn__game=game).aggregate(n=Count("id"), last=Max("filed_at"))
    orders = f"{filed['n']}-{filed['last'].timestamp() if filed['last'] else 0}"
    from larp.battles import replay

    replaying = replay.in_hall(game) or {}
    return (f"{latest or 0}:{on_console.get('turn', '')}:{on_console.get('view', '')}:{on_console.get('step', '')}"
            f":{orders}:{replaying.get('turn', '')}-{replaying.get('frame', '')}")


# --- the battles of a turn, in the order they are fought ---------------------------------------


def battle_queue(result: dict) -> list[dict]:
    """Every contested province of the turn in fight order (R6.5), each done, current or waiting.

    A province can see several autobattles (storms, R7); its entry lists those fought so far.
    """
    awaiting = result.get("awaiting")
    finished = bool(result.get("state")) and not awaiting
    fought = result.get("fought") or []
    queue = []
    for i, b in enumerate(result.get("battles") or [], 1):
        here = [f for f in fought if f.get("province") == b["province"]]
        if awaiting and awaiting.get("province") == b["province"]:
            state = "current"
        elif here:
            state = "done"
        elif finished:
            state = "none"
        else:
            state = "waiting"
        # The engine's battle numbers (those on the battle's card, dice and papers): known once fought or
        # awaiting dice; a province still waiting has none yet, so the queue never numbers it another way.
        numbers = [f["n"] for f in here] + ([awaiting["n"]] if state == "current" else [])
        queue.append({"n": i, "province": b["province"], "state": state, "fought": here, "numbers": numbers,
                      "awaiting": awaiting if state == "current" else None})
    return queue


# --- the war's dice on the record (docs/dice.md) ---------------------------------------------------

def applied_rolls(resolution: TurnResolution) -> dict[int, DiceRoll]:
    """Battle number -> the roll its confirmation used: the battle's last roll not undone."""
    # Battles decided so far: those fought with dice and those decided at a table (larp/bridge).
    confirmed = len(resolution.dice or []) + len((resolution.choices or {}).get("outcomes", []))
    out = {}
    for roll in DiceRoll.objects.filter(resolution=resolution, undone=False, battle_no__lte=confirmed).order_by(
            "at", "id"):
        out[roll.battle_no] = roll
    return out


def war_battles(game: Game) -> list[BattleRecord]:
    """Every confirmed battle of the war as the dice check reads it: the dice the turn used, and their source."""
    out = []
    for resolution in TurnResolution.objects.filter(turn__game=game).select_related("turn").order_by("turn__number"):
        applied = applied_rolls(resolution)
        # The entered dice are the dice-fought battles' in order; a battle decided at a table (larp/bridge) has none.
        outside = {o.get("battle") for o in (resolution.choices or {}).get("outcomes", [])}
        numbers = (n for n in range(1, 10**6) if n not in outside)
        for n, used in zip(numbers, resolution.dice or []):
            roll = applied.get(n)
            server = roll is not None and roll.source == "server"
            out.append(BattleRecord(resolution.turn.number, n, "server" if server else "hand",
                                    list(used.get("attacker") or []), list(used.get("defender") or []),
                                    roll.counter if server else None))
    return out


def battle_dice(game: Game, number: int) -> dict[int, dict]:
    """Battle number -> how its dice were had, for pages and paper: {"source": "server"|"hand", "counters": (a, b)}."""
    resolution = TurnResolution.objects.filter(turn__game=game, turn__number=number).first()
    if resolution is None:
        return {}
    return {n: {"source": roll.source, "counters": roll.counters} for n, roll in applied_rolls(resolution).items()}
