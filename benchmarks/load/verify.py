"""Count the orders as the players would, after a phase closed: nothing lost, nothing duplicated, nothing late.

A press the player made before the deadline (client.sent_in_time: when it left
the tablet, not when the answer came) must be saved; one refused, or never
answered and not saved, is a lost order. Every press carries its own
confirmation key, so the history (OrderEvent.key) tells for certain what
happened to a press whose answer never arrived: it is looked up, not left
out. The history must hold exactly the saves of the presses, and each unit's
order must be the last of them (or an implicit hold).
"""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

from django.db.models import Count

from larp.orders.models import Order, OrderEvent
from larp.turns.models import Phase


def _key(payload: dict) -> str:
    import json

    return json.dumps({k: v for k, v in payload.items() if k != "unit"}, sort_keys=True)


def _at(sent_at: float, deadline) -> str:
    """When a press left the tablet, relative to the deadline."""
    return f"{sent_at - deadline.timestamp():+.3f} s from the deadline"


def verify_game(game, phase_id: int, samples: list, unknown: list[dict], grace: float = 0.0) -> dict:
    """`grace`: seconds after the deadline during which the server may still save a press (0: none)."""
    phase = Phase.objects.select_related("turn").get(pk=phase_id)
    turn, deadline = phase.turn, phase.deadline
    problems: list[str] = []
    report = {"game": game.pk, "phase_state": phase.state, "closed_how": phase.closed_how,
              "close_late_ms": None, "problems": problems}
    if phase.state != Phase.CLOSED:
        problems.append("the Strategy phase is not closed")
        return report
    report["close_late_ms"] = round((phase.closed_at - deadline).total_seconds() * 1000, 1)

    mine = [s for s in samples if s.detail.get("game") == game.pk]
    presses = [s.detail for s in mine if s.endpoint == "order"]
    acked_withdrawals = [s.detail for s in mine if s.endpoint == "withdraw" and s.status == 200 and s.detail["withdrawn"]]
    unknown = [u for u in unknown if u.get("game") == game.pk]
    may_save_until = deadline + timedelta(seconds=grace)

    events = list(OrderEvent.objects.filter(turn=turn).select_related("by").order_by("id"))
    player_events = [e for e in events if e.action in (OrderEvent.FILED, OrderEvent.REPLACED, OrderEvent.WITHDRAWN)]
    for e in player_events:
        if e.at >= may_save_until:
            problems.append(f"{e.unit}: {e.action} at {e.at.isoformat()}, after the deadline")

    # 1. Every press is looked up in the history by its confirmation key: saved or not, for certain.
    saves = [e for e in player_events if e.action != OrderEvent.WITHDRAWN]
    by_key = {e.key: e for e in saves if e.key}
    acked = lost_acked = refused_in_time = unanswered_saved = unanswered_lost = refused_saved = 0
    explained: set[int] = set()
    for d in presses:
        ev = by_key.get(d["key"])
        status, who = d["status"], f"{d['unit']} ({d['user']}, sent {_at(d['sent_at'], deadline)})"
        if ev is not None:
            explained.add(ev.pk)
            if ev.by is None or ev.by.username != d["user"] or ev.unit != d["unit"] or _key(ev.payload) != _key(d["payload"]):
                problems.append(f"{who}: the history holds {ev.payload} by {ev.by} for this press")
        if status == 200:
            acked += 1
            if ev is None:
                lost_acked += 1
                problems.append(f"{who}: acknowledged as saved, missing from the history")
            elif datetime.fromisoformat(d["filed_at"]) != ev.at:
                problems.append(f"{who}: acknowledged filed_at {d['filed_at']}, the history says {ev.at.isoformat()}")
        elif status == 0 or status >= 500:  # no answer: the history says what happened
            if ev is not None:
                unanswered_saved += 1
            elif d["in_time"] and not d["illegal"]:
                unanswered_lost += 1
                problems.append(f"{who}: sent in time, no answer ({status or d.get('client_error')}), not saved")
        else:
            if ev is not None:
                refused_saved += 1
                problems.append(f"{who}: refused ({status}) but saved")
            if status == 409 and d["in_time"] and not d["illegal"]:
                refused_in_time += 1
                problems.append(f"{who}: sent in time, refused as late (409), answered after {d['latency'] * 1000:.0f} ms")
    unexplained = [e for e in saves if e.pk not in explained]
    for e in unexplained:
        problems.append(f"{e.unit}: a save by {e.by} in the history ({e.payload}) that matches no press")

    # Withdrawals carry no key: one `withdrawn` entry per acknowledged withdrawal (unanswered ones may be either).
    got = Counter((e.unit, e.by.username if e.by else None) for e in player_events if e.action == OrderEvent.WITHDRAWN)
    want = Counter((d["unit"], d["user"]) for d in acked_withdrawals)
    maybe = Counter((d["unit"], d["user"]) for d in unknown if "payload" not in d)
    lost_withdrawals = want - got
    for s in mine:
        if s.endpoint == "withdraw" and s.status == 409 and s.detail["in_time"]:
            refused_in_time += 1
            problems.append(f"{s.detail['unit']} ({s.detail['user']}, sent {_at(s.detail['sent_at'], deadline)}): "
                            "withdrawal sent in time, refused as late (409)")
    extra_withdrawals = got - want - maybe
    for k, n in lost_withdrawals.items():
        problems.append(f"{k[0]}: {n} acknowledged withdrawal(s) by {k[1]} missing from the history")
    for k, n in extra_withdrawals.items():
        problems.append(f"{k[0]}: {n} withdrawal(s) by {k[1]} in the history that no client was told about")

    report["acknowledged_saves"] = acked
    report["acknowledged_withdrawals"] = len(acked_withdrawals)
    report["unknown_outcome"] = len(unknown)
    report["unknown_outcome_saved"] = unanswered_saved
    report["refused_in_time"] = refused_in_time
    report["lost"] = lost_acked + refused_in_time + unanswered_lost + sum(lost_withdrawals.values())
    report["unacknowledged_in_history"] = len(unexplained) + refused_saved + sum(extra_withdrawals.values())

    # 2. One order per unit, and it is the last one saved (the history's last entry), or an implicit hold.
    per_unit = Order.objects.filter(turn=turn).values("army_id", "fleet_id").annotate(n=Count("id")).filter(n__gt=1)
    report["duplicated"] = sum(r["n"] - 1 for r in per_unit)
    if report["duplicated"]:
        problems.append(f"{report['duplicated']} unit(s) with more than one order")
    last_event: dict[str, OrderEvent] = {}
    for e in player_events:
        if e.unit in last_event and e.at < last_event[e.unit].at:
            problems.append(f"{e.unit}: history entry {e.pk} is dated before the one recorded ahead of it")
        last_event[e.unit] = e
    orders = {o.payload["unit"]: o for o in Order.objects.filter(turn=turn)}
    on_map = {a["id"] for a in turn.start_state["armies"]} | {f["id"] for f in turn.start_state["fleets"]}
    missing_units = on_map - set(orders)
    if missing_units:
        problems.append(f"units without an order after the close: {sorted(missing_units)}")
    wrong_content = 0
    for unit, order in orders.items():
        ev = last_event.get(unit)
        if ev is None or ev.action == OrderEvent.WITHDRAWN:
            if not order.implicit or order.payload.get("type") != "hold":
                wrong_content += 1
                problems.append(f"{unit}: expected an implicit hold, found {order.payload}")
            continue
        if order.implicit or _key(order.payload) != _key(ev.payload) or order.filed_at != ev.at \
                or order.key != ev.key:
            wrong_content += 1
            problems.append(f"{unit}: order {order.payload} of {order.filed_at.isoformat()} is not the last saved "
                            f"{ev.payload} of {ev.at.isoformat()}")
    report["wrong_content"] = wrong_content

    # 4. Implicit holds recorded once each, in the history too.
    implicit_orders = sum(1 for o in orders.values() if o.implicit)
    implicit_events = sum(1 for e in events if e.action == OrderEvent.IMPLICIT)
    if implicit_orders != implicit_events:
        problems.append(f"{implicit_orders} implicit holds but {implicit_events} implicit events")
    report["orders_after_close"] = len(orders)
    report["implicit_holds"] = implicit_orders
    report["late_refused"] = sum(1 for d in presses if d["status"] == 409 and not d["in_time"])
    return report
