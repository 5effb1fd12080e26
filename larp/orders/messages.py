"""The engine's refusal reasons (R5) in the user's language, with the map's own names."""
from __future__ import annotations

from django.utils.translation import gettext as _

from larp.campaign.models import Faction, Province

_REASONS = {
    "not_adjacent": lambda: _("the provinces do not border each other"),
    "not_land": lambda: _("this is not a land province"),
    "not_sea": lambda: _("this is not a sea zone"),
    "repeated_province": lambda: _("a province repeats, or the path returns to the start"),
    "not_friendly": lambda: _("the province is not friendly (it must be yours, an ally's, or grant you passage)"),
    "target_friendly": lambda: _("the target is friendly: to go there, order a march"),
    "fleet_not_own": lambda: _("fleet %(fleet)s belongs to another faction"),
    "fleet_not_there": lambda: _("fleet %(fleet)s is not in this sea zone"),
    "fleet_busy": lambda: _("fleet %(fleet)s already carries army %(unit)s this turn"),
    "fleet_carrying": lambda: _("fleet %(fleet)s carries army %(unit)s: the army's order counts"),
    "target_not_hostile": lambda: _("faction %(faction)s is not hostile to you"),
    "path_length": lambda: _("wrong number of steps for this order"),
    "wrong_unit_kind": lambda: _("this order is not for this kind of unit"),
    "unit_destroyed": lambda: _("the unit is not on the map"),
}


def _unit_numeral(value: str) -> str | None:
    """'north-f1' -> 'I', 'north-2' -> 'II': the texts already say "fleet"/"army" (larp.turns.situation ids)."""
    from larp.forces.models import roman

    from larp.orders.services import parse_unit_code

    parsed = parse_unit_code(value)
    return roman(parsed[2]) if parsed is not None and parsed[2] > 0 else None


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
    make = _REASONS.get(refusal.get("code"))
    try:
        reason = make() % params if make else refusal.get("reason", "")
    except (KeyError, ValueError, TypeError):
        reason = make() if make else refusal.get("reason", "")
    step = refusal.get("step")
    if step and "from" in params and "to" in params:
        return _("Step %(step)s (%(from)s → %(to)s): %(reason)s") % {
            "step": step, "from": params["from"], "to": params["to"], "reason": reason}
    if step:
        return _("Step %(step)s: %(reason)s") % {"step": step, "reason": reason}
    return reason[:1].upper() + reason[1:]
