"""Words for the engine's ids on pages and paper: the rules' own Russian terms, English through gettext.

Nothing here shows an engine id: each id has its name (the YAML's `ru` at a
Russian request, a translated English word otherwise).
"""
from __future__ import annotations

import re

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from larp import ru
from larp.tactical.situation import RULES

SECTIONS = ("categories", "weapons", "protection", "formations", "special_formations", "terrain_elements",
            "weather_effects")

# English words for the ids (the Russian is the rules data's own `ru`).
ENGLISH = {
    "swordsmen": "swordsmen", "line_infantry": "line infantry", "shooters": "shooters", "riders": "riders",
    "lancers": "lancers", "mounted_shooters": "mounted shooters",
    "infantry_pike": "infantry pike", "infantry_spear": "infantry spear", "halberd": "halberd",
    "two_handed": "two-handed weapon", "cavalry_pike": "cavalry pike", "cavalry_lance": "cavalry lance",
    "bow": "bow", "crossbow": "crossbow", "sling": "sling", "handgun": "handgun", "javelin": "javelin",
    "light_armour": "light armour", "heavy_armour": "heavy armour", "shield": "shield",
    "large_shield": "large shield", "horse_light_armour": "light horse armour",
    "horse_heavy_armour": "heavy horse armour", "very_dense": "very dense", "dense": "dense", "open": "open",
    "loose": "loose", "circle": "circle", "testudo": "testudo",
}


def name(section: str, key: str | None) -> str:
    """The rules' name of an id (a weapon, a formation...), in the page's language."""
    if key is None:
        return ""
    item = RULES.get(section, {}).get(key)
    ru = item.get("ru") if item is not None and hasattr(item, "get") else None
    if (get_language() or "ru").startswith("ru") and ru:
        return ru[:1].upper() + ru[1:] if section in ("categories", "weapons", "protection") else ru
    return ENGLISH.get(key, key.replace("_", " "))


def terrain_label(piece, sides: dict) -> str:
    """A terrain piece on the table, or the side in fortifications («Укрепления: Рум (выгодная позиция, T16.2)»)."""
    if isinstance(piece, dict):
        return _("%(piece)s: %(side)s (advantageous position, T16.2)") % {
            "piece": card_name(piece.get("piece") or ""), "side": sides.get(piece.get("side"), "")}
    return name("terrain_elements", piece)


def weapon(key: str | None) -> str:
    return name("weapons", key) if key else _("sword")


def stat_string(profile: dict) -> str:
    """The original's stat string: specialty-melee-steadiness, or melee-steadiness for swordsmen and riders."""
    order = RULES["categories"][profile["category"]]["stat_order"]
    return "-".join(str(profile.get(k)) for k in order)


DICE_LISTS = {"strike": gettext_lazy("strike dice"), "rain": gettext_lazy("the rain die"),
              "test": gettext_lazy("the steadiness test die"), "disorder": gettext_lazy("disorder test dice"),
              "death": gettext_lazy("the general's death die"), "": gettext_lazy("dice")}


def dice_list_label(kind: str) -> str:
    return str(DICE_LISTS.get(kind, DICE_LISTS[""]))


RESULTS = {"holds": gettext_lazy("holds"), "flees": gettext_lazy("flees"), "destroyed": gettext_lazy("destroyed"),
           "stops": gettext_lazy("stops"), "exempt": gettext_lazy("exempt"),
           "stays": gettext_lazy("stays in place"), "impetuous": gettext_lazy("becomes impetuous and charges"),
           "shoots": gettext_lazy("must shoot"), "retreats": gettext_lazy("falls back half a move"),
           "continues": gettext_lazy("moves on"), "no_test": gettext_lazy("no test needed"),
           "passed": gettext_lazy("stays loyal"), "treason": gettext_lazy("betrays")}

TEST_KINDS = {"unit": gettext_lazy("Steadiness test"), "rally": gettext_lazy("Rallying fleeing troops"),
              "disorderly": gettext_lazy("Disorderly movement (a unit not moved)"),
              "disorder": gettext_lazy("Disorder test"), "recover": gettext_lazy("Recovery from disorder"),
              "loyalty": gettext_lazy("Loyalty of a mercenary general"),
              "general_death": gettext_lazy("General's death test"), "initiative": gettext_lazy("Initiative")}

