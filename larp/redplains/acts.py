"""Red Plains' acts at the table, declared once (larp.tables.acts): who presses each, its form, when it is open,
its service. The pages offer an act only where `open_when` says the seat may press it now; the door refuses the
same act by the same predicate, inside the table's row lock."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import render

from larp.redplains import forms as f
from larp.redplains import labels, selectors, services
from larp.redplains import situation as sit
from larp.tables.acts import BOTH, MODERATOR, Act, Acts

SYSTEM = "red-plains"


def need(ok: bool, code: str, **params) -> bool | str:
    """True, or the refusal of this code in the user's language."""
    return True if ok else labels.refusal(sit.StepRefused(code, **params))


def _probe(kind: str, payload) -> callable:
    """Open when the engine would take this step now (a payload standing in for the form's)."""
    def open_when(state, seat):
        try:
            sit.apply(seat.table.setup, state, kind, seat.side, payload(state, seat) if callable(payload) else payload)
        except sit.StepRefused as error:
            return labels.refusal(error)
        return True
    return open_when


def _commanding(state, seat) -> bool | str:
    return need(state["phase"] == sit.COMMAND and not state["confirmed"][seat.side], "not_command")


def deploy_open(state, seat):
    phase, side = state["phase"], seat.side
    if not (phase == sit.DEPLOYMENT or (phase == sit.PLAN_CHANGE and state["scouted"][side] is not None)):
        return need(False, "not_deployment")
    return need(not state["confirmed"][side], "already_confirmed")


def _guard_dice(state, seat) -> dict:
    needed = sit.guard_rolls_needed(state) if sit.deployment_completes(state, seat.side) else {}
    return {"shinobi_dice": {k: [1] * n for k, n in needed.items() if n}}


def stake_open(state, seat):
    opened = _commanding(state, seat)
    if opened is not True:
        return opened
    return need(not state["command"][seat.side]["rolls"], "stake_after_roll")


def roll_open(state, seat):
    """The command roll, once: a second press of «Бросить» is refused, never taken for the messenger's re-roll."""
    opened = _commanding(state, seat)
    if opened is not True:
        return opened
    return need(not state["command"][seat.side]["rolls"], "already_rolled")


def reroll_open(state, seat):
    """W8: a messenger's re-roll, its own act: after the roll, while the side has a re-roll left."""
    opened = _commanding(state, seat)
    if opened is not True:
        return opened
    rolls = state["command"][seat.side]["rolls"]
    if not rolls:
        return need(False, "no_roll_yet")
    return need(len(rolls) - 1 < state["rerolls_left"][seat.side], "no_reroll_left")


def scout_open(state, seat):
    through = ((state.get("infiltration") or {}).get(seat.side) or {}).get("through", 0)
    return need(state["phase"] == sit.PLAN_CHANGE and not state["confirmed"][seat.side] and
                state["scouted"][seat.side] is None and through > 0, "no_scouting")


def shinobi_open(state, seat):
    opened = _commanding(state, seat)
    if opened is not True:
        return opened
    if state["command"][seat.side]["result"] is None:
        return need(False, "no_roll_yet")
    return need(sit.shinobi_tally(state, seat.side)["ready"] > 0, "no_shinobi")


def orders_open(state, seat):
    side = seat.side
    if state["phase"] == sit.SIGNALS:
        return need(sit.signalled(state, side) and not state["confirmed"][side], "no_plan_change")
    opened = _commanding(state, seat)
    if opened is not True:
        return opened
    return need(state["command"][side]["result"] is not None, "no_roll_yet")


def stop_open(state, seat):
    return need(sit.may_stop(state) == seat.side, "cannot_stop")


def plan_open(state, seat):
    if state["phase"] != sit.COMMAND:
        return need(False, "plan_now")
    return need(not state["confirmed"][seat.side], "already_confirmed")


def dice_open(state, seat):
    if state["phase"] != sit.EXECUTION:
        return need(False, "not_execution")
    return need(sit.preview(seat.table.setup, state)["awaiting"] is not None, "no_roll_awaited")


def execute_open(state, seat):
    if state["phase"] != sit.EXECUTION:
        return need(False, "not_execution")
    return need(sit.preview(seat.table.setup, state)["complete"], "dice_missing")


def override_open(state, seat):
    return need(state["phase"] in (sit.DEPLOYMENT, sit.COMMAND) or
                (state["phase"] == sit.EXECUTION and not state["rolls"]), "override_now")


