"""What the «Репетиция» page shows: a game's rehearsal copies, or a copy's run (progress, report, bots)."""
from __future__ import annotations

from larp.campaign.models import Game
from larp.rehearsal import services
from larp.rehearsal.checks import CHECKS


def run_of(copy: Game) -> dict:
    run = copy.rehearsal or {}
    progress = run.get("progress") or {}
    data = run.get("report") or {}
    violations = data.get("violations", [])
    checks = [{"name": name, "what": what, "count": (data.get("checks") or {}).get(name, 0),
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
