"""The game's words for the engine's named values: one table per engine enum, for screen and paper alike.

The engine names things with ids (`attacker_won`, `pinned`, `not_adjacent` ...);
each table below keys those ids by the engine's own enums and gives the game's
word for them (the original's terms in Russian). Pages, tablet messages and the
printed documents all read these tables, so a battle's outcome reads the same on
the console, the projector, the tablet and paper.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from larp.engine.model import (
    Decision,
    Fate,
    MoveResult,
    OrderType,
    Outcome,
    RefusalCode,
    RetreatReason,
    Role,
    Special,
    SpecialKind,
    StackSide,
)

ORDER_TYPES = {
    OrderType.HOLD: gettext_lazy("Hold"), OrderType.MARCH: gettext_lazy("March"),
    OrderType.ATTACK: gettext_lazy("Attack"), OrderType.SEA_ATTACK: gettext_lazy("Sea attack"),
    OrderType.LANDING: gettext_lazy("Landing"), OrderType.FLEET_MOVE: gettext_lazy("Fleet move"),
    OrderType.FLEET_ATTACK: gettext_lazy("Fleet attack"),
}

# What became of an order (R6); the subject is always the order («приказ»), so every word of a result
# column agrees with it: выполнен / выполнен: провинция занята без боя / привёл к сражению / отменён … /
# не выполнен / без движения.
MOVE_RESULTS = {
    MoveResult.MOVED: pgettext_lazy("move result", "carried out"),
    MoveResult.OCCUPIED: pgettext_lazy("move result", "occupied without battle"),
    MoveResult.BATTLE: pgettext_lazy("move result", "led to a battle"),
    MoveResult.PINNED: pgettext_lazy("move result", "cancelled: attacked before its turn"),
    MoveResult.FAILED: pgettext_lazy("move result", "not carried out"),
    MoveResult.HELD: pgettext_lazy("move result", "stood still"),
}

OUTCOMES = {
    Outcome.ATTACKER_WON: gettext_lazy("the attacker wins"),
    Outcome.DEFENDER_WON: gettext_lazy("the defender wins"),
    Outcome.TIE: gettext_lazy("a tie: the attack is repelled"),
}

# A battle's outcome as its side is told it (the tablet's turn result): (outcome, role) -> words.
OUTCOMES_FOR_SIDE = {
    (Outcome.ATTACKER_WON, Role.ATTACKER): gettext_lazy("you won"),
    (Outcome.ATTACKER_WON, Role.DEFENDER): gettext_lazy("you lost"),
    (Outcome.DEFENDER_WON, Role.ATTACKER): gettext_lazy("you lost: your attack was beaten off"),
    (Outcome.DEFENDER_WON, Role.DEFENDER): gettext_lazy("you won and held your ground"),
    (Outcome.TIE, Role.ATTACKER): gettext_lazy("a tie: your attack was repelled"),
    (Outcome.TIE, Role.DEFENDER): gettext_lazy("a tie: the attack was repelled, you held your ground"),
}

# What a battle decided (the engine's `decision`): the same words on the console, History, the projector,
# the tablet (from each side's seat, below) and paper. The first three are the totals' verdicts.
DECISIONS = {
    Decision.ATTACKER_WON: OUTCOMES[Outcome.ATTACKER_WON],
    Decision.DEFENDER_WON: OUTCOMES[Outcome.DEFENDER_WON],
    Decision.TIE: OUTCOMES[Outcome.TIE],
    Decision.FORTRESS_TAKEN: gettext_lazy("the storm takes the fortress: its last defender has fallen"),
    Decision.FORTRESS_EMPTIED: gettext_lazy("the last defender has fallen, and so has the stormer: "
                                            "the fortress stands empty"),
    Decision.ATTACKER_WON_DESTROYED: gettext_lazy("the attacker wins, but is destroyed by its own losses: "
                                                  "nobody takes the province"),
    Decision.DEFENDER_WON_DESTROYED: gettext_lazy("the defender wins, but is destroyed by its own losses"),
}

DECISIONS_FOR_SIDE = {
    **{(Decision(o.value), r): text for (o, r), text in OUTCOMES_FOR_SIDE.items()},
    (Decision.FORTRESS_TAKEN, Role.ATTACKER): gettext_lazy("you won: the storm took the fortress"),
    (Decision.FORTRESS_TAKEN, Role.DEFENDER): gettext_lazy("you lost: the last defender has fallen, "
                                                           "the fortress is taken"),
    (Decision.FORTRESS_EMPTIED, Role.ATTACKER): gettext_lazy("the last defender has fallen, but so has your army: "
                                                             "the fortress stands empty"),
    (Decision.FORTRESS_EMPTIED, Role.DEFENDER): gettext_lazy("you lost: the last defender has fallen, "
                                                             "the fortress stands empty"),
    (Decision.ATTACKER_WON_DESTROYED, Role.ATTACKER): gettext_lazy("you won, but your army is destroyed by its own "
                                                                   "losses: nobody takes the province"),
    (Decision.ATTACKER_WON_DESTROYED, Role.DEFENDER): gettext_lazy("you lost and retreat, but nobody takes the "
                                                                   "province: the enemy is destroyed by its own losses"),
    (Decision.DEFENDER_WON_DESTROYED, Role.ATTACKER): OUTCOMES_FOR_SIDE[(Outcome.DEFENDER_WON, Role.ATTACKER)],
    (Decision.DEFENDER_WON_DESTROYED, Role.DEFENDER): gettext_lazy("you won, but your army is destroyed by its own "
                                                                   "losses"),
}

RETREAT_REASONS = {
    RetreatReason.LOST_FIELD_BATTLE: gettext_lazy("lost a field battle"),
    RetreatReason.LOST_NAVAL_BATTLE: gettext_lazy("lost a naval battle"),
    RetreatReason.REPELLED: gettext_lazy("attack repelled"),
}

# What one battle does to one stack (the engine's fought[].<side>.fates).
FATES = {
    Fate.STAYS: gettext_lazy("holds the field"),
    Fate.DESTROYED: gettext_lazy("the stack is destroyed"),
    Fate.RETREATS: gettext_lazy("retreats"),
    Fate.REPELLED: gettext_lazy("falls back where it came from"),
    Fate.BESIEGED: gettext_lazy("stays behind its walls: the siege goes on"),
}

ROLES = {Role.ATTACKER: gettext_lazy("attacker"), Role.DEFENDER: gettext_lazy("defender")}

STACK_SIDES = {
    StackSide.HOLDER: gettext_lazy("holder"),
    StackSide.PRESENT: gettext_lazy("present"),
    StackSide.ARRIVAL: gettext_lazy("arrival"),
}

# Why an order was refused (R5); `%(...)s` are the names of the engine's `params`.
REFUSALS = {
    RefusalCode.NOT_ADJACENT: gettext_lazy("the provinces do not border each other"),
    RefusalCode.NOT_LAND: gettext_lazy("this is not a land province"),
    RefusalCode.NOT_SEA: gettext_lazy("this is not a sea zone"),
    RefusalCode.REPEATED_PROVINCE: gettext_lazy("a province repeats, or the path returns to the start"),
    RefusalCode.NOT_FRIENDLY: gettext_lazy(
        "the province is not friendly (it must be yours, an ally's, or grant you passage)"),
    RefusalCode.TARGET_FRIENDLY: gettext_lazy("the target is friendly: to go there, order a march"),
    RefusalCode.FLEET_NOT_OWN: gettext_lazy("fleet %(fleet)s belongs to another faction"),
    RefusalCode.FLEET_NOT_THERE: gettext_lazy("fleet %(fleet)s is not in this sea zone"),
    RefusalCode.FLEET_BUSY: gettext_lazy("fleet %(fleet)s already carries army %(unit)s this turn"),
    RefusalCode.FLEET_CARRYING: gettext_lazy("fleet %(fleet)s carries army %(unit)s: the army's order counts"),
    RefusalCode.TARGET_NOT_HOSTILE: gettext_lazy("faction %(faction)s is not hostile to you"),
    RefusalCode.PATH_LENGTH: gettext_lazy("wrong number of steps for this order"),
    RefusalCode.WRONG_UNIT_KIND: gettext_lazy("this order is not for this kind of unit"),
    RefusalCode.UNIT_DESTROYED: gettext_lazy("the unit is not on the map"),
}

# Every table keyed by the engine's enum it translates (a test walks each key in each language).
TABLES = {
    OrderType: ORDER_TYPES, MoveResult: MOVE_RESULTS, Outcome: OUTCOMES, RetreatReason: RETREAT_REASONS,
    Role: ROLES, StackSide: STACK_SIDES, RefusalCode: REFUSALS, Fate: FATES,
}

# The items of a side's total (R8-R10) that are not specials, as the battle result names them.
ITEM_SOURCES = {
    "troops": gettext_lazy("troops"), "commanders": gettext_lazy("commanders"),
    "defence": gettext_lazy("defence position"), "militia": gettext_lazy("militia"),
    "modifier": gettext_lazy("moderator's modifier"), "dice": gettext_lazy("dice"),
}

# The scenario's specials (R10) by id.
SPECIALS = {
    "constantinople": gettext_lazy("Constantinople"), "thessalonica": gettext_lazy("Thessalonica"),
    "acrocorinth": gettext_lazy("Acrocorinth"), "meander_miracle": gettext_lazy("Miracle of the Maeander"),
    "mountain_country": gettext_lazy("Mountain country"), "victory_march": gettext_lazy("Victory march"),
    "greek_fire_land": gettext_lazy("Greek fire"), "christian_mercenaries": gettext_lazy("Christian mercenaries"),
    "chivalry": gettext_lazy("Chivalry"), "best_mercenaries": gettext_lazy("Best mercenaries"),
    "bulgarian_hordes": gettext_lazy("Bulgarian hordes"),
}

CARRY = "carry"  # the engine's move entry of a fleet that carries an army (R5), not an order kind


def name_key(name) -> tuple:
    """Sort key for names people read, alphabetical as a Russian reader expects (ё right after е, case ignored)."""
    text = str(name or "").casefold()
    return (text.replace("ё", "е"), text)


def by_name(items, name=lambda item: item.name) -> list:
    """Factions (or anything named) in alphabetical order of the name shown, never by id."""
    return sorted(items, key=lambda item: name_key(name(item)))


def _word(table: dict, value) -> str:
    word = table.get(value)
    return str(word) if word is not None else str(value or "")


def order_type(value: str) -> str:
    return _word(ORDER_TYPES, value)


def move_result(value: str) -> str:
    return _word(MOVE_RESULTS, value)


def outcome(value: str) -> str:
    return _word(OUTCOMES, value)


def outcome_for(value: str, role: str) -> str:
    """«вы победили» / «вы проиграли» / «ничья: ваша атака отбита» — the outcome from one side's seat."""
    try:
        return str(OUTCOMES_FOR_SIDE[(Outcome(value), Role(role))])
    except (KeyError, ValueError):
        return _word(OUTCOMES, value)