def before_play(state, seat):
    return need(sit.before_play(state), "roster_after_start")


def terrain_open(state, seat):
    """W6.2: the terrain is placed first, and the opponent is told: before either side confirms its deployment."""
    return need(sit.terrain_open(state), "terrain_now")


def extend_open(state, seat):
    return need(sit.may_extend(state), "extend_now")


def _hand(p, values):
    """Dice typed in at the table are the moderator's to enter; players roll by the server."""
    if values is not None and not p.seat.moderator:
        raise PermissionDenied("Players roll by the server; the moderator types in dice rolled at the table.")
    return values


def _roll(p, d):
    services.roll(p.table.pk, p.user, p.side, hand=_hand(p, d.get("values") if d["source"] == "hand" else None))


def _shinobi(p, d):
    hand = _hand(p, d.get("values") if d["task"] == "sabotage" and d.get("source") == "hand" else None)
    services.shinobi(p.table.pk, p.user, p.side, d["task"], d.get("unit") or None, hand=hand)


def _sided(p) -> bool:
    """The press names a side of the battle (a moderator's may name none yet: the door refuses it after the form)."""
    return p.side in sit.SIDES


def _targets(p):
    return [u["id"] for u in sit.visible_enemies(p.table.setup, p.state, p.side)] if _sided(p) else []


def _mine(p):
    return [u["id"] for u in p.state["units"] if u["side"] == p.side]


def _dice(p, d):
    services.execution_dice(p.table.pk, p.user, hand=d.get("values") if d["source"] == "hand" else None)


ACTS_LIST = [
    Act("deploy", who=BOTH, open_when=deploy_open,
        form=lambda p: f.DeployForm(p.data, units=_mine(p), zone=sit.zone(p.side) if _sided(p) else []),
        service=lambda p, d: services.deploy(p.table.pk, p.user, p.side, p.form.placed(), d.get("infiltrate") or 0)),
    Act("confirm", who=BOTH, open_when=_probe("confirm", _guard_dice),
        service=lambda p, d: services.confirm(p.table.pk, p.user, p.side)),
    Act("stake", who=BOTH, open_when=stake_open, form=lambda p: f.StakeForm(p.data),
        service=lambda p, d: services.stake(p.table.pk, p.user, p.side, d["stake"])),
    Act("roll", who=BOTH, open_when=roll_open, form=lambda p: f.RollForm(p.data), service=_roll),
    Act("reroll", who=BOTH, open_when=reroll_open, form=lambda p: f.RollForm(p.data), service=_roll),
    Act("scout", who=BOTH, open_when=scout_open,
        form=lambda p: f.ScoutForm(p.data, cells=[c["id"] for c in sit.table_cells(p.table.setup, p.state)]),
        service=lambda p, d: services.scout(p.table.pk, p.user, p.side, d["cells"])),
    Act("shinobi", who=BOTH, open_when=shinobi_open, service=_shinobi,
        form=lambda p: f.ShinobiForm(p.data, targets=_targets(p))),
    Act("orders", who=BOTH, open_when=orders_open,
        form=lambda p: f.OrdersForm(p.data, pickers=selectors.order_pickers(p.table, p.state, p.side)
                                    if _sided(p) else []),
        service=lambda p, d: services.give_orders(p.table.pk, p.user, p.side, p.form.orders(),
                                                  general_retreat=d.get("general_retreat", False),
                                                  banners=p.form.banners(), withdraw=p.form.withdraw())),
    Act("leader", who=BOTH, open_when=_commanding,
        form=lambda p: f.LeaderForm(p.data, board=sit.leader_board(p.table.setup, p.state, p.side)
                                    if _sided(p) else []),
        service=lambda p, d: services.move_leader(p.table.pk, p.user, p.side, d["leader"], d["unit"])),
    Act("stop", who=BOTH, open_when=stop_open, service=lambda p, d: services.stop(p.table.pk, p.user, p.side)),
    Act("plan", who=MODERATOR, open_when=plan_open, form=lambda p: f.PlanForm(p.data, units=_mine(p)),
        service=lambda p, d: services.cunning_plan(p.table.pk, p.user, p.side, d.get("kind") or None,
                                                   d.get("count") or 0, d["reason"], unit=d.get("unit") or None,
                                                   note=d.get("next") or "")),
    Act("dice", who=MODERATOR, sided=False, open_when=dice_open, form=lambda p: f.DiceForm(p.data), service=_dice),
    Act("dice_all", who=MODERATOR, sided=False, open_when=dice_open,
        service=lambda p, d: services.all_execution_dice(p.table.pk, p.user)),
    Act("execute", who=MODERATOR, sided=False, open_when=execute_open,
        service=lambda p, d: services.execute(p.table.pk, p.user)),
    Act("undo", who=MODERATOR, sided=False, closed_too=True, form=lambda p: f.ReasonForm(p.data),
        service=lambda p, d: services.undo(p.table.pk, p.user, d["reason"])),
    Act("roster", who=MODERATOR, sided=False, open_when=before_play, form=lambda p: f.RosterForm(p.data),
        service=lambda p, d: services.edit_roster(p.table.pk, p.user, p.form.payload())),
    Act("terrain", who=MODERATOR, sided=False, open_when=terrain_open, form=lambda p: f.TerrainForm(p.data),
        service=lambda p, d: services.edit_roster(p.table.pk, p.user, p.form.payload())),
    Act("traits", who=MODERATOR, sided=False, open_when=before_play,
        form=lambda p: f.LeaderTraitsForm(p.data, leaders=selectors.all_leaders(p.table, p.state)),
        service=lambda p, d: services.edit_roster(p.table.pk, p.user, {"leader": d["leader"], "traits": d["traits"]})),
    Act("extend", who=MODERATOR, sided=False, open_when=extend_open,
        form=lambda p: f.ExtendForm(p.data, options=sit.addable(p.table.setup, p.state)),
        service=lambda p, d: services.extend_field(p.table.pk, p.user, p.form.positions(), d["reason"])),
    Act("override", who=MODERATOR, sided=False, open_when=override_open,
        form=lambda p: f.OverrideForm(p.data, cells=[c["id"] for c in sit.table_cells(p.table.setup, p.state)]),
        service=lambda p, d: services.override(p.table.pk, p.user, d["unit"], p.form.changes(), d["reason"])),
]


