"""Every write at a «Тактические правила» table: armies, approval, the start, actions, overrides, undo, the end.

Each act runs under the table's row lock (larp.tables.services.locked), takes its
dice through `take_dice` (hand dice typed in, or the table's server stream), gives
them to the engine as data, records one step with a Russian summary (the audit
log's line) and stores the replayed state.
"""
from __future__ import annotations


from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from larp.plain import copy_of
from larp.tables import services as tables
from larp.tables.access import Seat
from larp.tables.models import Table
from larp.tactical import situation as sit
from larp.tactical.engine.errors import CaseError
from larp.tactical.labels import card_name, dice_list_label, refusal_text, rule_text, side_name, unit_label

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
        return copy_of(doc)
    lists = table.setup.get("army_lists") or {}
    return sit.empty_army(lists.get(side) or sit.army_lists()[0]["id"],
                          int(table.setup.get("points_limit") or sit.DEFAULT_LIMIT))


def save_army(table_id: int, user, side: str, change, summary: str, *,
              general_dice: dict | list | None = None) -> dict:
    """Change a side's army (`change(doc)` edits it in place) and record the whole army as a `roster` step.

    `general_dice`: {"general": id, "hand": [..] or None} (or a list of them: an army loaded or imported) — the
    talent dice of a general rolled now, typed in at the table or (hand None) rolled by the server, on the record
    with this step.
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
        for rolled in ([general_dice] if isinstance(general_dice, dict) else general_dice or []):
            gen = next(g for g in doc["generals"] if g["id"] == rolled["general"])
            count = sit.general_dice_count(gen["c_in_c"]) if gen["method"] == "roll" else (1 if gen["c_in_c"] else 0)
            hand = rolled.get("hand")
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
        if yes and state["armies"].get(side):
            verdict = state["verdicts"].get(side)
            if not verdict or not verdict.get("valid"):
                raise ValidationError(_("Only a legal army can be approved."))
        elif yes and sit.suggested(state, side):
            # The bridge's suggestion from a battle of the war is not bought from a list: it is approved when
            # every unit fits its bases (T8.7), as the start will lay it out.
            if sit.misfits(state, side):
                raise ValidationError(_("%(units)s: %(text)s (T8.7). Correct the figures with a ruling first.") % {
                    "units": ", ".join(unit_label(state, u) for u in sit.misfits(state, side)),
                    "text": rule_text("T8.7")})
            wrong = sit.profile_refusals(state, side)
            if wrong:
                raise ValidationError(_("%(units)s: %(text)s. Correct the unit's values with a ruling first.") % {
                    "units": ", ".join(unit_label(state, u) for u in wrong),
                    "text": "; ".join(dict.fromkeys(rule_text(r["rule"]) for rs in wrong.values() for r in rs))})
        elif yes:
            raise ValidationError(_("Only a legal army can be approved."))
        name = side_name(table, side)
        tables.record(table, "confirm", user, side=side, payload={"side": side, "approve": yes},
                      summary=(_("Army of %(side)s approved") if yes else _("Approval of %(side)s's army withdrawn"))
                      % {"side": name})
        return _store(table)


def start(table_id: int, user) -> dict:
    """The battle begins: every side's approved army (built on the pages, or the setup's units) on the table."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        for side in table.sides.all():
            if side.key not in state["approved"]:
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


SETUP_CHANGES = {"formation", "figures", "disordered", "general_lost", "bases", "stats"}