DISORDER_CAUSES = {"terrain": gettext_lazy("crossing terrain"), "heavy_mud": gettext_lazy("heavy mud"),
                   "trot": gettext_lazy("trot"), "gallop": gettext_lazy("gallop"),
                   "reform": gettext_lazy("reform"), "rank_swap": gettext_lazy("ranks swapped"),
                   "remount": gettext_lazy("mounting"), "dismount": gettext_lazy("dismounting"),
                   "skirmishers_pushed": gettext_lazy("skirmishers pushed through"),
                   "handgun": gettext_lazy("handguns fired"), "retreat": gettext_lazy("after falling back")}

STAGES = {"first": gettext_lazy("first move"), "trot": gettext_lazy("then at the trot"),
          "gallop": gettext_lazy("then at the gallop")}

LOYALTY = {"loyal": gettext_lazy("loyal"), "withdrawn": gettext_lazy("withdrawn from the battle"),
           "defected": gettext_lazy("gone over to the enemy")}

ACTIONS = {"clash": gettext_lazy("Clash"), "melee": gettext_lazy("Melee"), "volley": gettext_lazy("Volley"),
           "exchange": gettext_lazy("Exchange of fire"), "test": gettext_lazy("Test"),
           "shooting": gettext_lazy("Shooting")}

END_REASONS = {"rout": gettext_lazy("the enemy's army fled or was destroyed"),
               "concession": gettext_lazy("the other side conceded"),
               "time": gettext_lazy("time ran out; the moderator decided")}

DIRECTIONS = {"front": gettext_lazy("front"), "flank": gettext_lazy("flank"), "rear": gettext_lazy("rear")}

ITEMS = {"steadiness": gettext_lazy("steadiness"), "circle": gettext_lazy("circle (5)"),
         "ranks": gettext_lazy("full ranks"), "killed": gettext_lazy("killed"), "general": gettext_lazy("general"),
         "broken": gettext_lazy("broken"), "modifier": gettext_lazy("modifier")}

# Every refusal the engine can give, by rule, in the players' own words.
RULES_TEXT = {
    "T5.3": gettext_lazy("this troop type does not carry that weapon"),
    "T6.1": gettext_lazy("javelins are for swordsmen and riders only"),
    "T6.3": gettext_lazy("no warrior of this unit can strike or shoot that way"),
    "T7.1": gettext_lazy("this protection is not allowed: horse armour only for riders, and a foot warrior "
                         "does not combine a large shield with heavy armour"),
    "T8.1": gettext_lazy("the army costs more points than the agreed limit"),
    "T8.5": gettext_lazy("the army list does not offer this weapon, equipment or grade for this troop type"),
    "T8.6": gettext_lazy("melee other than 2 needs an army list entry that fixes it with its price"),
    "T8.7": gettext_lazy("the unit is not built by the rules: all foot or all mounted, enough figures for one "
                         "rank, at most three ranks per base, skirmishers on one round base"),
    "T10.4": gettext_lazy("a circle cannot be attacked in flank or rear and does not counter-attack infantry"),
    "T12.1": gettext_lazy("too many generals for the number of troops"),
    "T12.2": gettext_lazy("too many mercenary generals for the number of troops"),
    "T12.3": gettext_lazy("exactly one commander-in-chief, and he is not a mercenary"),
    "T12.4": gettext_lazy("an ordinary general has the qualities of the main troop type"),
    "T12.6": gettext_lazy("bought talents: from -1 to +2 each, 3 points in all"),
    "T17.1": gettext_lazy("a fleeing unit cannot attack or fight"),
    "T18.5": gettext_lazy("this unit may not counter-attack"),
    "T20.4": gettext_lazy("the target is out of range"),
    "T20.6": gettext_lazy("only bows may shoot defensive fire"),
    "T20.8": gettext_lazy("a unit in melee cannot be shot at"),
    "T21.4": gettext_lazy("a unit in melee is out of its player's control"),
    "T21.8": gettext_lazy("a unit in melee cannot be attacked in flank or rear, only joined in the melee"),
    "T23.1": gettext_lazy("a unit attacked in flank or rear does not strike back"),
    "T25.1": gettext_lazy("only a unit within its general's command can be rallied"),
    "T31.4": gettext_lazy("a tired corps cannot march"),
    "T31.6": gettext_lazy("the card cannot be entered: a river or mountains without a path, or water in a flood"),
    "T31.7": gettext_lazy("a march goes card by card to a neighbouring card, from the edge onto an edge card, "
                          "and never onto an enemy corps"),
    "T32.1": gettext_lazy("battle can be offered only when corps of both sides are in contact"),
    "T33": gettext_lazy("Heavy mud and River flood are played only after Rain; a Path lies on Mountains or a "
                        "river"),
}


