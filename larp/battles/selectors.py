"""Reads of a turn's resolution for pages and printing."""
from __future__ import annotations

from larp.battles.models import TurnResolution
from larp.campaign.models import Faction, Game, Province
from larp.forces.models import Army, Fleet, roman


def turn_result(game: Game, number: int) -> dict | None:
    """{"turn": n, "result": <engine run_turn output>, "news": str, "applied": bool} or None."""
    resolution = TurnResolution.objects.filter(turn__game=game, turn__number=number).select_related("turn").first()
    if resolution is None or not resolution.result:
        return None
    return {"turn": number, "result": resolution.result, "news": resolution.news,
            "applied": resolution.applied_at is not None}


def names(game: Game) -> dict:
    """Display names for the engine's ids, in the active language: provinces, factions, units, sources."""
    from django.utils.translation import gettext as _

    factions = {f.code: f for f in Faction.objects.filter(game=game)}
    units = {}
    for a in Army.objects.filter(game=game).select_related("faction"):
        units[a.code] = f"{a.faction.name} {roman(a.number)}"
    for f in Fleet.objects.filter(game=game).select_related("faction"):
        units[f.code] = f"{f.faction.name}: {_('fleet')} {roman(f.number)}"
    return {
        "provinces": {p.code: p.name for p in Province.objects.filter(game=game)},
        "factions": {code: f.name for code, f in factions.items()},
        "colours": {code: f.colour for code, f in factions.items()},
        "units": units,
        "sources": item_labels(),
        "orders": {"hold": _("hold"), "march": _("march"), "attack": _("attack"), "sea_attack": _("sea attack"),
                   "landing": _("landing"), "fleet_move": _("fleet move"), "fleet_attack": _("fleet attack")},
        "results": {"moved": _("moved"), "occupied": _("occupied without battle"), "battle": _("battle"),
                    "pinned": _("pinned"), "failed": _("failed"), "held": _("held")},
        "outcomes": {"attacker_won": _("attacker won"), "defender_won": _("defender won"), "tie": _("tie")},
        "greek_fire": [code for code, f in factions.items() if "greek_fire_land" in (f.specials or [])],
    }


def item_labels() -> dict:
    """The autobattle's items (R8-R10) as a person reads them."""
    from django.utils.translation import gettext as _

    return {
        "troops": _("troops"), "commanders": _("commanders"), "defence": _("defence position"),
        "militia": _("militia"), "modifier": _("moderator's modifier"), "dice": _("dice"),
        "constantinople": _("Constantinople"), "thessalonica": _("Thessalonica"), "acrocorinth": _("Acrocorinth"),
        "meander_miracle": _("Miracle of the Maeander"), "mountain_country": _("Mountain country"),
        "victory_march": _("Victory march"), "greek_fire_land": _("Greek fire"),
        "christian_mercenaries": _("Christian mercenaries"), "chivalry": _("Chivalry"),
        "best_mercenaries": _("Best mercenaries"), "bulgarian_hordes": _("Bulgarian hordes"),
    }