def override(table_id: int, user, uid: str, changes: dict, reason: str, summary: str) -> dict:
    """The moderator's ruling on a unit, with a reason. Before the battle it edits a unit of the setup (the bridge's
    suggested army): its figures, formation or general only; the side's army must then be approved again."""
    if not (reason or "").strip():
        raise ValidationError(_("Say why the moderator changes the unit."))
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup", "battle")
        if state["phase"] == "setup" and set(changes) - SETUP_CHANGES:
            raise ValidationError(_("Before the battle only a unit's figures, formation, values and general can be "
                                    "changed."))
        try:
            u = sit.unit(state, uid)
            if state["phase"] == "setup" and u not in sit.suggested(state, u["side"]):
                raise ValidationError(_("This side has built its own army: it replaces these units at the start."))
            if state["phase"] == "setup" and ("formation" in changes or "figures" in changes):
                # laid out again in its formation on the bases its ranks need, as the bridge sized it
                count = changes.get("figures", sit.figures(u))
                changes = {"figures": count, "disordered": sit.disordered(u), **changes,
                           "bases": sit.bases_needed(state, u, changes.get("formation", u["formation"]), count)}
            trial = copy_of(state)
            sit.rule_on_unit(trial, uid, changes)
        except (KeyError, CaseError):
            raise ValidationError(_("This change does not fit the unit.")) from None
        if state["phase"] == "setup":
            # an edit of the side's army before the battle: a roster step (hidden from the other side, and the
            # army must be approved again)
            tables.record(table, "roster", user, side=u["side"], payload={"side": u["side"], "unit": uid,
                                                                          "changes": changes},
                          reason=reason.strip(), summary=summary)
        else:
            tables.record(table, "override", user, payload={"unit": uid, "changes": changes},
                          reason=reason.strip(), summary=summary)
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
# The manoeuvring (T30-T32). The moderator acts for any side at any time (a ruling); a side's player acts for
# their own side only and in the order of the rules: their own move, targets marked before the roll (T31.1),
# one roll per move, the answer to an offer by the rule of T32.1. `seat` is the actor's seat (None: the
# moderator's own page).
def _by_player(seat: Seat | None) -> bool:
    return seat is not None and not seat.moderator


def _move_open(m: dict) -> dict:
    """The current move, if a side's player may act in it at all: decided, no battle accepted, no offer waiting."""
    mv = m["move"]
    if mv is None:
        raise ValidationError(_("The first move is not decided yet: the moderator rolls for it."))
    if sit.battle_agreed(m):
        raise ValidationError(_("The battle is accepted: the manoeuvring is over."))
    if sit.offer_open(m):
        raise ValidationError(_("An offer of battle waits for its answer."))
    return mv


def _may_march(m: dict, side: str) -> None:
    """Why a side's player may not mark or roll a march now (ValidationError), or nothing."""
    mv = _move_open(m)
    if mv["night"]:
        if side in mv["halted"]:
            raise ValidationError(_("You have declared the night halt."))
    elif mv["side"] != side:
        raise ValidationError(_("It is not your move."))
    if side in mv["rolled"]:
        raise ValidationError(_("The marches of this move are rolled already."))


def _corps_for(m: dict, cid: str, side: str | None = None) -> dict:
    corps = sit.corps_of(m, cid)
    if corps is None or (side is not None and corps["side"] != side):
        raise ValidationError(_("No such corps."))
    return corps


def _march_cards(m: dict, side: str, plan: dict) -> None:
    """Road and Stealth march (T33) are played from the side's hand when hands are dealt."""
    if not m["hands"]:
        return
    hand = m["hands"].get(side) or []
    for flag, card in sit.MARCH_CARDS.items():
        if plan.get(flag) and card not in hand:
            raise ValidationError(_("The card «%(card)s» is not in the hand.") % {"card": card_name(card)})


def _march_in(table: Table, user, state: dict, plan: dict, *, hand: list[int], server_rest: bool, summary,
              roll: bool = False) -> None:
    """One corps' march resolved by the engine and recorded (under the table's lock)."""
    m = sit.strategic(state)
    side = _corps_for(m, plan["corps"])["side"]
    _march_cards(m, side, plan)
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
    payload = {"march": plan, "dice": dice, "by": {"hand": used_hand, "server": server_dice}, "side": side,
               **({"roll": True} if roll else {})}
    tables.record(table, "march", user, seq=seq, side=side, payload=payload, outcome=outcome,
                  summary=summary(state, outcome))


def edit_map(table_id: int, user, change, summary: str, *, side: str = "") -> dict:
    """Lay cards, rivers, paths, weather, corps on the 5x5 map (T30): the whole map stored as a `setup` step.

    `side`: the side the change is about (a corps placed), so the other side's log does not show it.
    """
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        m = copy_of(sit.strategic(state))
        change(m)
        if len(m["corps"]) > 40:
            raise ValidationError(_("Too many corps."))
        tables.record(table, "setup", user, side=side, payload={"strategic": m}, summary=summary)
        return _store(table)


