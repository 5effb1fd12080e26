"""Words the printed documents use for the engine's named values, in the active language.

The engine names things with ids (`chivalry`, `defence`, `repelled` ...);
these are the game's own words for them (the original's terms in Russian).
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from larp.engine.model import (
    MoveResult,
    OrderType,
    Outcome,
    RetreatReason,
    Special,
    SpecialKind,
)

MINUS = "\u2212"


def signed(value: int) -> str:
    """+3, −3 (a real minus sign), 0."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def number(value: int) -> str:
    """14 000: thousands apart with a no-break space, as Russian print does."""
    return f"{value:,}".replace(",", "\u00a0")


def special_name(special_id: str) -> str:
    """The console's names for the specials (R10), so screen and paper say the same."""
    from larp.battles.selectors import item_labels

    return item_labels().get(special_id, special_id)


def special_effect(special: Special, province_name=None, faction_name=None) -> str:
    """What a special does (R10), with the game's own numbers."""
    params = {"bonus": signed(special.bonus)}
    kind = special.kind
    if kind == SpecialKind.CITY_DEFENCE:
        params["province"] = province_name(special.province) if province_name else special.province
        return _("%(bonus)s to whoever defends the city of %(province)s") % params
    if kind == SpecialKind.FIRST_BATTLE_DEFENDING:
        params["against"] = faction_name(special.against) if faction_name else special.against
        return _("%(bonus)s in the game's first battle against %(against)s, only when defending") % params
    if kind == SpecialKind.ON_START_PROVINCES:
        return _("%(bonus)s when fighting on its own starting provinces") % params
    if kind == SpecialKind.ATTACKING_UNTIL_DEFEAT:
        return _("%(bonus)s when attacking; lost for good at the first defeat in attack") % params
    if kind == SpecialKind.CHARGES_AT_FORTRESS:
        params["charges"] = special.charges
        return _("%(bonus)s when storming or defending a fortress, by choice; uses per game: %(charges)s") % params
    if kind == SpecialKind.EVERY_LAND_BATTLE:
        return _("%(bonus)s in every land battle") % params
    return params["bonus"]


def special_state(special: Special, state: dict | None) -> str:
    """The state of a special (R10): used, lost, charges left; the rest simply act."""
    state = state or {}
    if special.kind == SpecialKind.FIRST_BATTLE_DEFENDING:
        return pgettext("special state", "used up") if state.get("used") else pgettext("special state", "not used yet")
    if special.kind == SpecialKind.ATTACKING_UNTIL_DEFEAT:
        return pgettext("special state", "lost") if state.get("lost") else pgettext("special state", "in force")
    if special.kind == SpecialKind.CHARGES_AT_FORTRESS:
        left = int(state.get("charges", special.charges))
        return _("uses left: %(left)s of %(total)s") % {"left": left, "total": special.charges}
    return pgettext("special state", "in force")


def item_label(source: str, value: int, *, province: dict | None = None, rules=None) -> str:
    """The row name of one item of a side's total (R8-R10), as the original's worked example names it."""
    if source == "troops":
        return _("Troops")
    if source == "commanders":
        return _("Commanders")
    if source == "defence":
        province = province or {}
        if rules is not None and province.get("capital_of") and value == rules.defence_capital:
            return _("Defending a capital")
        if rules is not None and province.get("fortress") and value == rules.defence_fortress:
            return _("Defending a fortress")
        return _("Defending side")
    if source == "militia":
        return _("Militia")
    if source == "modifier":
        return _("Moderator's modifier")
    if source == "dice":
        return _("Dice")
    return special_name(source)


def side_role(role: str) -> str:
    return _("attacker") if role == "attacker" else _("defender")


def order_type(value: str) -> str:
    names = {
        OrderType.HOLD: _("Hold"), OrderType.MARCH: _("March"), OrderType.ATTACK: _("Attack"),
        OrderType.SEA_ATTACK: _("Sea attack"), OrderType.LANDING: _("Landing"),
        OrderType.FLEET_MOVE: _("Fleet move"), OrderType.FLEET_ATTACK: _("Fleet attack"),
    }
    return names.get(value, value)


def move_result(value: str) -> str:
    names = {
        MoveResult.MOVED: pgettext("move result", "carried out"),
        MoveResult.OCCUPIED: pgettext("move result", "occupied without battle"),
        MoveResult.BATTLE: pgettext("move result", "battle"),
        MoveResult.PINNED: pgettext("move result", "cancelled: attacked before its turn"),
        MoveResult.FAILED: pgettext("move result", "not carried out"),
        MoveResult.HELD: pgettext("move result", "stood still"),
    }
    return names.get(value, value)


def outcome(value: str) -> str:
    names = {
        Outcome.ATTACKER_WON: _("the attacker wins"),
        Outcome.DEFENDER_WON: _("the defender wins"),
        Outcome.TIE: _("a tie: the attack is repelled"),
    }
    return names.get(value, value)


def retreat_reason(value: str) -> str:
    names = {
        RetreatReason.LOST_FIELD_BATTLE: _("lost a field battle"),
        RetreatReason.LOST_NAVAL_BATTLE: _("lost a naval battle"),
        RetreatReason.REPELLED: _("attack repelled"),
    }
    return names.get(value, value)


def battle_kind(domain: str, storm: bool, storm_no: int | None) -> str:
    if domain == "sea":
        return _("naval battle")
    if storm:
        return _("storm no. %(n)s") % {"n": storm_no} if storm_no else _("storm")
    return _("field battle")


def army_label(number_roman: str) -> str:
    return _("army %(n)s") % {"n": number_roman}


def fleet_label(number_roman: str) -> str:
    return _("fleet %(n)s") % {"n": number_roman}


def garrison_label() -> str:
    return _("garrison")


def destroyed(kind: str) -> str:
    """"Destroyed" agreeing with what was destroyed (армия уничтожена, флот и гарнизон уничтожены)."""
    if kind == "fleet":
        return _("sunk")
    if kind == "garrison":
        return _("wiped out")
    return _("destroyed")