def _decision_of(entry: dict) -> str:
    """A battle's decision; results stored before the engine named it fall back to the totals' outcome."""
    return (entry or {}).get("decision") or (entry or {}).get("outcome") or ""


def decision(entry: dict) -> str:
    """What a battle (a `fought[]` entry or a battle result) decided, in the game's words."""
    return _word(DECISIONS, _decision_of(entry))


def decision_for(entry: dict, role: str) -> str:
    """What a battle decided, as the side in `role` is told it (the tablet's turn result)."""
    try:
        return str(DECISIONS_FOR_SIDE[(Decision(_decision_of(entry)), Role(role))])
    except (KeyError, ValueError):
        return decision(entry)


def retreat_reason(value: str) -> str:
    return _word(RETREAT_REASONS, value)


def fate(value: str, role: str = "", domain: str = "land") -> str:
    """A side's fate after one battle; an attacker that wins on land «побеждает» rather than holds."""
    if value == Fate.STAYS and role == Role.ATTACKER and domain != "sea":
        return _("wins the battle")
    return _word(FATES, value)


def side_role(role: str) -> str:
    return _word(ROLES, role)


def stack_side(side: str) -> str:
    return _word(STACK_SIDES, side)


def refusal_reason(code: str) -> str | None:
    word = REFUSALS.get(code)
    return str(word) if word is not None else None


