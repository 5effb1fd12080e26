"""The engine's refusal reasons (R5) in the user's language, with the map's own names."""
from __future__ import annotations

from django.utils.translation import gettext as _

from larp.campaign import labels
from larp.turns.selectors import names as game_names


def refusal_text(game_id: int, refusal: dict) -> str:
    """'Шаг 2 (Серре → Адрианополь): провинции не граничат' from an engine refusal dict."""
    raw = refusal.get("params") or {}
    names = game_names(game_id, only=[v for v in raw.values() if isinstance(v, str)])
    params = {key: names.word(value) if isinstance(value, str) else value for key, value in raw.items()}
    template = labels.refusal_reason(refusal.get("code"))
    try:
        reason = template % params if template else refusal.get("reason", "")
    except (KeyError, ValueError, TypeError):
        reason = template or refusal.get("reason", "")
    step = refusal.get("step")
    if step and "from" in params and "to" in params:
        return _("Step %(step)s (%(from)s → %(to)s): %(reason)s") % {
            "step": step, "from": params["from"], "to": params["to"], "reason": reason}
    if step:
        return _("Step %(step)s: %(reason)s") % {"step": step, "reason": reason}
    return reason[:1].upper() + reason[1:]