class NotReady(Exception):
    """A table of this system whose setup has no armies, or whose sides are not north and south."""


def _ready(s):
    if not services.playable(s.table):
        raise NotReady()


def page(request, s, *, refusal: str = "", status: int = 200, fresh: bool = False):
    """The table's page for this seat: the moderator's console or the side's tablet (with a refusal, if any).
    `fresh`: the seat's table was read in this request and nothing changed it since (a plain GET); else it is
    read again (after an act)."""
    t = s.table
    if not fresh:
        t.refresh_from_db()
    ctx = selectors.page(t, s)
    state = ctx["state"]
    ctx.update({"table": t, "game": t.game, "seat": s, "refusal": refusal,
                "open": ACTS.open_for(state, t, s.moderator, None)})
    for entry in ctx["my_sides"]:
        entry["open"] = ACTS.open_for(state, t, s.moderator, entry["key"])
    response = render(request, "redplains/moderator.html" if s.moderator else "redplains/tablet.html", ctx,
                      status=status)
    return response if s.moderator else for_players(response)


def for_players(response):
    """A player's or the hall's page without the rules' numbers (they stay on the moderator's screen and paper)."""
    response.content = labels.without_rule_codes(response.content.decode()).encode()
    return response


def _explain(error):
    if isinstance(error, sit.StepRefused):
        return labels.refusal(error)
    return None


ACTS = Acts(system=SYSTEM, table_url="redplains:table", page=page, state=services.current, acts=ACTS_LIST,
            explain=_explain, errors=f.errors_text, ready=_ready, sides=lambda table: list(sit.SIDES),
            closed=labels.REFUSALS["table_closed"], unknown=labels.REFUSALS["unknown_step"])


def not_ready(view):
    """A table that cannot be played (made elsewhere without armies): say so, in the user's language."""
    def wrapped(request, game_id, table_id, *args, **kwargs):
        try:
            return view(request, game_id, table_id, *args, **kwargs)
        except NotReady:
            from django.urls import reverse
            return render(request, "redplains/refused.html",
                          {"message": labels.REFUSALS["not_ready"], "back": reverse("tables:list", args=[game_id])},
                          status=409)
    wrapped.__name__ = getattr(view, "__name__", "act")
    wrapped.__doc__ = view.__doc__
    return wrapped


door = ACTS.view(wrap=not_ready)