def special_name(special_id: str) -> str:
    """The names of the specials (R10), so screen and paper say the same."""
    return _word(SPECIALS, special_id)


def item_source(source: str) -> str:
    """One item of a side's total (R8-R10) as the console lists it."""
    return str(ITEM_SOURCES[source]) if source in ITEM_SOURCES else special_name(source)


def vocabulary() -> dict[str, dict[str, str]]:
    """Every table as plain strings in the active language, for templates (`names.results|lookup:m.result`)."""
    def plain(table):
        return {str(k): str(v) for k, v in table.items()}

    return {"orders": plain(ORDER_TYPES), "results": plain(MOVE_RESULTS), "outcomes": plain(OUTCOMES),
            "retreat_reasons": plain(RETREAT_REASONS), "roles": plain(ROLES), "sides": plain(STACK_SIDES),
            "sources": {**plain(ITEM_SOURCES), **plain(SPECIALS)}}


def dice_count(count: int) -> str:
    """«1к6», «2к6»: how many six-sided dice a side rolls (R8)."""
    return _("%(count)sd6") % {"count": count}


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


def storm_text(storm_no: int | None) -> str:
    """«штурм № 2»: one way to number a fortress's storms, on screen and paper."""
    return _("storm no. %(n)s") % {"n": storm_no} if storm_no else _("storm")