def rule_text(rule: str) -> str:
    return str(RULES_TEXT.get(rule, _("the rules forbid it")))


def refusal_text(state: dict, refusal: dict, codes: bool = True) -> str:
    """One refusal in words: what, where, by which rule."""
    where = refusal.get("where") or refusal.get("corps") or ""
    who = where_label(state, where)
    text = rule_text(refusal.get("rule", ""))
    if refusal.get("rule") == "T20.4" and refusal.get("range_cm") is not None:
        text += " " + _("(range %(cm)s cm)") % {"cm": refusal["range_cm"]}
    if codes:
        text = f"{text} ({refusal.get('rule', '')})"
    return f"{who}: {text}" if who else text


def where_label(state: dict, where: str) -> str:
    if not where:
        return ""
    if where == "points":
        return _("Points")
    if where.startswith("generals"):
        return _("Generals")
    return unit_label(state, where)


def unit_label(state: dict, uid: str) -> str:
    for u in state.get("units", []):
        if u["id"] == uid:
            return f"«{u.get('name') or _('unit')}»"
    for c in (state.get("strategic") or {}).get("corps", []):
        if c["id"] == uid:
            return f"«{c.get('name') or _('corps')}»"
    for side, doc in (state.get("armies") or {}).items():
        for u in doc["units"]:
            if u["id"] == uid or f"{side}.{u['id']}" == uid:
                return f"«{u.get('name') or _('unit')}»"
        for g in doc["generals"]:
            if g["id"] == uid:
                return f"«{g.get('name') or _('general')}»"
    return _("a unit")


def unit_t87(reason: str) -> str | None:
    """The one condition of T8.7 that failed, from the engine's reason, in the players' words (None: unknown)."""
    m = re.match(r"a skirmisher unit is one round base of (\d+)-(\d+) figures", reason)
    if m:
        return ru.say(_("a unit of skirmishers stands on one round base of %(a)s–%(b)s figures") % {"a": m[1],
                                                                                                      "b": m[2]})
    m = re.match(r"(\d+) figures do not fill one rank of (\d+) in (\w+) formation", reason)
    if m:
        return _("%(n)s figures do not fill one rank of %(w)s in the formation «%(f)s»: add figures or choose a "
                 "looser formation") % {"n": m[1], "w": m[2], "f": name("formations", m[3])}
    m = re.match(r"(\d+) figures need more than (\d+) ranks of (\d+)", reason)
    if m:
        return _("%(n)s figures need more than %(r)s ranks of %(w)s (at most three ranks to a base): add a base or "
                 "take fewer figures") % {"n": m[1], "r": m[2], "w": m[3]}
    m = re.match(r"before (\d+) handgunners", reason)
    if m:
        return _("before %(y)s handgunners make a unit of their own") % {"y": m[1]}
    if reason.startswith("every figure of a unit is foot"):
        return _("every figure of a unit is on foot or every one mounted")
    return None


def army_refusal_text(doc: dict, refusal: dict, codes: bool = False) -> str:
    """One refusal of the builder in words, naming the unit (and which one of units of the same name) and the one
    condition that failed; the rule's number only on the moderator's screens (`codes`)."""
    where = refusal.get("where") or ""
    who = ""
    if where == "points":
        who = str(_("Points"))
    elif where.startswith("generals."):
        who = str(_("Generals"))
    else:
        for i, u in enumerate(doc["units"]):
            if u["id"] == where:
                who = f"«{u.get('name')}»"
                same = [x for x in doc["units"] if x.get("name") == u.get("name")]
                if len(same) > 1:
                    who += " " + _("(no. %(n)s of %(all)s of that name, row %(row)s)") % {
                        "n": same.index(u) + 1, "all": len(same), "row": i + 1}
        for g in doc["generals"]:
            if g["id"] == where:
                who = f"«{g.get('name')}»"
    text = (unit_t87(refusal.get("reason") or "") if refusal.get("rule") == "T8.7" else None) \
        or rule_text(refusal.get("rule", ""))
    if codes:
        text = f"{text} ({refusal.get('rule', '')})"
    return f"{who}: {text}" if who else text


COLUMNS = "ABCDE"


def cell_name(cell) -> str:
    """A card place of the 5x5 map as the players say it: a letter A-E (column) and a number 1-5 (row)."""
    return f"{COLUMNS[cell[1]]}{cell[0] + 1}" if cell is not None else ""


