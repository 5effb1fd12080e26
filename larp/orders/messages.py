"""The engine's refusal reasons (R5) in the user's language, with the map's own names."""
from __future__ import annotations

from django.utils.translation import gettext as _

from larp.campaign import labels
from larp.campaign.models import Faction, Province
from larp.forces.models import roman
from larp.turns.situation import parse_unit_code


def _unit_numeral(value: str) -> str | None:
    """'north-f1' -> 'I', 'north-2' -> 'II': the texts already say "fleet"/"army"."""
    parsed = parse_unit_code(value)
    return roman(parsed[2]) if parsed else None


def _names(game_id: int, params: dict) -> dict:
    """Replace ids in the engine's params with the names a player reads."""
    ids = {str(v) for v in params.values() if isinstance(v, str)}
    provinces = {p.code: p.name for p in Province.objects.filter(game_id=game_id, code__in=ids)}
    factions = {f.code: f.name for f in Faction.objects.filter(game_id=game_id, code__in=ids)}
    named = {}
    for key, value in params.items():
        if isinstance(value, str):
            named[key] = provinces.get(value) or factions.get(value) or _unit_numeral(value) or value
        else:
            named[key] = value
    return named


def refusal_text(game_id: int, refusal: dict) -> str:
    """'Шаг 2 (Серре → Адрианополь): провинции не граничат' from an engine refusal dict."""
    params = _names(game_id, refusal.get("params") or {})
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
