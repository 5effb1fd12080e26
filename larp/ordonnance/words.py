"""The words pages and paper use for the engine's named values (docs/ordonnance.md C2, C9, C10, C8).

The engine answers with ids (`flag`, `regiments`, `territory_full`); these are translated
here and only here, so no id ever reaches a page or a sheet.
"""
from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

SYMBOLS = ("spear", "bow", "swords", "helmet", "flag")   # C2, weakest first

SYMBOL_NAMES = {"spear": gettext_lazy("Spear"), "bow": gettext_lazy("Bow"), "swords": gettext_lazy("Swords"),
                "helmet": gettext_lazy("Helmet"), "flag": gettext_lazy("Flag")}
SYMBOL_PLURALS = {"spear": gettext_lazy("spears"), "bow": gettext_lazy("bows"), "swords": gettext_lazy("swords"),
                  "helmet": gettext_lazy("helmets"), "flag": gettext_lazy("flags")}
# One glyph per symbol for the strips (large, readable at arm's length); the name goes beside it as a title.
SYMBOL_GLYPHS = {"spear": "↑", "bow": "➶", "swords": "⚔", "helmet": "⛑", "flag": "⚑"}
# Russian names typed in a YAML file are accepted as well as the ids.
SYMBOL_ALIASES = {"копье": "spear", "копьё": "spear", "копья": "spear", "лук": "bow", "луки": "bow",
                  "мечи": "swords", "меч": "swords", "шлем": "helmet", "шлемы": "helmet",
                  "флаг": "flag", "флаги": "flag"}

NUMERALS = ("I", "II", "III", "IV", "V")


def numeral(marker: int | None) -> str:
    return NUMERALS[marker - 1] if marker and 1 <= marker <= len(NUMERALS) else ""


def kinds(symbols: list[str]) -> str:
    """«мечи и флаги»: the kinds in the plural, as the source groups them."""
    names = [str(SYMBOL_PLURALS[s]) for s in symbols]
    if len(names) <= 1:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def _grade(level: str, n: int, what: str) -> str:
    one = {"regiments": _("Regiment (%(kinds)s)"), "battalions": _("Battalion (%(kinds)s)"),
           "companies": _("Company (%(kinds)s)")}
    few = {"regiments": _("%(n)s regiments (%(kinds)s)"), "battalions": _("%(n)s battalions (%(kinds)s)"),
           "companies": _("%(n)s companies (%(kinds)s)")}
    many = {"regiments": _("five regiments (%(kinds)s)"), "battalions": _("five battalions (%(kinds)s)"),
            "companies": _("five companies (%(kinds)s)")}
    table = one if n == 1 else few if n < 5 else many
    return table[level] % {"n": n, "kinds": what}


def combinations(army: dict) -> list[str]:
    """«Полк (флаги)», «2 роты (мечи и луки)»: an army's combinations, senior first (C9)."""
    out = []
    for level in ("regiments", "battalions", "companies"):
        found = army.get(level) or []
        if found:   # the source's order: «2 роты (мечи и флаги)», junior kind first
            out.append(_grade(level, len(found), kinds(sorted(found, key=SYMBOLS.index))))
    return out


def singles(army: dict) -> str:
    found = army.get("singles") or []
    return ", ".join(str(SYMBOL_NAMES[s]).lower() for s in found)


LEVEL_NAMES = {"regiments": gettext_lazy("regiments"), "battalions": gettext_lazy("battalions"),
               "companies": gettext_lazy("companies")}


def why(versus: dict, winner_army: dict, other_army: dict, other_name: str) -> str:
    """Why the winner beats one other army (C10 step), in words: «полков больше: 2 против 1»."""
    level, aspect = versus.get("level"), versus.get("aspect")
    against = other_army if other_army.get("complete") else (other_army.get("best_completion") or {})
    prefix = "" if other_army.get("complete") else _("even at best %(name)s cannot catch up: ") % {"name": other_name}
    if level == "cannot_complete":
        return _("%(name)s can no longer complete an army") % {"name": other_name}
    if level in ("regiments", "battalions", "companies"):
        mine, theirs = winner_army.get(level) or [], against.get(level) or []
        if aspect == "count":
            text = {"regiments": _("more regiments: %(a)s against %(b)s"),
                    "battalions": _("more battalions: %(a)s against %(b)s"),
                    "companies": _("more companies: %(a)s against %(b)s")}[level] % {"a": len(mine), "b": len(theirs)}
        else:
            text = {"regiments": _("a senior regiment: %(a)s, the other has %(b)s"),
                    "battalions": _("a senior battalion: %(a)s, the other has %(b)s"),
                    "companies": _("a senior company: %(a)s, the other has %(b)s")}[level] % {
                "a": kinds(mine), "b": kinds(theirs)}
        return prefix + text
    if level == "singles":
        return prefix + _("combinations equal, the senior single symbol decides")
    if level == "first_complete":
        return prefix + _("the armies are identical; the one completed first wins")
    return prefix


REFUSALS = {"territory_full": gettext_lazy("That territory already holds four of this player's cards (C8)."),
            "game_over": gettext_lazy("The game is over: the fifth victory marker is down (C13)."),
            "not_your_turn": gettext_lazy("It is not this player's turn (C7)."),
            "card_not_in_hand": gettext_lazy("That card is not in this player's hand (C7).")}


_RULE_CODE = re.compile(r"\s*\((?:[CС]\d+(?:\.\d+)?(?:,\s*)?)+\)")


def plain(text: str) -> str:
    """The text without its rule numbers («(C8)»): they stay on the moderator's screens and paper only."""
    return _RULE_CODE.sub("", str(text))


def refusal(code: str) -> str:
    return str(REFUSALS.get(code, gettext_lazy("This play is not allowed.")))