def battle_kind(domain: str, storm: bool, storm_no: int | None) -> str:
    if domain == "sea":
        return _("naval battle")
    if storm:
        return storm_text(storm_no)
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


# --- how an order or a move reads, with the map's names ------------------------------------------
#
# `names` is the shape `larp.turns.selectors.names` gives: {"provinces": {id: name}, "factions": {...},
# "units": {id: "Никея IV"}, "numerals": {id: "IV"}}.


def _name(names: dict, kind: str, code) -> str:
    return (names.get(kind) or {}).get(code, code or "")


def _seas(order: dict) -> list[str]:
    sea = order.get("sea")
    if isinstance(sea, str):
        return [sea]
    return list(sea or [])


def move_route(move: dict) -> list[str]:
    """The places a move went through, from where it started; a unit that did not move has one place."""
    route = [move["from"]] if move.get("from") else []
    for place in [*_seas(move), *(move.get("path") or [])]:
        if not route or place != route[-1]:
            route.append(place)
    return route


def route_text(move: dict, names: dict) -> str:
    """«Серре → Адрианополь», or just «Писидия» for a unit that stayed."""
    return " → ".join(_name(names, "provinces", p) for p in move_route(move))


def carry_text(army: str, names: dict) -> str:
    """A fleet's move when it carries an army (R5): «перевозит армию II»."""
    numeral = (names.get("numerals") or {}).get(army)
    if numeral:
        return _("carries army %(n)s") % {"n": numeral}
    return _("carries %(unit)s") % {"unit": _name(names, "units", army)}


def move_order_text(move: dict, names: dict, order: dict | None = None) -> str:
    """The order a move carried out, in the same words as everywhere else (`order_text` of the filed order).

    `order` is the order as filed (its full path); without it the order is told from the move itself."""
    if move.get("order") == CARRY:
        return carry_text(move.get("army", ""), names)
    if order and (order.get("type") or OrderType.HOLD) == move.get("order"):
        return order_text(order, names)
    kind = move.get("order", "")
    told = {"type": kind, "sea": move.get("sea"), "target": move.get("target"), "fleet": move.get("fleet"),
            "target_faction": move.get("target_faction")}
    if kind in (OrderType.MARCH, OrderType.ATTACK):
        told["path"] = list(move.get("path") or [])
    return order_text({k: v for k, v in told.items() if v}, names)


def order_text(order: dict, names: dict) -> str:
    """An order as people write it: «Захват: Филиппополь», «Высадка: Южное Эгейское море → Никосия, флот I»."""
    kind = order.get("type") or order.get("order") or OrderType.HOLD
    word = order_type(kind)
    if kind == OrderType.HOLD:
        return word
    places = [*_seas(order), *(order.get("path") or [])]
    if order.get("target") and (not places or places[-1] != order["target"]):
        places.append(order["target"])
    text = word + (": " + " → ".join(_name(names, "provinces", p) for p in places) if places else "")
    if order.get("fleet"):
        numeral = (names.get("numerals") or {}).get(order["fleet"])
        text += ", " + (fleet_label(numeral) if numeral else _name(names, "units", order["fleet"]))
    if order.get("target_faction"):
        text += ", " + _("target: %(faction)s") % {"faction": _name(names, "factions", order["target_faction"])}
    return text


def arrived_from(place: str) -> str:
    """«из: Меандр»: where an arrival came from, without declining the province's name."""
    return _("from: %(place)s") % {"place": place}


def odds_text(odds: dict | None) -> str:
    """An exact chance as people say it: «7 из 36 (19 %)»; «невозможно (0 %)», «наверняка (100 %)»."""
    odds = odds or {}
    num, _sep, den = str(odds.get("fraction") or "0/1").partition("/")
    try:
        num, den = int(num), int(den or 1)
    except ValueError:
        return str(odds.get("fraction") or "")
    if num <= 0:
        return _("impossible (0 %)")
    if num >= den:
        return _("certain (100 %)")
    percent = 100 * num / den
    shown = "<1" if percent < 1 else (">99" if percent > 99 else str(round(percent)))
    return _("%(num)s in %(den)s (%(percent)s %%)") % {"num": num, "den": den, "percent": shown}