def march(table_id: int, user, plan: dict, *, hand: list[int], server_rest: bool, summary) -> dict:
    """The moderator's march of one corps (T31), its die typed in or rolled by the server; a refused march records
    nothing. `summary(state, outcome)` gives the step's sentence."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        _corps_for(sit.strategic(state), plan["corps"])
        _march_in(table, user, state, plan, hand=hand, server_rest=server_rest, summary=summary)
        return _store(table)


def mark_target(table_id: int, user, side: str, corps: str, plan: dict | None, summary, *,
                seat: Seat | None = None) -> dict:
    """T31.1: a side marks the card its corps marches to (the path there), or takes the mark off (`plan` None).

    The engine checks the march and gives its cost before any die; the other side sees nothing of it.
    """
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        m = sit.strategic(state)
        c = _corps_for(m, corps, side)
        _may_march(m, side)
        payload = {"corps": corps, "side": side, "steps": [], "road": False, "stealth": False, "cost": None}
        if plan is not None:
            if c["id"] in m["move"]["marched"]:
                raise ValidationError(_("This corps has marched in this move already."))
            plan = {**plan, "corps": corps}
            _march_cards(m, side, plan)
            taken = {card for t in m["targets"] if t["side"] == side and t["corps"] != corps
                     for flag, card in sit.MARCH_CARDS.items() if t.get(flag)}
            if any(plan.get(flag) and card in taken for flag, card in sit.MARCH_CARDS.items()):
                raise ValidationError(_("That card is already marked for another corps."))
            try:
                check = sit.march_check(state, plan)
            except CaseError:
                raise ValidationError(_("This march does not fit the map.")) from None
            if check.get("refused"):
                raise ValidationError([refusal_text(state, r, codes=False) for r in check["refused"]])
            payload.update(steps=plan["steps"], road=bool(plan.get("road")), stealth=bool(plan.get("stealth")),
                           cost=check["cost"])
        elif not any(t["corps"] == corps for t in m["targets"]):
            raise ValidationError(_("This corps has no target marked."))
        tables.record(table, "target", user, side=side, payload=payload, summary=summary(payload))
        return _store(table)


def roll_marches(table_id: int, user, side: str, summary) -> dict:
    """T31.1: the side's marked corps march, in the order marked, each with the server's dice from the table's
    stream; one roll per move. `summary(state, outcome)` gives each march's sentence."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        m = sit.strategic(state)
        _may_march(m, side)
        targets = [t for t in m["targets"] if t["side"] == side]
        if not targets:
            raise ValidationError(_("Mark the targets of your corps first."))
        for t in targets:
            plan = {"corps": t["corps"], "steps": t["steps"], "road": t["road"], "stealth": t["stealth"]}
            _march_in(table, user, state, plan, hand=[], server_rest=True, summary=summary, roll=True)
            state = replay_table(table)
        return _store(table)


def end_move(table_id: int, user, side: str, summary: str) -> dict:
    """A side ends its day move (T31.5): its corps that stood still rest (T31.4); the other side moves, or night."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        m = sit.strategic(state)
        if _move_open(m)["side"] != side:
            raise ValidationError(_("It is not your move."))
        tables.record(table, "pass", user, side=side, payload={"side": side}, summary=summary)
        return _store(table)


def night_halt(table_id: int, user, summary: str, *, side: str | None = None) -> dict:
    """T31.5: the night halt. The moderator's: at once, every fatigue marker removed but those of corps that marched
    by night. A side's: its declaration; the halt comes when both sides have declared it."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        if side is None:
            tables.record(table, "halt", user, payload={"marched": []}, summary=summary)
            return _store(table)
        mv = sit.strategic(state)["move"]
        if mv is None or not mv["night"]:
            raise ValidationError(_("The night halt comes at night, after both sides' moves."))
        if side in mv["halted"]:
            raise ValidationError(_("You have declared the night halt."))
        tables.record(table, "halt", user, side=side, payload={"side": side}, summary=summary)
        return _store(table)


