"""Every write at a «Тактические правила» table: armies, approval, the start, actions, overrides, undo, the end.

Each act runs under the table's row lock (larp.tables.services.locked), takes its
dice through `take_dice` (hand dice typed in, or the table's server stream), gives
them to the engine as data, records one step with a Russian summary (the audit
log's line) and stores the replayed state.
"""
from __future__ import annotations

import copy

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from larp.tables import services as tables
from larp.tables.models import Table
from larp.tactical import situation as sit
from larp.tactical.engine.errors import CaseError
from larp.tactical.labels import dice_list_label, refusal_text, side_name, unit_label

SYSTEM = "tactical"


def create(game, title: str, sides, user, *, points_limit: int = sit.DEFAULT_LIMIT,
           army_lists: dict | None = None, conditions: dict | None = None, seed: int | None = None) -> Table:
    """A new table made by the moderator: sides of the game's factions (or named), no army yet."""
    setup = {"profiles": [], "units": [], "conditions": conditions or {}, "terrain": [],
             "points_limit": points_limit, "army_lists": army_lists or {}}
    table = tables.create_table(game, SYSTEM, title, sides, user, setup=setup, seed=seed)
    tables.set_state(table, sit.initial_state(setup))
    return table


def replay_table(table: Table) -> dict:
    return sit.replay(table.setup, [(s.kind, s.payload, s.outcome) for s in tables.live_steps(table)])


def _store(table: Table) -> dict:
    state = replay_table(table)
    tables.set_state(table, state)
    return state


def _open(table: Table) -> None:
    if not table.is_open:
        raise ValidationError(_("This table is closed."))


def _phase(table: Table, *phases: str) -> dict:
    state = table.state or replay_table(table)
    if state.get("phase") not in phases:
        raise ValidationError({"setup": _("The armies are still being built: start the battle first."),
                               "battle": _("The battle has already started."),
                               "ended": _("The battle is over.")}[state.get("phase", "setup")])
    return state


# ---------------------------------------------------------------------------------------------------- armies
def army_of(table: Table, state: dict, side: str) -> dict:
    doc = state["armies"].get(side)
    if doc is not None:
        return copy.deepcopy(doc)
    lists = table.setup.get("army_lists") or {}
    return sit.empty_army(lists.get(side) or sit.army_lists()[0]["id"],
                          int(table.setup.get("points_limit") or sit.DEFAULT_LIMIT))


def save_army(table_id: int, user, side: str, change, summary: str, *, general_dice: dict | None = None) -> dict:
    """Change a side's army (`change(doc)` edits it in place) and record the whole army as a `roster` step.

    `general_dice`: {"general": id, "hand": [..] or None} — the talent dice of a general rolled now,
    typed in at the table or (hand None) rolled by the server, on the record with this step.
    """
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        if not table.sides.filter(key=side).exists():
            raise PermissionDenied("No such side.")
        doc = army_of(table, state, side)
        change(doc)
        if len(doc["units"]) > sit.MAX_UNITS or len(doc["generals"]) > sit.MAX_GENERALS:
            raise ValidationError(_("Too many units or generals in one army."))
        seq = tables.next_seq(table)
        if general_dice:
            gen = next(g for g in doc["generals"] if g["id"] == general_dice["general"])
            count = sit.general_dice_count(gen["c_in_c"]) if gen["method"] == "roll" else (1 if gen["c_in_c"] else 0)
            hand = general_dice.get("hand")
            if hand is not None and len(hand) != count:
                raise ValidationError(_("This general needs %(n)s dice.") % {"n": count})
            gen["dice"] = tables.take_dice(table, seq, count=count, hand=hand, user=user,
                                           purpose=_("talents of general %(name)s") % {"name": gen["name"]})
        try:
            verdict = sit.check_army(doc)
        except CaseError:
            raise ValidationError(_("The army could not be checked: a unit or general is incomplete.")) from None
        tables.record(table, "roster", user, seq=seq, side=side, payload={"side": side, "army": doc},
                      outcome=verdict, summary=summary)
        return _store(table)


def approve(table_id: int, user, side: str, yes: bool = True) -> dict:
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        if yes:
            verdict = state["verdicts"].get(side)
            if not state["armies"].get(side) or not verdict or not verdict.get("valid"):
                raise ValidationError(_("Only a legal army can be approved."))
        name = side_name(table, side)
        tables.record(table, "confirm", user, side=side, payload={"side": side, "approve": yes},
                      summary=(_("Army of %(side)s approved") if yes else _("Approval of %(side)s's army withdrawn"))
                      % {"side": name})
        return _store(table)


