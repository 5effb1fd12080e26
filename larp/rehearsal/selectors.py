"""What the «Репетиция» page shows: a game's rehearsal copies, or a copy's run (progress, report, bots)."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Game
from larp.rehearsal import services
from larp.rehearsal.checks import CHECKS


# What each check promises, for the console's page (checks.CHECKS says it in English for the command's report).
CHECK_TEXTS = {
    "http": _("no 5xx, and no 4xx for a choice the page offered"),
    "orders_kept": _("every acknowledged order is on the server after the deadline"),
    "late_refused": _("no order is accepted after the deadline (and its grace)"),
    "deadline_once": _("each deadline is closed once"),
    "act_once": _("each act of the console is done once (a battle confirmed once, regroup applied once)"),
    "fog": _("a tablet's pages never show another faction's hidden data"),
    "turn_equals_engine": _("the turn the console applied equals `adjudicate turn` on its case"),
    "table_replay": _("every table's stored state equals its engine's replay"),
    "table_not_stuck": _("until its end some seat of a table has an open act; a battle ends within its bound"),
    "console_not_stuck": _("the console always offers the next thing to do until the turn's regroup is applied"),
    "dice": _("`verify_dice` agrees with every die at the end"),
}


def run_of(copy: Game) -> dict:
    run = copy.rehearsal or {}
    progress = run.get("progress") or {}
    data = run.get("report") or {}
    violations = data.get("violations", [])
    checks = [{"name": name, "what": CHECK_TEXTS.get(name, what), "count": (data.get("checks") or {}).get(name, 0),
               "failed": sum(1 for v in violations if v.get("check") == name)} for name, what in CHECKS.items()]
    st = services.state(copy)
    return {"copy": copy, "state": st, "active": st in services.ACTIVE, "options": run.get("options", {}),
            "progress": progress, "error": run.get("error", ""), "report": data, "text": run.get("text", ""),
            "checks": checks, "violations": violations,
            "stale": st == services.FAILED and run.get("state") in services.ACTIVE,
            "percent": int(100 * (progress.get("done", 0) / max(1, progress.get("turns", 1))))}


def bots_of(copy: Game) -> list[dict]:
    """The copy's bot tablets, by faction: the account and its faction's tablet page."""
    from larp.campaign.models import Membership

    found = Membership.objects.filter(game=copy, role=Membership.PLAYER).select_related("user", "faction")
    return [{"name": m.user.username, "faction": m.faction} for m in found.order_by("faction__code", "user__username")]


def copies_of(original: Game) -> list[dict]:
    return [run_of(c) for c in original.rehearsals.order_by("-pk")]
