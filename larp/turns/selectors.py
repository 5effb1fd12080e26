"""Reads of the turn cycle for pages and other apps; writes are in turns.services."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext as _

from larp.campaign import labels
from larp.campaign.models import Faction, Game, Province
from larp.engine.rules import DEFAULT_TROOP_TYPES
from larp.forces.models import Army, Fleet, TroopType, roman
from larp.turns.models import Phase, TurnSettings
from larp.turns.situation import parse_unit_code

DEFAULT_PHASE_SECONDS = {Phase.STRATEGY: 300, Phase.MOVEMENT: 600, Phase.TACTICS: 600, Phase.REGROUP: 600}


def phase_seconds(game: Game, kind: str) -> int:
    """How long a phase of this kind lasts in this game (the scenario's rules may tune it)."""
    return int((game.rules or {}).get("phase_seconds", {}).get(kind, DEFAULT_PHASE_SECONDS[kind]))


def grace() -> timedelta:
    """How long after the Strategy deadline an order that reached the server still counts (R3 with the
    hall's Wi-Fi: settings.ORDER_GRACE_SECONDS). The phase closes at deadline + grace."""
    return timedelta(seconds=max(0.0, float(getattr(settings, "ORDER_GRACE_SECONDS", 0) or 0)))


def settle() -> timedelta:
    """How long after deadline + grace the Strategy phase waits before it closes: presses that reached the
    server in time are still being handled on a busy server (settings.ORDER_SETTLE_SECONDS). Presses that
    arrive in this window are refused; only the close (implicit holds, orders revealed) waits."""
    return timedelta(seconds=max(0.0, float(getattr(settings, "ORDER_SETTLE_SECONDS", 0) or 0)))


def closing_delay() -> timedelta:
    """From the deadline players see to the Strategy phase's close: the grace, then the settle."""
    return grace() + settle()


def current_phase(game: Game) -> Phase | None:
    """The phase running (or paused) now, with its turn; None before the game starts."""
    ts = TurnSettings.objects.filter(game=game).select_related("current_phase__turn").first()
    return ts.current_phase if ts else None


# --- the names people read for the engine's ids ------------------------------------------------------------


class Names(Mapping):
    """Display names for the engine's ids, in the active language: the one lookup behind every page, tablet
    message and sheet. Tables: `provinces`, `factions`, `colours`, `greek_fire` (factions with Greek fire on
    land), `units` («Никея IV»), `numerals` («IV»), `troop_types` ({code: {"name", "power", "men"}}, what
    paper prints of a card), and the game's words for the engine's named values
    (`larp.campaign.labels.vocabulary`), for templates: `names.results|lookup:m.result`. Paper reads them
    through `faction`, `colour`, `province` and `troop`, which say what a missing id prints as.

    Each table is read on first use, so the order-filing path pays only for the names it shows. `only`
    limits provinces and factions to those ids (an engine refusal names two or three).
    """

    VOCABULARY = ("orders", "results", "outcomes", "retreat_reasons", "roles", "sides", "sources")
    KEYS = ("provinces", "factions", "colours", "greek_fire", "units", "numerals", "troop_types", *VOCABULARY)

    def __init__(self, game: Game | int, only: Iterable[str] | None = None):
        self.game_id = game if isinstance(game, int) else game.pk
        self.only = None if only is None else {code for code in only if isinstance(code, str)}
        self._tables: dict = {}

    def _limit(self, queryset):
        return queryset if self.only is None else queryset.filter(code__in=self.only)

    def _load(self, key: str) -> None:
        if key == "provinces":
            self._tables["provinces"] = {p.code: p.name for p in self._limit(Province.objects.filter(
                game_id=self.game_id))}
        elif key in ("factions", "colours", "greek_fire"):
            factions = list(self._limit(Faction.objects.filter(game_id=self.game_id)))
            self._tables.update({
                "factions": {f.code: f.name for f in factions}, "colours": {f.code: f.colour for f in factions},
                "greek_fire": [f.code for f in factions if "greek_fire_land" in (f.specials or [])]})
        elif key in ("units", "numerals"):
            units, numerals = {}, {}
            for a in Army.objects.filter(game_id=self.game_id).select_related("faction"):
                units[a.code] = f"{a.faction.name} {roman(a.number)}"
                numerals[a.code] = roman(a.number)
            for f in Fleet.objects.filter(game_id=self.game_id).select_related("faction"):
                units[f.code] = f"{f.faction.name}: {labels.fleet_label(roman(f.number))}"
                numerals[f.code] = roman(f.number)
            self._tables.update({"units": units, "numerals": numerals})
        elif key == "troop_types":
            self._tables["troop_types"] = {t.code: {"name": t.name, "power": t.power, "men": t.men}
                                           for t in TroopType.objects.filter(game_id=self.game_id)}
        else:
            self._tables.update(labels.vocabulary())

    def __getitem__(self, key: str):
        if key not in self.KEYS:
            raise KeyError(key)
        if key not in self._tables:
            self._load(key)
        return self._tables[key]

    def __iter__(self):
        return iter(self.KEYS)

    def __len__(self) -> int:
        return len(self.KEYS)

    @property
    def places(self) -> dict[str, str]:
        """Provinces, sea zones and factions in one table: the ids an order's steps and targets name."""
        return {**self["provinces"], **self["factions"]}

    def faction(self, code: str | None) -> str:
        """A faction's name; no faction (a neutral province or garrison) is «neutral»."""
        if code is None:
            return _("neutral")
        return self["factions"].get(code, code)

    def colour(self, code: str | None) -> str | None:
        return self["colours"].get(code) if code else None

    def province(self, code: str | None) -> str:
        """A province's or sea zone's name; no place is a dash."""
        if code is None:
            return "—"
        return self["provinces"].get(code, code)

    def troop(self, code: str) -> dict:
        """A troop type's name, power and men: the game's own, else the rules' default type, else nothing."""
        known = self["troop_types"].get(code)
        if known:
            return known
        for t in DEFAULT_TROOP_TYPES:
            if t.id == code:
                return {"name": code, "power": t.power, "men": t.men}
        return {"name": code, "power": 0, "men": 0}

    def word(self, value: str) -> str:
        """Any id an engine message names: a place or faction by its name, a unit by its numeral
        ('north-f1' -> 'I': the texts already say "fleet"/"army"), anything else as it is."""
        parsed = parse_unit_code(value)
        return (self["provinces"].get(value) or self["factions"].get(value)
                or (roman(parsed[2]) if parsed else None) or value)


def names(game: Game | int, only: Iterable[str] | None = None) -> Names:
    """The names people read for this game's ids (see `Names`)."""
    return Names(game, only)