def start(table_id: int, user) -> dict:
    """The battle begins: every side's approved army (or the setup's units) on the table."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        for side in table.sides.all():
            has_setup = any(u["side"] == side.key for u in state["units"])
            if side.key not in state["approved"] and not has_setup:
                raise ValidationError(_("%(side)s has no approved army yet.") % {"side": side.name})
        try:
            sit.replay(table.setup, [(s.kind, s.payload, s.outcome) for s in tables.live_steps(table)]
                       + [("start", {}, {})])
        except CaseError:
            raise ValidationError(_("An army does not fit its bases; correct it before the battle.")) from None
        tables.record(table, "start", user, payload={}, summary=_("The battle begins"))
        return _store(table)


def set_conditions(table_id: int, user, conditions: dict, terrain: list, summary: str) -> dict:
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup", "battle")
        kind = "setup" if state["phase"] == "setup" else "conditions"
        tables.record(table, kind, user, payload={"conditions": conditions, "terrain": terrain}, summary=summary)
        return _store(table)


# ---------------------------------------------------------------------------------------------------- the battle
def preview(state: dict, kind: str, payload: dict) -> dict | None:
    return sit.odds(state, kind, payload)


def act(table_id: int, user, kind: str, payload: dict, *, hand: list[int], server_rest: bool, summary) -> dict:
    """One action resolved by the engine with hand dice, then server dice if allowed; recorded and applied.

    `summary(outcome)` gives the step's Russian sentence.
    """
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "battle")
        for uid in sit.involved(kind, payload):
            if uid in state["destroyed"]:
                raise ValidationError(_("A destroyed unit cannot act."))
        seq = tables.next_seq(table)
        server_dice: list[int] = []

        def server() -> int:
            value = tables.take_dice(table, seq, count=1, user=user, purpose=kind)[0]
            server_dice.append(value)
            return value
        try:
            outcome, full, used_hand, _n = sit.resolve(state, kind, payload, hand, server if server_rest else None)
        except sit.NeedDice as need:
            what = dice_list_label(need.kind)
            if need.unit:
                raise ValidationError(_("One more die is needed: %(what)s of %(unit)s. Roll it and add it, or let "
                                        "the server roll the rest.") % {"what": what,
                                                                        "unit": unit_label(state, need.unit)})
            raise ValidationError(_("One more die is needed. Roll it and add it, or let the server roll the rest."))
        except sit.LeftOver as left:
            raise ValidationError(_("%(n)s dice typed in were not needed; check the dice.") % {"n": left.count})
        except CaseError:
            raise ValidationError(_("This action does not fit the units on the table.")) from None
        if outcome.get("refused"):
            raise ValidationError([refusal_text(state, r) for r in outcome["refused"]])
        if used_hand:
            tables.take_dice(table, seq, hand=used_hand, user=user, purpose=kind)
        full["by"] = {"hand": used_hand, "server": server_dice}
        tables.record(table, kind, user, seq=seq, payload=full, outcome=outcome, summary=summary(state, outcome))
        return _store(table)


def override(table_id: int, user, uid: str, changes: dict, reason: str, summary: str) -> dict:
    if not (reason or "").strip():
        raise ValidationError(_("Say why the moderator changes the unit."))
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "battle")
        try:
            sit.unit(state, uid)
            trial = copy.deepcopy(state)
            sit.apply_step(trial, "override", {"unit": uid, "changes": changes}, {})
        except (KeyError, CaseError):
            raise ValidationError(_("This change does not fit the unit.")) from None
        tables.record(table, "override", user, payload={"unit": uid, "changes": changes}, reason=reason.strip(),
                      summary=summary)
        return _store(table)


def undo(table_id: int, user, reason: str) -> dict:
    with tables.locked(table_id) as table:
        if table.status == Table.CANCELLED:
            raise ValidationError(_("This table is closed."))
        step = tables.undo_last(table, user, reason)
        if step is None:
            raise ValidationError(_("There is nothing to undo."))
        return _store(table)


def end(table_id: int, user, winner: str | None, ended_by: str, summary: str) -> dict:
    """The moderator declares the end (T29): the result stored for the war in the shape of docs/tables.md."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "battle")
        if winner and not table.sides.filter(key=winner).exists():
            raise ValidationError(_("No such side."))
        if ended_by not in sit.END_REASONS:
            raise ValidationError(_("Choose how the battle ended."))
        result = {"winner": winner or None, "ended_by": ended_by, "losses": sit.losses(state)}
        tables.record(table, "end", user, payload={"winner": winner or None, "ended_by": ended_by}, outcome=result,
                      summary=summary)
        state = _store(table)
        tables.finish(table, result, user, summary=summary)
        return state


