"""The words players read for the «Орда» engine's named values (pages and paper only translate them).

Kind and trait names are the original's own Russian names (orda.yaml `name_ru`),
shown as they are in every language: they are the tokens' printed names.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils.translation import gettext as _

from larp.orda.engine.data import load

# A battle of the war's table: the war's faction names for the table's side keys, while its pages, log, protocol
# and result are made (`speaking_for`). Empty for a table of a new game: its factions are the board game's own.
_NAMES: ContextVar[dict | None] = ContextVar("orda_faction_names", default=None)


def war_names(table) -> dict:
    """{side key: the war faction's name} for a battle of the war (its sides are the war's factions), else {}."""
    if not (table.setup or {}).get("war_battle"):
        return {}
    return {s.key: s.name for s in table.sides.all() if s.name and s.name != s.key}


@contextmanager
def speaking_for(table):
    """Inside it, faction and side names are the war's when the table is a battle of the war."""
    token = _NAMES.set(war_names(table) if table is not None else {})
    try:
        yield
    finally:
        _NAMES.reset(token)


def faction(f: str) -> str:
    names = _NAMES.get()
    if names and f in names:
        return names[f]
    return {"rus": _("Rus"), "china": _("China"), "south_mongolia": _("South Mongolia"),
            "north_mongolia": _("North Mongolia")}.get(f, f)


def side(s: str) -> str:
    names = _NAMES.get()
    if names:
        mine = [n for f, n in names.items() if load().faction_side.get(f) == s]
        if mine:
            return _(" and ").join(mine)
    return {"rus_china": _("Rus and China"), "mongolia": _("Mongolia")}.get(s, s)


def mode(m: str) -> str:
    return {"skirmish": _("Skirmish"), "border": _("Holding the border"), "conquest": _("Conquest")}.get(m, m)


def param(p: str) -> str:
    return {"health": _("health value"), "attack": _("attack value"), "defence": _("defence value"),
            "speed": _("speed value"), "summon": _("summon time"), "range": _("range value")}.get(p, p)


def colour(c: str) -> str:
    return {"blue": _("blue"), "red": _("red"), "green": _("green"), "yellow": _("yellow"),
            "dark_blue": _("dark-blue"), "dark_red": _("dark-red")}.get(c, c)


def line(name: str) -> str:
    return {"red": _("red"), "green": _("green")}.get(name, name)


def reason(r: str | None) -> str:
    return {"leaders_and_capitals": _("the enemy leaders are dead and their capitals burnt"),
            "border_held": _("Mongolia crossed the border and held it"),
            "tours_elapsed": _("30 tours passed and Mongolia did not cross the border"),
            "mongol_capitals_destroyed": _("the Mongol capitals are destroyed"),
            "cities_destroyed": _("the cities are destroyed"),
            "reserves_exhausted": _("the Mongol reserves are exhausted"),
            "moderator": _("the moderator's ruling")}.get(r or "", r or "")


def counter(c: str) -> str:
    return {"defence": _("Defence"), "retreat": _("Retreat")}.get(c, c)


def where(w: str) -> str:
    return {"board": _("on the board"), "reserve": _("in reserve"), "indicator": _("on the summon indicator"),
            "dead": _("dead")}.get(w, w)


def source(s: str) -> str:
    """An item of an effective value (O19)."""
    words = {"printed": _("printed"), "garrison": _("garrison"), "minority": _("minority rule"),
             "event": _("event"), "moderator": _("by the moderator")}
    if s in words:
        return words[s]
    t = load().traits.get(s)
    return t["name_ru"] if t else s


def kind_name(f: str, kind: str) -> str:
    k = load().kinds.get(f, {}).get(kind)
    return k.name_ru if k else kind


def trait_name(t: str) -> str:
    tr = load().traits.get(t)
    return tr["name_ru"] if tr else t


def trait_text(t: str) -> str:
    tr = load().traits.get(t)
    return tr.get("text_ru", "") if tr else ""


def cls(c: str) -> str:
    v = load().raw["classes"].get(c)
    return v["name_ru"] if v else c


def refusal(code: str) -> str:
    return {
        "not_active_faction": _("It is not this faction's turn (O12)."),
        "units_per_turn": _("Three units have already acted this turn (O12)."),
        "activation_order": _("This unit cannot do that now: its activation does not allow it (O12)."),
        "not_on_board": _("The unit is not on the board."),
        "not_enemy": _("Only enemy units can be attacked (O15)."),
        "out_of_reach": _("The target is out of reach (O15)."),
        "bad_line": _("The two targets are not on one line (O21)."),
        "camouflaged": _("A camouflaged scout cannot be attacked (O21)."),
        "no_aimed_shot": _("This unit has no aimed shot (O21)."),
        "retreat_not_allowed": _("Retreat is not allowed against this attack (O16)."),
        "retreat_hex_not_free": _("The retreat hex is not free (O16)."),
        "push_hex_invalid": _("The unit cannot be pushed there (O21)."),
        "not_adjacent_step": _("Each step must go to an adjacent hex (O13)."),
        "too_long": _("The path is longer than the unit's speed (O13)."),
        "revisit": _("A path never visits a hex twice (O13)."),
        "off_board": _("The path leaves the board (O13)."),
        "enemy_in_path": _("An enemy unit stands in the path (O13)."),
        "end_not_free": _("The last hex is not free (O13)."),
        "enemy_city": _("Units never enter an enemy city or capital (O20)."),
        "not_action_trait": _("This trait is not an action (O21)."),
        "trait_blocked": _("The unit's trait is blocked this turn (O21)."),
        "target_invalid": _("That target is not allowed for this trait (O21)."),
        "hex_not_empty": _("The hex is not empty (O21)."),
        "summon_hex_invalid": _("A unit cannot be summoned onto that hex (O11)."),
        "summon_next_invalid": _("That unit cannot go on the summon indicator (O11)."),
        "game_over": _("The battle is over (O22)."),
    }.get(code, _("The rules do not allow this."))


_RULE_CODES = re.compile(r"\s*\((?:O\d+(?:\.\d+)*)(?:(?:,\s*|\s*[–-]\s*)O\d+(?:\.\d+)*)*\)")


def without_rule_codes(text: str) -> str:
    """The players' text: «Расстановка верна (O4, O5, O8).» → «Расстановка верна.» (rule numbers stay on the
    moderator's screens and paper only)."""
    return _RULE_CODES.sub("", text)
