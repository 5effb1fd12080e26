"""Count the orders in the database after a phase closed: nothing lost, nothing duplicated, nothing late.

Filing in one game is serialised on the phase row (larp.orders.services), so
the server's `filed_at` orders the saves of one unit; the history
(OrderEvent) must hold exactly the saves the tablets were told about.
"""
from __future__ import annotations

from collections import Counter
from datetime import datetime

from django.db.models import Count

from larp.orders.models import Order, OrderEvent
from larp.turns.models import Phase


def _key(payload: dict) -> str:
    import json

    return json.dumps({k: v for k, v in payload.items() if k != "unit"}, sort_keys=True)


def verify_game(game, phase_id: int, samples: list, unknown: list[dict]) -> dict:
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
    acked_files = [s.detail for s in mine if s.endpoint == "order" and s.status == 200]
    acked_withdrawals = [s.detail for s in mine if s.endpoint == "withdraw" and s.status == 200 and s.detail["withdrawn"]]
    unknown = [u for u in unknown if u.get("game") == game.pk]

    # 1. Every "saved" the clients were shown was before the deadline (the server's clock).
    for d in acked_files:
        filed = datetime.fromisoformat(d["filed_at"])
        if filed >= deadline:
            problems.append(f"{d['unit']}: saved at {filed.isoformat()}, after the deadline")

    # 2. History: exactly one filed/replaced event per acknowledged save, one withdrawn per acknowledged withdrawal.
    events = list(OrderEvent.objects.filter(turn=turn).select_related("by").order_by("id"))
    player_events = [e for e in events if e.action in (OrderEvent.FILED, OrderEvent.REPLACED, OrderEvent.WITHDRAWN)]
    for e in player_events:
        if e.at >= deadline:
            problems.append(f"{e.unit}: {e.action} at {e.at.isoformat()}, after the deadline")
    got = Counter((e.unit, e.by.username if e.by else None, "withdrawn" if e.action == OrderEvent.WITHDRAWN
                   else _key(e.payload)) for e in player_events)
    want = Counter((d["unit"], d["user"], _key(d["payload"])) for d in acked_files)
    want.update((d["unit"], d["user"], "withdrawn") for d in acked_withdrawals)
    maybe = Counter((d["unit"], d["user"], _key(d["payload"]) if "payload" in d else "withdrawn") for d in unknown)
    lost = want - got
    extra = got - want - maybe
    report["acknowledged_saves"] = len(acked_files)
    report["acknowledged_withdrawals"] = len(acked_withdrawals)
    report["unknown_outcome"] = len(unknown)
    report["lost"] = sum(lost.values())
    report["unacknowledged_in_history"] = sum(extra.values())
    for k, n in lost.items():
        problems.append(f"{k[0]}: {n} acknowledged save(s) by {k[1]} missing from the history")
    for k, n in extra.items():
        problems.append(f"{k[0]}: {n} save(s) by {k[1]} in the history that no client was told about")

    # 3. One order per unit, and it is the last one saved (replaying the history), or an implicit hold.
    per_unit = Order.objects.filter(turn=turn).values("army_id", "fleet_id").annotate(n=Count("id")).filter(n__gt=1)
    report["duplicated"] = sum(r["n"] - 1 for r in per_unit)
    if report["duplicated"]:
        problems.append(f"{report['duplicated']} unit(s) with more than one order")
    last_ack: dict[str, dict] = {}
    for d in acked_files:
        if d["unit"] not in last_ack or d["filed_at"] > last_ack[d["unit"]]["filed_at"]:
            last_ack[d["unit"]] = d
    last_event: dict[str, OrderEvent] = {}
    for e in player_events:
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
        if order.implicit or _key(order.payload) != _key(ev.payload):
            wrong_content += 1
            problems.append(f"{unit}: order {order.payload} is not the last saved {ev.payload}")
        ack = last_ack.get(unit)
        if ack and ack["filed_at"] and datetime.fromisoformat(ack["filed_at"]) > order.filed_at:
            wrong_content += 1
            problems.append(f"{unit}: a later acknowledged save ({ack['filed_at']}) than the stored one")
        elif ack and ev.by and ev.by.username == ack["user"] and _key(ev.payload) == _key(ack["payload"]) \
                and order.filed_at.isoformat() != ack["filed_at"]:
            wrong_content += 1
            problems.append(f"{unit}: stored filed_at {order.filed_at.isoformat()} != acknowledged {ack['filed_at']}")
    report["wrong_content"] = wrong_content

    # 4. Implicit holds recorded once each, in the history too.
    implicit_orders = sum(1 for o in orders.values() if o.implicit)
    implicit_events = sum(1 for e in events if e.action == OrderEvent.IMPLICIT)
    if implicit_orders != implicit_events:
        problems.append(f"{implicit_orders} implicit holds but {implicit_events} implicit events")
    report["orders_after_close"] = len(orders)
    report["implicit_holds"] = implicit_orders
    report["late_refused"] = sum(1 for s in mine if s.endpoint == "order" and s.status == 409)
    return report
