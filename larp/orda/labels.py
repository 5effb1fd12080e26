"""The words players read for the «Орда» engine's named values (pages and paper only translate them).

Kind and trait names are the original's own Russian names (orda.yaml `name_ru`),
shown as they are in every language: they are the tokens' printed names.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from larp.orda.engine.data import load

# A battle of the war's table: the war's faction names for the table's side keys, while its pages, log, protocol
# and result are made (`speaking_for`). Empty for a table of a new game: its factions are the board game's own.
_NAMES: ContextVar[dict | None] = ContextVar("orda_faction_names", default=None)


def _say(words: dict, key, default: str) -> str:
    """The word for a named value, translated alone: a page asks for some 150, and translating the whole table at
    each call cost 5-8 us a word instead of 1.3-2.3."""
    msgid = words.get(key)
    return _(msgid) if msgid is not None else default


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


_FACTION = {
    "rus": gettext_noop("Rus"),
    "china": gettext_noop("China"),
    "south_mongolia": gettext_noop("South Mongolia"),
    "north_mongolia": gettext_noop("North Mongolia"),
}


def faction(f: str) -> str:
    names = _NAMES.get()
    if names and f in names:
        return names[f]
    return _say(_FACTION, f, f)


_SIDE = {
    "rus_china": gettext_noop("Rus and China"),
    "mongolia": gettext_noop("Mongolia"),
}


def side(s: str) -> str:
    names = _NAMES.get()
    if names:
        mine = [n for f, n in names.items() if load().faction_side.get(f) == s]
        if mine:
            return _(" and ").join(mine)
    return _say(_SIDE, s, s)


_MODE = {
    "skirmish": gettext_noop("Skirmish"),
    "border": gettext_noop("Holding the border"),
    "conquest": gettext_noop("Conquest"),
}


def mode(m: str) -> str:
    return _say(_MODE, m, m)


_PARAM = {
    "health": gettext_noop("health value"),
    "attack": gettext_noop("attack value"),
    "defence": gettext_noop("defence value"),
    "speed": gettext_noop("speed value"),
    "summon": gettext_noop("summon time"),
    "range": gettext_noop("range value"),
}


def param(p: str) -> str:
    return _say(_PARAM, p, p)


_COLOUR = {
    "blue": gettext_noop("blue"),
    "red": gettext_noop("red"),
    "green": gettext_noop("green"),
    "yellow": gettext_noop("yellow"),
    "dark_blue": gettext_noop("dark-blue"),
    "dark_red": gettext_noop("dark-red"),
}


def colour(c: str) -> str:
    return _say(_COLOUR, c, c)


_LINE = {
    "red": gettext_noop("red"),
    "green": gettext_noop("green"),
}


def line(name: str) -> str:
    return _say(_LINE, name, name)


_REASON = {
    "leaders_and_capitals": gettext_noop("the enemy leaders are dead and their capitals burnt"),
    "border_held": gettext_noop("Mongolia crossed the border and held it"),
    "tours_elapsed": gettext_noop("30 tours passed and Mongolia did not cross the border"),
    "mongol_capitals_destroyed": gettext_noop("the Mongol capitals are destroyed"),
    "cities_destroyed": gettext_noop("the cities are destroyed"),
    "reserves_exhausted": gettext_noop("the Mongol reserves are exhausted"),
    "moderator": gettext_noop("the moderator's ruling"),
}


def reason(r: str | None) -> str:
    return _say(_REASON, r or "", r or "")


_COUNTER = {
    "defence": gettext_noop("Defence"),
    "retreat": gettext_noop("Retreat"),
}


def counter(c: str) -> str:
    return _say(_COUNTER, c, c)


_WHERE = {
    "board": gettext_noop("on the board"),
    "reserve": gettext_noop("in reserve"),
    "indicator": gettext_noop("on the summon indicator"),
    "dead": gettext_noop("dead"),
}


def where(w: str) -> str:
    return _say(_WHERE, w, w)


_SOURCE = {
    "printed": gettext_noop("printed"),
    "garrison": gettext_noop("garrison"),
    "minority": gettext_noop("minority rule"),
    "event": gettext_noop("event"),
    "moderator": gettext_noop("by the moderator"),
}


def source(s: str) -> str:
    """An item of an effective value (O19)."""
    if s in _SOURCE:
        return _(_SOURCE[s])
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


_REFUSAL = {
    "not_active_faction": gettext_noop("It is not this faction's turn (O12)."),
    "units_per_turn": gettext_noop("Three units have already acted this turn (O12)."),
    "activation_order": gettext_noop("This unit cannot do that now: its activation does not allow it (O12)."),
    "not_on_board": gettext_noop("The unit is not on the board."),
    "not_enemy": gettext_noop("Only enemy units can be attacked (O15)."),
    "out_of_reach": gettext_noop("The target is out of reach (O15)."),
    "bad_line": gettext_noop("The two targets are not on one line (O21)."),
    "camouflaged": gettext_noop("A camouflaged scout cannot be attacked (O21)."),
    "no_aimed_shot": gettext_noop("This unit has no aimed shot (O21)."),
    "retreat_not_allowed": gettext_noop("Retreat is not allowed against this attack (O16)."),
    "retreat_hex_not_free": gettext_noop("The retreat hex is not free (O16)."),
    "push_hex_invalid": gettext_noop("The unit cannot be pushed there (O21)."),
    "not_adjacent_step": gettext_noop("Each step must go to an adjacent hex (O13)."),
    "too_long": gettext_noop("The path is longer than the unit's speed (O13)."),
    "revisit": gettext_noop("A path never visits a hex twice (O13)."),
    "off_board": gettext_noop("The path leaves the board (O13)."),
    "enemy_in_path": gettext_noop("An enemy unit stands in the path (O13)."),
    "end_not_free": gettext_noop("The last hex is not free (O13)."),
    "enemy_city": gettext_noop("Units never enter an enemy city or capital (O20)."),
    "not_action_trait": gettext_noop("This trait is not an action (O21)."),
    "trait_blocked": gettext_noop("The unit's trait is blocked this turn (O21)."),
    "target_invalid": gettext_noop("That target is not allowed for this trait (O21)."),
    "hex_not_empty": gettext_noop("The hex is not empty (O21)."),
    "summon_hex_invalid": gettext_noop("A unit cannot be summoned onto that hex (O11)."),
    "summon_next_invalid": gettext_noop("That unit cannot go on the summon indicator (O11)."),
    "game_over": gettext_noop("The battle is over (O22)."),
}


def refusal(code: str) -> str:
    return _say(_REFUSAL, code, _("The rules do not allow this."))


_RULE_CODES = re.compile(r"\s*\((?:O\d+(?:\.\d+)*)(?:(?:,\s*|\s*[–-]\s*)O\d+(?:\.\d+)*)*\)")


def without_rule_codes(text: str) -> str:
    """The players' text: «Расстановка верна (O4, O5, O8).» → «Расстановка верна.» (rule numbers stay on the
    moderator's screens and paper only)."""
    return _RULE_CODES.sub("", text)