def card_name(card_id: str) -> str:
    """An operational card's name (T33): the rules' Russian at a Russian request."""
    card = next((c for c in RULES["cards"] if c["id"] == card_id), None)
    if card and (get_language() or "ru").startswith("ru"):
        return card["ru"]
    return card_id.replace("_", " ").capitalize()


def corps_name(state: dict, cid: str) -> str:
    corps = next((c for c in (state.get("strategic") or {}).get("corps", []) if c["id"] == cid), None)
    return (corps or {}).get("name") or _("corps")


def march_summary(state: dict, outcome: dict) -> str:
    """A march step's sentence (T31.3): the corps, the cost, the roll and whether it arrived or is tired."""
    res = outcome["marches"][0]
    return (_("March of %(name)s: cost %(cost)s, roll %(roll)s — arrived") if res["arrived"] else
            _("March of %(name)s: cost %(cost)s, roll %(roll)s — tired")) % {
        "name": corps_name(state, res["corps"]), "cost": res["cost"], "roll": res["roll"]}


def path_words(steps: list[dict]) -> str:
    """A march's path as the players say it: «A5 → A4~ → A3» (~: the card's feature is gone round)."""
    return " → ".join(cell_name(s["cell"]) + ("" if s.get("crossing", True) else "~") for s in steps)


def side_name(table, key: str) -> str:
    side = next((s for s in table.sides.all() if s.key == key), None)
    return side.name if side else key


TURN_STEPS = [gettext_lazy("Tests of mercenary generals"), gettext_lazy("Shooting"),
              gettext_lazy("Movement and clashes"), gettext_lazy("Disorderly movement and fleeing units"),
              gettext_lazy("Melee")]

# The operational cards' effects (T33), in the players' words.
CARD_EFFECTS = {
    "rain": gettext_lazy("Strategic: +1 MP for every card entered. Battle: before each volley of bows, crossbows "
                         "and handguns, odd or even — the strings may get wet."),
    "strong_wind": gettext_lazy("Strategic: removes Heavy mud. Battle: bows of the player who played it +1, the "
                                "opponent's −1."),
    "weak_wind": gettext_lazy("Battle only: bows facing the wind −1."),
    "wet_ground": gettext_lazy("Battle only: cavalry trots and gallops worse. May be played without Rain."),
    "heavy_mud": gettext_lazy("Strategic: +2 MP. Only after Rain; removed by Strong wind and Sun."),
    "sun": gettext_lazy("Removes Rain, Wet ground, Heavy mud. Battle: the opponent's melee and shooting −1."),
    "unhealthy_ground": gettext_lazy("One enemy corps becomes tired in the morning, before movement."),
    "fog": gettext_lazy("Battle: line of sight 10 cm."),
    "good_guides": gettext_lazy("−1 MP on one kind of terrain for all own corps during this move."),
    "traitor": gettext_lazy("An enemy corps marches where the card's player says; the march may not cost more."),
    "stealth_march": gettext_lazy("A march may pass through an enemy corps."),
    "ambush": gettext_lazy("On the enemy's move one own corps moves to an adjacent card without a roll, if it "
                           "ends next to an enemy corps."),
    "false_rumours": gettext_lazy("When battle is offered, move one or more offered corps to adjacent cards."),
    "fortifications": gettext_lazy("Fortifications may be used in the field battle."),
    "river_flood": gettext_lazy("Only after Rain: every water card is impassable; troops on one move to an "
                                "adjacent card and become tired."),
    "road": gettext_lazy("One corps, this march: every card costs 1 MP, except impassable ones."),
    "river": gettext_lazy("Impassable without a Path; runs straight through every card along its flow."),
    "mountains": gettext_lazy("Impassable without a Path."),
    "path": gettext_lazy("Cross Mountains or a River for 2 MP; once laid it stays."),
    "excellent_rest": gettext_lazy("Removes fatigue."),
    "reconnaissance": gettext_lazy("On your own move: the enemy marks all his march targets before you act, "
                                   "without moving."),
    "initiative_commander": gettext_lazy("A second march by any fresh corps."),
    "weather_continues": gettext_lazy("The weather in play stays to the end of the game unless beaten by another "
                                      "weather card."),
    "weather_change": gettext_lazy("Change the weather in the middle of the day, on either player's move."),
}
CARD_KINDS = {"terrain": gettext_lazy("Terrain"), "weather": gettext_lazy("Weather"),
              "surprise": gettext_lazy("Surprise")}