def offer_battle(table_id: int, user, side: str, summary: str, *, seat: Seat | None = None) -> dict:
    """T32: contact, whether the other side may refuse, the allowed six-card blocks. A player offers at the end of
    their own day move; the other side answers."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        if not table.sides.filter(key=side).exists():
            raise ValidationError(_("No such side."))
        m = sit.strategic(state)
        if _by_player(seat):
            mv = _move_open(m)
            if mv["night"] or mv["side"] != side:
                raise ValidationError(_("Battle is offered at the end of your own move."))
        try:
            outcome = sit.offer(state, side)
        except CaseError:
            raise ValidationError(_("Place the corps of both sides on the map first.")) from None
        if outcome.get("refused"):
            raise ValidationError([refusal_text(state, r, codes=False) for r in outcome["refused"]])
        tables.record(table, "offer", user, side=side, payload={"side": side}, outcome=outcome, summary=summary)
        return _store(table)


def answer_offer(table_id: int, user, side: str, accept: bool, summary: str) -> dict:
    """T32.1: the other side accepts or refuses; it may refuse only if all its corps in contact are fresh (the
    engine's `battle_offer` on the map as it is now). A refusal ends the offerer's move: the other moves as usual."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        m = sit.strategic(state)
        if not sit.offer_open(m):
            raise ValidationError(_("No offer of battle waits for an answer."))
        if side == m["offer"]["by"] or not table.sides.filter(key=side).exists():
            raise ValidationError(_("The side that offered battle does not answer it."))
        now = sit.offer(state, m["offer"]["by"])
        if not accept and now.get("refused") is None and not now["may_refuse"]:
            raise ValidationError(_("You must accept: your tired corps in contact — %(corps)s (T32.1).") % {
                "corps": ", ".join(unit_label(state, c) for c in now["tired_in_contact"])})
        tables.record(table, "answer", user, side=side, payload={"side": side, "accept": bool(accept)},
                      outcome={"may_refuse": now.get("may_refuse"), "tired_in_contact": now.get("tired_in_contact")},
                      summary=summary)
        return _store(table)


def choose_field(table_id: int, user, index: int, summary: str, *, seat: Seat | None = None) -> dict:
    """The attacker's choice among the allowed blocks (T32.2): its cards' terrain and the weather become the battle's.

    A player chooses once the offer is accepted, and only the side that offered; the moderator may choose for it.
    """
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        offer = sit.strategic(state).get("offer")
        if not offer or not 0 <= index < len(offer.get("battlefields", [])):
            raise ValidationError(_("Offer battle first, then choose one of the allowed fields."))
        if offer.get("answer") == "refused":
            raise ValidationError(_("The battle was refused."))
        if _by_player(seat) and (offer.get("answer") != "accepted" or seat.side_key != offer["by"]):
            raise ValidationError(_("The side that offered battle chooses the field, once the battle is accepted."))
        tables.record(table, "field", user, payload={"block": offer["battlefields"][index]}, summary=summary)
        return _store(table)


def deal(table_id: int, user, summary: str) -> dict:
    """T30.2: the 40 operational cards shuffled with the table's server dice (one die of i + 1 sides per position,
    Fisher-Yates), six dealt to each side; equal terrain cards: a roll-off says who lays first."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        if sit.strategic(state)["hands"]:
            raise ValidationError(_("The cards are dealt already: undo the deal to deal again."))
        sides = [s.key for s in table.sides.order_by("position")]
        seq = tables.next_seq(table)
        picks = []
        for i in range(len(sit.DECK) - 1, 0, -1):
            picks += tables.take_dice(table, seq, count=1, sides=i + 1, user=user,
                                      purpose=_("shuffle: position %(i)s") % {"i": i + 1})
        hands, _deck = sit.dealt(picks, sides)
        rolls = []
        if len({sit.terrain_count(h) for h in hands.values()}) == 1 and sit.terrain_count(hands[sides[0]]):
            rolls = _roll_off(table, seq, user, _("who lays the first terrain card"))
        tables.record(table, "deal", user, seq=seq, payload={"sides": sides, "picks": picks, "rolls": rolls},
                      summary=summary)
        return _store(table)


def _roll_off(table: Table, seq: int, user, purpose: str) -> list[list[int]]:
    """Both sides roll a server die; ties are rolled again (T30.2, T30.4 rulings)."""
    rolls = []
    for _i in range(50):
        pair = tables.take_dice(table, seq, count=2, user=user, purpose=purpose)
        rolls.append(pair)
        if pair[0] != pair[1]:
            return rolls
    raise ValidationError(_("The dice tied fifty times; roll at the table and name the side."))


def lay_card(table_id: int, user, side: str, card: str, cell: list[int], summary: str) -> dict:
    """T30.2: a terrain card from the side's hand laid face up on a clear card place, the sides in turn."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        m = sit.strategic(state)
        if not m["hands"]:
            raise ValidationError(_("No cards are dealt at this table."))
        layer = sit.next_layer(m)
        if layer is None:
            raise ValidationError(_("All terrain cards are laid."))
        if layer != side:
            raise ValidationError(_("It is not your turn to lay a terrain card."))
        if card not in (m["hands"].get(side) or []) or sit.CARD_KIND.get(card) != "terrain":
            raise ValidationError(_("The card «%(card)s» is not in the hand.") % {"card": card_name(card)})
        if m["grid"][cell[0]][cell[1]] != "clear":
            raise ValidationError(_("A card lies there already: choose a free place."))
        tables.record(table, "lay", user, side=side, payload={"side": side, "card": card, "cell": list(cell)},
                      summary=summary)
        return _store(table)


def play_card(table_id: int, user, side: str, card: str, cell: list[int] | None, summary: str) -> dict:
    """A weather or surprise card played from the side's hand (T33). The engine applies the weather cards, River
    flood and a Path; the other cards' effects are the moderator's rulings (T36: card-play timing)."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        m = sit.strategic(state)
        if card not in (m["hands"].get(side) or []):
            raise ValidationError(_("The card «%(card)s» is not in the hand.") % {"card": card_name(card)})
        if sit.CARD_KIND.get(card) == "terrain":
            raise ValidationError(_("A terrain card is laid on the map, not played."))
        if card in sit.MARCH_CARDS.values():
            raise ValidationError(_("The Road and Stealth march cards are played with a march: tick them there."))
        if card == "path" and cell is None:
            raise ValidationError(_("Say on which card the Path lies."))
        try:
            outcome = sit.played(state, card, cell)
        except CaseError:
            raise ValidationError(_("This card does not fit the map.")) from None
        if outcome.get("refused"):
            raise ValidationError([refusal_text(state, r, codes=False) for r in outcome["refused"]])
        tables.record(table, "play", user, side=side,
                      payload={"side": side, "card": card, "cell": list(cell) if cell else None}, outcome=outcome,
                      summary=summary)
        return _store(table)


def first_move(table_id: int, user, side: str | None, summary) -> dict:
    """T30.4: who moves first — a server roll-off (ties rolled again), or the side the moderator names after a roll
    at the table. Starts the move tracker. `summary(first, rolls)` gives the step's sentence."""
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        m = sit.strategic(state)
        if m["move"] is not None:
            raise ValidationError(_("The first move is decided already: undo it to roll again."))
        if m["hands"] and sit.next_layer(m) is not None:
            raise ValidationError(_("Lay all terrain cards before the first move."))
        sides = [s.key for s in table.sides.order_by("position")]
        if side is not None and side not in sides:
            raise ValidationError(_("No such side."))
        seq = tables.next_seq(table)
        rolls = [] if side is not None else _roll_off(table, seq, user, _("who moves first"))
        first = side or sit.roll_off_winner(rolls, sides)
        tables.record(table, "first", user, seq=seq, payload={"sides": sides, "rolls": rolls, "first": first},
                      summary=summary(first, rolls))
        return _store(table)


def rule_corps(table_id: int, user, corps: str, cell: list[int] | None, tired: bool, reason: str,
               summary: str) -> dict:
    """The moderator's ruling on a corps (a card's effect, a mistake): where it stands and whether it is tired."""
    if not (reason or "").strip():
        raise ValidationError(_("Say why the moderator changes the corps."))
    with tables.locked(table_id) as table:
        _open(table)
        state = _phase(table, "setup")
        c = _corps_for(sit.strategic(state), corps)
        tables.record(table, "override", user, side=c["side"],
                      payload={"corps": corps, "cell": list(cell) if cell else None, "tired": bool(tired)},
                      reason=reason.strip(), summary=summary)
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