def cancel(table_id: int, user, reason: str) -> None:
    with tables.locked(table_id) as table:
        _open(table)
        tables.cancel(table, user, reason)


# ---------------------------------------------------------------------------------------------------- manoeuvring
def edit_map(table_id: int, user, change, summary: str) -> dict:
    """Lay cards, rivers, paths, weather, corps on the 5x5 map (T30): the whole map stored as a `setup` step."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        m = copy.deepcopy(sit.strategic(state))
        change(m)
        if len(m["corps"]) > 40:
            raise ValidationError(_("Too many corps."))
        tables.record(table, "setup", user, payload={"strategic": m}, summary=summary)
        return _store(table)


def march(table_id: int, user, plan: dict, *, hand: list[int], server_rest: bool, summary) -> dict:
    """One corps' march (T31) with its die typed in or rolled by the server; refused marches record nothing."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        m = sit.strategic(state)
        if not any(c["id"] == plan["corps"] for c in m["corps"]):
            raise ValidationError(_("No such corps."))
        seq = tables.next_seq(table)
        server_dice: list[int] = []

        def server() -> int:
            value = tables.take_dice(table, seq, count=1, user=user, purpose="march")[0]
            server_dice.append(value)
            return value
        try:
            outcome, dice = sit.resolve_march(state, plan, hand, server if server_rest else None)
        except sit.NeedDice:
            raise ValidationError(_("The march needs its die: roll it and type it in, or let the server roll.")) \
                from None
        except sit.LeftOver as left:
            raise ValidationError(_("%(n)s dice typed in were not needed; check the dice.") % {"n": left.count})
        except CaseError:
            raise ValidationError(_("This march does not fit the map.")) from None
        if outcome["refused"]:
            raise ValidationError([refusal_text(state, r) for r in outcome["refused"]])
        used_hand = dice[:len(dice) - len(server_dice)]        # typed-in dice come first, then the server's
        if used_hand:
            tables.take_dice(table, seq, hand=used_hand, user=user, purpose="march")
        tables.record(table, "march", user, seq=seq, side=next(c["side"] for c in m["corps"] if c["id"] == plan["corps"]),
                      payload={"march": plan, "dice": dice, "by": {"hand": used_hand, "server": server_dice}},
                      outcome=outcome, summary=summary(outcome))
        return _store(table)


def night_halt(table_id: int, user, summary: str) -> dict:
    """T31.5: the night halt — every fatigue marker removed."""
    with tables.locked(table_id) as table:
        _open(table)
        _phase(table, "setup")
        tables.record(table, "halt", user, payload={"marched": []}, summary=summary)
        return _store(table)


def offer_battle(table_id: int, user, side: str, summary: str) -> dict:
    """T32: contact, whether the other side may refuse, the allowed six-card blocks."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        if not table.sides.filter(key=side).exists():
            raise ValidationError(_("No such side."))
        try:
            outcome = sit.offer(state, side)
        except CaseError:
            raise ValidationError(_("Place the corps of both sides on the map first.")) from None
        if outcome.get("refused"):
            raise ValidationError([refusal_text(state, r) for r in outcome["refused"]])
        tables.record(table, "offer", user, side=side, payload={"side": side}, outcome=outcome, summary=summary)
        return _store(table)


def choose_field(table_id: int, user, index: int, summary: str) -> dict:
    """The attacker's choice among the allowed blocks (T32.2): its cards' terrain and the weather become the battle's."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        offer = sit.strategic(state).get("offer")
        if not offer or not 0 <= index < len(offer.get("battlefields", [])):
            raise ValidationError(_("Offer battle first, then choose one of the allowed fields."))
        tables.record(table, "field", user, payload={"block": offer["battlefields"][index]}, summary=summary)
        return _store(table)


def advance_turn(table_id: int, user, first: str | None, summary) -> dict:
    """The turn tracker (T14.2): the first mover once (after the Initiative roll, T14.1), then step by step."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "battle")
        sides = [s.key for s in table.sides.all()]
        if first is not None and first not in sides:
            raise ValidationError(_("No such side."))
        turn = sit.next_turn(state, sides, first)
        tables.record(table, "turn", user, side=turn["side"], payload=turn, summary=summary(turn))
        return _store(table)
