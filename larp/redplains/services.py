"""Every write at a Red Plains table: one step in the log under the table's lock, audited (docs/tables.md).

The state is always the engine's replay of the live steps (situation.replay);
each act applies its step to the cached state first, so a step the rules do not
allow is refused with nothing saved. Every die is taken through
tables.take_dice (by hand or by the server) and given to the engine as data.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from larp.dice import services as dice
from larp.dice.models import Roll
from larp.redplains import labels
from larp.redplains import situation as sit
from larp.tables import services as tables
from larp.tables.models import Side, Table

SYSTEM = "red-plains"


def create(game, user, title: str, sides: list[tuple[str, str, object]], setup: dict, *, origin: dict | None = None,
           seed: int | None = None) -> Table:
    """A new table: its sides (north, south), its starting situation (the engine's case format) and its dice."""
    if [key for key, _n, _f in sides] != list(sit.SIDES):
        raise ValidationError(_("A Red Plains battle has a north side and a south side."))
    table = tables.create_table(game, SYSTEM, title, sides, user, setup=setup, origin=origin, seed=seed)
    with tables.locked(table.pk) as t:
        tables.set_state(t, sit.replay(t.setup, []))
    table.refresh_from_db()
    return table


def playable(table: Table) -> bool:
    """Its sides are north and south and its setup holds both armies (docs/red-plains.md, "Table")."""
    units = (table.setup or {}).get("units") or []
    return sorted(table.sides.values_list("key", flat=True)) == ["north", "south"] and \
        {u.get("side") for u in units if isinstance(u, dict)} == {"north", "south"}


def step_dicts(table: Table) -> list[dict]:
    return [{"kind": s.kind, "side": s.side, "payload": s.payload} for s in tables.live_steps(table)]


def current(table: Table) -> dict:
    """The cached state, or the replay when the cache is empty (a table the bridge made)."""
    return table.state if table.state.get("phase") else sit.replay(table.setup, step_dicts(table))


def side_name(table: Table, key: str) -> str:
    side = table.sides.filter(key=key).first()
    return side.name if side else key


def _act(table_id: int, user, kind: str, side: str, payload: dict, summary, *, hand=None, count: int = 0,
         reason: str = "", purpose: str = "", before=None) -> dict:
    """One step: checked on the state (StepRefused: nothing saved), its dice taken, recorded, the state stored."""
    with tables.locked(table_id) as table:
        if not table.is_open:
            raise sit.StepRefused("table_closed")
        state = current(table)
        seq = tables.next_seq(table)
        if before is not None:
            payload = before(table, state, seq, payload)
        else:
            sit.apply(table.setup, state, kind, side, payload)         # refuses before any die is taken
            if hand is not None or count:
                values = tables.take_dice(table, seq, hand=hand, count=count, purpose=purpose, user=user)
                payload = {**payload, "dice": values, "source": "hand" if hand is not None else "server"}
        new = sit.apply(table.setup, state, kind, side, payload)
        text = summary(table, payload) if callable(summary) else summary
        tables.record(table, kind, user, seq=seq, side=side, payload=payload, reason=reason, summary=text,
                      outcome=_outcome(kind, side, new),
                      starts_play=False if state["phase"] == sit.DEPLOYMENT else None)   # placing is not play
        tables.set_state(table, new)
        _sync(table, new)
        if new["phase"] == sit.ENDED and table.status != Table.FINISHED:
            result = sit.result_of(table.setup, new)
            tables.finish(table, result, user, summary=labels.end_sentence(table, result))
        return new


def _outcome(kind: str, side: str, state: dict) -> dict:
    if kind == "roll":
        return state["command"][side]["result"] or {}
    if kind == "orders":
        return state["orders_check"][side] or {}
    if kind == "deploy":
        return state["deploy_check"][side] or {}
    if kind == "execute":
        return state["turns"][-1] if state["turns"] else {}
    return {}


def _sync(table: Table, state: dict) -> None:
    for key, value in state["confirmed"].items():
        Side.objects.filter(table=table, key=key).exclude(confirmed=value).update(confirmed=value)


def deploy(table_id: int, user, side: str, placed: dict[str, str], infiltrate: int = 0) -> dict:
    payload = {"cells": placed, **({"infiltrate": infiltrate} if infiltrate else {})}
    return _act(table_id, user, "deploy", side, payload,
                lambda t, p: _("%(side)s placed its units.") % {"side": side_name(t, side)})


def confirm(table_id: int, user, side: str) -> dict:
    """A side confirms; the last deployment's confirmation rolls the guards' kill dice by the server (W6.4)."""
    def before(table, state, seq, payload):
        needed = sit.guard_rolls_needed(state) if sit.deployment_completes(state, side) else {}
        sit.apply(table.setup, state, "confirm", side,                  # refused before any die is taken
                  {"shinobi_dice": {k: [1] * n for k, n in needed.items() if n}})
        if not needed:
            return {}
        rolls = {}
        for key, count in sit.guard_rolls_needed(state).items():
            if count:
                rolls[key] = tables.take_dice(table, seq, count=count, user=user,
                                              purpose=_("shinobi guards' kill rolls (W6.4)"))
        return {"shinobi_dice": rolls} if rolls else {}

    return _act(table_id, user, "confirm", side, {},
                lambda t, p: _("%(side)s confirmed.") % {"side": side_name(t, side)}, before=before)


def stake(table_id: int, user, side: str, value: str) -> dict:
    return _act(table_id, user, "stake", side, {"stake": value},
                lambda t, p: _("%(side)s chose the %(stake)s.") % {"side": side_name(t, side),
                                                                   "stake": labels.STAKES.get(value, value)})


def roll(table_id: int, user, side: str, hand: list[int] | None = None) -> dict:
    """The command roll or a re-roll (W7–W8): two dice by hand or by the server; a re-roll discards the earlier."""
    def summary(t, p):
        return _("%(side)s rolled %(a)s and %(b)s (%(source)s).") % {
            "side": side_name(t, side), "a": p["dice"][0], "b": p["dice"][1], "source": labels.SOURCES[p["source"]]}

    def before(table, state, seq, payload):
        sit.apply(table.setup, state, "roll", side, {"dice": [1, 1]})      # refused before any die is taken
        earlier = [s for s in tables.live_steps(table) if s.kind == "roll" and s.side == side]
        if state["command"][side]["rolls"] and earlier:
            dice.discard(stream=table.dice, ref=earlier[-1].ref, reason=_("re-rolled by a messenger (W8)"))
        values = tables.take_dice(table, seq, hand=hand, count=0 if hand is not None else 2,
                                  purpose=_("command roll"), user=user)
        return {"dice": values, "source": "hand" if hand is not None else "server"}

    return _act(table_id, user, "roll", side, {}, summary, before=before)


def scout(table_id: int, user, side: str, cells: list[str]) -> dict:
    """W6.5: the side's shinobi that got through look at enemy cells (two each); what stands there, it learns."""
    return _act(table_id, user, "scout", side, {"cells": cells},
                lambda t, p: _("%(side)s scouted %(n)s cells.") % {"side": side_name(t, side), "n": len(cells)})


def shinobi(table_id: int, user, side: str, task: str, unit: str | None = None, hand: list[int] | None = None) -> dict:
    """W10: one shinobi's task; sabotage rolls its d6 now, by the server or typed in at the table (W10.4)."""
    def before(table, state, seq, payload):
        if task != "sabotage":
            return payload
        sit.apply(table.setup, state, "shinobi", side, {**payload, "roll": 1})     # refused before any die is taken
        values = tables.take_dice(table, seq, hand=hand, count=0 if hand is not None else 1,
                                  purpose=_("sabotage roll (W10.4)"), user=user)
        return {**payload, "roll": values[0], "source": "hand" if hand is not None else "server"}

    def summary(t, p):                                       # the task as it stands after the step (its effect)
        after = sit.apply(t.setup, current(t), "shinobi", side, p)
        return labels.task_text(after, side_name(t, side), sit.tasks(after, side)[-1])

    payload = {"task": task, **({"unit": unit} if unit and task in sit.TARGETED_TASKS else {})}
    return _act(table_id, user, "shinobi", side, payload, summary,
                before=before)


def stop(table_id: int, user, side: str) -> dict:
    """W39.3: the winner stops the battle; the other side suffers an ordinary defeat."""
    return _act(table_id, user, "stop", side, {},
                lambda t, p: _("%(side)s stopped the battle.") % {"side": side_name(t, side)})


def give_orders(table_id: int, user, side: str, orders: list[dict], general_retreat: bool = False,
                banners: list[dict] | None = None, withdraw: list[str] | None = None) -> dict:
    payload = {"orders": orders, **({"general_retreat": True} if general_retreat else {}),
               **({"banners": banners} if banners else {}), **({"withdraw": withdraw} if withdraw else {})}
    return _act(table_id, user, "orders", side, payload,
                lambda t, p: _("%(side)s gave %(n)s orders.") % {"side": side_name(t, side), "n": len(orders)})


def move_leader(table_id: int, user, side: str, leader: int, unit: str) -> dict:
    """W11.1: a general or the commander moves to a unit next to his, in the command phase (back: no move)."""
    def summary(t, p):                            # where he went stays hidden from the enemy, like the orders
        g = sit.leaders_now(t.setup, current(t), ())[leader]
        return _("%(side)s moved its %(kind)s %(name)s (W11.1).") % {
            "side": side_name(t, side), "kind": labels.LEADER_KINDS.get(g.get("kind"), ""), "name": g.get("name")}
    return _act(table_id, user, "leader", side, {"leader": leader, "unit": unit}, summary)


def cunning_plan(table_id: int, user, side: str, kind: str | None, count: int, reason: str,
                 unit: str | None = None, note: str = "") -> dict:
    """W9.3 ruling: the moderator grants the side extra orders of a kind and number for this turn and/or notes the
    Cunning plan's order for next turn for one of its units (W10.2), with the reason."""
    if not (reason or "").strip():
        raise ValidationError(_("Say why."))
    payload = {**({"kind": kind, "count": count} if count else {}),
               **({"unit": unit, "next": (note or "").strip()} if unit else {})}

    def summary(t, p):
        lines = [{"special": _("The moderator granted %(side)s %(n)s special orders by the Cunning plan (W9.3)."),
                  "ordinary": _("The moderator granted %(side)s %(n)s ordinary orders by the Cunning plan (W9.3).")}[
            p["kind"]] % {"side": side_name(t, side), "n": p["count"]}] if p.get("count") else []
        if p.get("unit"):
            lines.append(_("The moderator noted the Cunning plan's order for next turn for %(unit)s: %(text)s") % {
                "unit": labels.unit_name(current(t), p["unit"]), "text": p["next"] or "—"})
        return " ".join(lines)

    return _act(table_id, user, "plan", side, payload, summary, reason=reason.strip())


def execution_dice(table_id: int, user, hand: list[int] | None = None) -> dict:
    """The dice of the roll the execution awaits: typed in (exactly as many as it takes) or by the server."""
    def before(table, state, seq, payload):
        if state["phase"] != sit.EXECUTION:
            raise sit.StepRefused("not_execution")
        seen = sit.preview(table.setup, state)
        if seen["awaiting"] is None:
            raise sit.StepRefused("no_roll_awaited")
        roller, what = seen["awaiting"]["roller"], seen["awaiting"]["what"]
        values: list[int] = []
        trial = {**state, "dice": {k: list(v) for k, v in state["dice"].items()}}
        queue = list(hand) if hand is not None else None
        while True:
            if queue is not None:
                if not queue:
                    break
                value = queue.pop(0)
                if not (isinstance(value, int) and 1 <= value <= 6):
                    raise sit.StepRefused("bad_dice")
            else:
                value = 0
            values.append(value)
            trial["dice"].setdefault(roller, []).append(value if value else 1)
            if queue is None:
                # a server die is taken only once the engine is known to want it
                trial["dice"][roller][-1] = tables.take_dice(table, seq, count=1, purpose=what[:200],
                                                             user=user)[0]
                values[-1] = trial["dice"][roller][-1]
            again = sit.preview(table.setup, trial)
            if again["awaiting"] != {"roller": roller, "what": what}:
                break
        if queue:
            raise sit.StepRefused("too_many_dice", needed=len(values))
        if hand is not None:
            tables.take_dice(table, seq, hand=values, purpose=what[:200], user=user)
        return {"roller": roller, "what": what, "values": values,
                "source": "hand" if hand is not None else "server"}

    def summary(t, p):
        return _("Dice for %(unit)s: %(values)s (%(source)s).") % {
            "unit": labels.unit_name(current(t), p["roller"]), "values": ", ".join(map(str, p["values"])),
            "source": labels.SOURCES[p["source"]]}

    return _act(table_id, user, "dice", "", {}, summary, before=before)


MAX_GROUPS = 200          # a turn's dice groups are far fewer; the bound only ends a loop the engine never ends


def all_execution_dice(table_id: int, user) -> int:
    """«Бросить все оставшиеся кубики»: every dice group the execution still awaits rolled by the server, one
    step per group as if pressed one by one (each on the log, each undone alone). Returns how many groups."""
    groups = 0
    while groups < MAX_GROUPS:
        with tables.locked(table_id) as table:
            state = current(table)
            if state["phase"] != sit.EXECUTION or sit.preview(table.setup, state)["awaiting"] is None:
                break
        execution_dice(table_id, user)
        groups += 1
    return groups


def execute(table_id: int, user) -> dict:
    return _act(table_id, user, "execute", "", {},
                lambda t, p: _("Turn %(turn)s executed.") % {"turn": current(t)["turn"]})


def override(table_id: int, user, unit: str, changes: dict, reason: str) -> dict:
    """The moderator's ruling on a unit (the master's judgement stands), with the reason."""
    if not (reason or "").strip():
        raise ValidationError(_("Say why."))
    return _act(table_id, user, "override", "", {"unit": unit, "changes": changes, "reason": reason.strip()},
                lambda t, p: _("The moderator changed %(unit)s.") % {"unit": labels.unit_name(current(t), unit)},
                reason=reason.strip())


def extend_field(table_id: int, user, positions: list[tuple[int, int]], reason: str) -> dict:
    """W2.5: the moderator adds cells next to the field's edge during the battle, with the reason."""
    if not (reason or "").strip():
        raise ValidationError(_("Say why."))
    payload = {"cells": [{"col": col, "row": row} for col, row in positions]}
    return _act(table_id, user, "extend", "", payload,
                lambda t, p: _("The moderator added cells to the field: %(cells)s.") % {
                    "cells": ", ".join(sit.extra_label(c["col"], c["row"]) for c in p["cells"])},
                reason=reason.strip())


def edit_roster(table_id: int, user, payload: dict) -> dict:
    """The moderator edits the armies before play (e.g. a table the bridge made from a battle of the war)."""
    def summary(t, p):
        if "leader" in p:                                                         # W11.3
            g = sit.leaders_now(t.setup, current(t))[p["leader"]]
            return _("The moderator set the traits of %(kind)s %(name)s: %(traits)s.") % {
                "kind": labels.LEADER_KINDS.get(g.get("kind"), ""), "name": g.get("name", ""),
                "traits": labels.traits_text(sit.clean_traits(p.get("traits"))) or _("none")}
        if "terrain" in p:                                                        # W6.2, W36–W38
            x = p["terrain"]
            return _("The moderator set the terrain: river %(river)s, bridge %(bridge)s, hills %(hills)s, forests "
                     "%(forests)s.") % {"river": _("yes") if x["river"] else _("no"),
                                        "bridge": " — ".join(x["bridge"]) if x.get("bridge") else "—",
                                        "hills": " ".join(x["hills"]) or "—", "forests": " ".join(x["forests"]) or "—"}
        if p.get("remove"):
            return _("The moderator removed %(unit)s.") % {"unit": labels.unit_name(current(t), p.get("unit"))}
        return _("The moderator set a unit: %(type)s, %(n)s figures.") % {"type": labels.TYPES.get(p.get("type"), ""),
                                                                         "n": p.get("figures")}
    return _act(table_id, user, "roster", "", payload, summary)


def undo(table_id: int, user, reason: str) -> dict:
    """The last live step undone (never deleted; its server dice discarded) and the state replayed."""
    with tables.locked(table_id) as table:
        step = tables.undo_last(table, user, reason)
        if step is None:
            raise sit.StepRefused("nothing_to_undo")
        state = sit.replay(table.setup, step_dicts(table))
        tables.set_state(table, state)
        _sync(table, state)
        return state


def server_dice(table: Table) -> list[Roll]:
    return tables.server_rolls(table)
