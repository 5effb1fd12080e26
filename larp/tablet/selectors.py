"""Reads for the players' tablets: the faction board, the map, players, spy reports.

A unit's card and its order form's legal choices are larp.orders.pickers (the console's paper order
uses them too).

Fog of war (R13): `faction_board` reads only the given faction's stacks and
orders (views check the role first); `map_view` reads positions, flags,
owners and fortresses, never a stack's contents.
"""
from __future__ import annotations

from collections import defaultdict
from functools import cached_property

from django.core.cache import cache
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from larp.battles.models import TurnResolution
from larp.campaign import labels
from larp.campaign.models import Faction, Game, Membership, Province
from larp.forces.models import Army, Commander, Fleet, TroopCard
from larp.maps.view import unit_label
from larp.orders.models import Order
from larp.orders.pickers import (busy_fleets, card_rows, carriers, commander_rows, men_text, stack_totals, start_situation,
                                 unit_entry)
from larp.orders.selectors import visible_orders
from larp.sheets import selectors as sheets
from larp.tablet.models import JoinToken, SpyReport
from larp.turns.models import Phase
from larp.turns.selectors import current_phase, names


# --- stacks ---------------------------------------------------------------------------


def stack_content(stack) -> dict:
    """One stack (army, fleet or garrison) as JSON: what a spy report keeps (names in both languages)."""
    if isinstance(stack, Province):
        cards = card_rows(TroopCard.objects.filter(garrison=stack).select_related("troop_type"))
        commanders = []
        kind, number, place = "garrison", None, stack
        faction = stack.owner
    else:
        cards = card_rows(stack.cards.select_related("troop_type"))
        commanders = commander_rows(stack.commanders.all())
        kind = "fleet" if isinstance(stack, Fleet) else "army"
        number, faction = stack.number, stack.faction
        place = stack.sea if isinstance(stack, Fleet) else stack.province
    return {"kind": kind, "number": number, "roman": stack.roman if number else "",
            "faction": {"code": faction.code, "name_ru": faction.name_ru, "name_en": faction.name_en}
            if faction else None,
            "place": {"code": place.code, "name_ru": place.name_ru, "name_en": place.name_en},
            "troops": cards, "commanders": commanders, **stack_totals(cards, commanders)}


def bilingual(item: dict | None, key: str = "name") -> str:
    """The name in the active language from a {name_ru, name_en} snapshot."""
    if not item:
        return ""
    from django.utils.translation import get_language

    if (get_language() or "ru").startswith("en") and item.get(f"{key}_en"):
        return item[f"{key}_en"]
    return item.get(f"{key}_ru") or item.get(key) or ""



# --- the faction board --------------------------------------------------------------------


def orders_open(phase: Phase | None, now=None) -> bool:
    """Orders are accepted in a Strategy phase that is paused or running before its deadline (R3)."""
    if phase is None or phase.kind != Phase.STRATEGY:
        return False
    if phase.state == Phase.PAUSED:
        return True
    return phase.state == Phase.RUNNING and phase.deadline is not None and (now or timezone.now()) < phase.deadline


def clock_open(payload: dict) -> bool:
    """orders_open from the clock's payload (larp.turns.clock), without reading the phase again."""
    if payload.get("phase") != Phase.STRATEGY:
        return False
    if payload.get("state") == Phase.PAUSED:
        return True
    return payload.get("state") == Phase.RUNNING and (payload.get("remaining") or 0) > 0


def _stacks(qs):
    return qs.prefetch_related(
        Prefetch("cards", queryset=TroopCard.objects.select_related("troop_type").order_by("id")),
        Prefetch("commanders", queryset=Commander.objects.order_by("id")),
    ).select_related("faction")


def _faction_rows(faction: Faction, name: str, every, key, own) -> list:
    """Rows of one faction for its board. While the boards of one state are rendered (at a phase change, eleven
    factions' at once), every faction's rows are read in one query a process (`every()`, grouped by `key`) and
    kept for the others' boards (larp.tablet.rendered.shared); otherwise this faction's only (`own()`)."""
    from larp.tablet import rendered

    if not rendered.sharing(faction.game_id):
        return list(own())

    def grouped():
        out = defaultdict(list)
        for row in every():
            out[key(row)].append(row)
        return dict(out)

    return rendered.shared(faction.game_id, name, grouped).get(faction.pk, [])


def faction_board(user, faction: Faction) -> dict:
    """Everything the faction page shows; the caller has checked require_faction (R13): the faction's orders
    are all visible to this user, and only this faction's stacks, orders and reports are shown (those of the
    others a board render may read with them stay in this process)."""
    from larp.tablet import rendered

    game = faction.game
    phase = rendered.shared(game.pk, "phase", lambda: current_phase(game))
    turn = phase.turn if phase else None
    sit = start_situation(turn) if turn else None
    label_of = rendered.shared(game.pk, "places", lambda: names(game).places)
    is_open = orders_open(phase)
    by_unit = {}
    if turn is not None:
        for o in _faction_rows(faction, "orders", lambda: Order.objects.filter(turn=turn).select_related(
                "faction", "army", "fleet", "filed_by"), lambda o: o.faction_id,
                lambda: visible_orders(user, turn).filter(faction=faction)):
            by_unit[o.payload.get("unit")] = o
    armies = _faction_rows(faction, "armies", lambda: _stacks(Army.objects.filter(
        game_id=game.pk, destroyed=False).select_related("province")), lambda a: a.faction_id, lambda: _stacks(
        Army.objects.filter(faction=faction, destroyed=False).select_related("province")))
    fleets = _faction_rows(faction, "fleets", lambda: _stacks(Fleet.objects.filter(
        game_id=game.pk, destroyed=False).select_related("sea")), lambda f: f.faction_id, lambda: _stacks(
        Fleet.objects.filter(faction=faction, destroyed=False).select_related("sea")))
    carried = carriers(by_unit.values())
    units = [unit_entry(u, sit=sit, label_of=label_of, order=by_unit.get(u.code), is_open=is_open,
                        carried_army=carried.get(u.code), busy=busy_fleets(carried, u.code))
             for u in list(armies) + list(fleets)]
    if turn is not None:
        dropped = (rendered.shared(game.pk, "dropped", lambda: _dropped_by_faction(turn)).get(faction.pk, set())
                   if rendered.sharing(game.pk) else dropped_fleets(turn, faction))
        _mark_dropped(units, dropped)
    garrisons = []
    cards_by = defaultdict(list)
    for card in _faction_rows(faction, "garrison_cards", lambda: TroopCard.objects.filter(
            game_id=game.pk, garrison__owner__isnull=False).select_related("troop_type", "garrison"),
            lambda c: c.garrison.owner_id,
            lambda: TroopCard.objects.filter(garrison__owner=faction).select_related("troop_type", "garrison")):
        cards_by[card.garrison].append(card)
    for province, cards in sorted(cards_by.items(), key=lambda kv: kv[0].name):
        content = card_rows(cards)
        garrisons.append({"place": province.name, "cards": content, **stack_totals(content, [])})
    return {
        "faction": faction, "game": game, "phase": phase, "turn": turn, "orders_open": is_open,
        "units": units, "garrisons": garrisons, "reports": spy_reports(faction),
        **_summary(units), "label_of": label_of,
    }


def readiness(faction: Faction, phase: Phase | None) -> dict:
    """«Orders ready» on the board: whether this faction marked it in this Strategy phase, and whether the game
    closes the phase once every faction has."""
    from larp.turns.models import ReadyMark, TurnSettings

    if phase is None or phase.kind != Phase.STRATEGY:
        return {"ready_mark": None, "close_when_ready": False}
    from larp.tablet import rendered

    marks = _faction_rows(faction, "ready_marks", lambda: ReadyMark.objects.filter(phase=phase),
                          lambda m: m.faction_id, lambda: ReadyMark.objects.filter(phase=phase, faction=faction)[:1])
    mark = marks[0] if marks else None
    close = rendered.shared(faction.game_id, "close_when_ready", lambda: bool(
        TurnSettings.objects.filter(game_id=faction.game_id).values_list("close_when_ready", flat=True).first()))
    return {"ready_mark": mark, "close_when_ready": close}


def _summary(units: list[dict]) -> dict:
    """Orders the server has from the players (not the holds made for them at the deadline), and those holds."""
    units = [u for u in units if not u.get("carries")]  # a fleet carrying an army takes no order (R5)
    return {"ordered": sum(1 for u in units if u["order"] is not None and not u["order"].implicit),
            "holding": sum(1 for u in units if u["order"] is not None and u["order"].implicit),
            "units_total": len(units)}


class Cards:
    """The faction's unit cards as one answer reads them: the phase, the orders the user may see, the boarded
    fleets, the units and the places' names read once, however many cards the answer carries (filing an army's
    order redraws each of the faction's fleets' cards, and may redraw its armies'). Read again after a change:
    a new Cards."""

    def __init__(self, user, faction: Faction):
        self.user, self.faction = user, faction

    @cached_property
    def phase(self) -> Phase | None:
        return current_phase(self.faction.game)

    @cached_property
    def turn(self):
        return self.phase.turn if self.phase else None

    @cached_property
    def orders(self) -> dict[tuple[str, int], Order]:
        """(kind, unit id) -> its order this turn, of those the user may see."""
        if self.turn is None:
            return {}
        return {("fleet", o.fleet_id) if o.fleet_id else ("army", o.army_id): o
                for o in visible_orders(self.user, self.turn).filter(faction=self.faction)}

    @cached_property
    def carried(self) -> dict[str, str]:
        """Fleet -> the army whose order boards it this turn (R5)."""
        return carriers(self.orders.values())

    @cached_property
    def units(self) -> dict[str, Army | Fleet]:
        """The faction's armies and fleets on the map, by code, with their stacks."""
        armies = _stacks(Army.objects.filter(faction=self.faction, destroyed=False).select_related("province"))
        fleets = _stacks(Fleet.objects.filter(faction=self.faction, destroyed=False).select_related("sea"))
        return {u.code: u for u in [*armies, *fleets]}

    def codes(self, kind: str) -> list[str]:
        """The codes of the faction's fleets or armies (`kind`) on the map."""
        return [code for code, u in self.units.items() if isinstance(u, Fleet) == (kind == "fleet")]

    @cached_property
    def dropped(self) -> set[str]:
        return dropped_fleets(self.turn, self.faction) if self.turn is not None else set()

    def one(self, unit_code: str, selected: dict | None = None) -> dict | None:
        """One card of the board (after filing or a refusal); None if the unit is not the faction's."""
        unit = self.units.get(unit_code)
        if unit is None:
            return None
        kind = "fleet" if isinstance(unit, Fleet) else "army"
        entry = unit_entry(unit, sit=start_situation(self.turn) if self.turn else None,
                           label_of=names(self.faction.game).places, order=self.orders.get((kind, unit.pk)),
                           is_open=orders_open(self.phase), selected=selected,
                           carried_army=self.carried.get(unit.code) if kind == "fleet" else None,
                           busy=busy_fleets(self.carried, unit.code))
        if kind == "fleet" and self.turn is not None:
            _mark_dropped([entry], self.dropped)
        return entry

    def summary(self) -> dict:
        """The board's summary line alone (refreshed beside a card after filing)."""
        return {"turn": self.turn, "orders_open": orders_open(self.phase),
                **_summary([{"order": self.orders.get(("fleet" if isinstance(u, Fleet) else "army", u.pk)),
                             "carries": code in self.carried} for code, u in self.units.items()])}


def one_unit(user, faction: Faction, unit_code: str, selected: dict | None = None) -> dict | None:
    """One card of the board; None if the unit is not the faction's (`Cards` for several)."""
    return Cards(user, faction).one(unit_code, selected)


def dropped_fleets(turn, faction: Faction, code: str | None = None) -> set[str]:
    """The faction's fleets whose order was withdrawn this turn because an army's order boarded them (R5)
    and that were given none since: the seat that filed it must see it is gone, not believe it stands (after
    the deadline too, when the fleet's card shows the hold made for it)."""
    return _dropped_by_faction(turn, faction, code).get(faction.pk, set())


def _dropped_by_faction(turn, faction: Faction | None = None, code: str | None = None) -> dict[int, set[str]]:
    """`dropped_fleets` by faction id: of every faction of the turn at once (a board render at a phase change),
    or of one faction (and one unit)."""
    from larp.orders.models import OrderEvent

    # The hold made at the deadline (IMPLICIT) is not an order given: the withdrawal still stands behind it.
    events = OrderEvent.objects.filter(turn=turn).exclude(action=OrderEvent.IMPLICIT)
    if faction is not None:
        events = events.filter(faction=faction)
    if code is not None:
        events = events.filter(unit=code)
    last = defaultdict(dict)
    for faction_id, unit, action in events.order_by("at", "id").values_list("faction_id", "unit", "action"):
        last[faction_id][unit] = action
    return {faction_id: {unit for unit, action in units.items() if action == OrderEvent.DROPPED}
            for faction_id, units in last.items()}


def _mark_dropped(entries: list[dict], dropped: set[str]) -> None:
    for entry in entries:
        entry["dropped"] = (entry.get("kind") == "fleet" and entry.get("code") in dropped
                            and not entry.get("carries")
                            and (entry.get("order") is None or entry["order"].implicit))


def spy_reports(faction: Faction) -> list[dict]:
    out = []
    for r in _faction_rows(faction, "spy_reports", lambda: SpyReport.objects.filter(
            game_id=faction.game_id).select_related("granted_by"), lambda r: r.to_faction_id,
            lambda: SpyReport.objects.filter(to_faction=faction).select_related("granted_by")):
        c = r.content
        out.append({"report": r, "faction": bilingual(c.get("faction")), "place": bilingual(c.get("place")),
                    "label": _("Garrison") if c.get("kind") == "garrison" else unit_label(c.get("kind"), c.get("roman")),
                    "troops": [bilingual(t) for t in c.get("troops", [])],
                    "commanders": [{"name": bilingual(m), "power": m.get("power")} for m in c.get("commanders", [])],
                    "power": c.get("power"), "men": c.get("men"), "men_text": men_text(c.get("men"))})
    return out


# --- the turn's result for one faction (after regroup) ---------------------------------------


def faction_turn_result(faction: Faction) -> dict | None:
    """What happened to this faction's own stacks in the last turn whose regroup was applied: its own part
    of the printed turn results, in the same words (larp.sheets.build.turn_results). None before that."""
    from larp.tablet import rendered

    resolution = rendered.shared(faction.game_id, "last_resolution", lambda: (
        TurnResolution.objects.filter(turn__game_id=faction.game_id, applied_at__isnull=False)
        .select_related("turn").order_by("-turn__number").first()) or False)
    if not resolution:
        return None
    key = f"larp:turn-result:{resolution.pk}:{resolution.applied_at.timestamp()}:{faction.pk}:{get_language()}"
    try:
        cached = cache.get(key)
    except Exception:  # noqa: BLE001 - without the cache the result is simply computed again
        cached = None
    if cached is not None:
        return cached
    try:
        data = sheets.turn_results(faction.game, resolution.turn.number)
    except sheets.NoResults:
        return None
    mine = faction.name
    battles = []
    for b in data["battles"]:
        for role in ("attacker", "defender"):
            if b[role]["name"] == mine:
                other = b["defender" if role == "attacker" else "attacker"]
                battles.append({"number": b["number"], "province": b["province"], "kind": b["kind"],
                                "attacked": role == "attacker", "against": other["name"], "units": b[role]["units"],
                                "outcome": labels.decision_for(b, role), "losses": b[role]["losses"],
                                "their_losses": other["losses"], "at_table": b.get("at_table")})
    own = {
        "turn": resolution.turn.number,
        "moves": [m for m in data["moves"] if m["faction"] == mine],
        "refused": [r for r in data["refused"] if r["faction"] == mine],
        "battles": battles,
        "retreats": [r for r in data["retreats"] if r["faction"] == mine],
        "destroyed": [u for u in data["destroyed_units"] if u["faction"] == mine],
        "gained": [r["province"] for r in data["recoloured"] if r["to"] == mine],
        "lost": [r["province"] for r in data["recoloured"] if r["from"] == mine],
        "raised": [r for r in data["raised"] if r["faction"] == mine],
    }
    own["empty"] = not any(own[k] for k in ("moves", "refused", "battles", "retreats", "destroyed", "gained",
                                            "lost", "raised"))
    try:
        cache.set(key, own, 60 * 60)
    except Exception:  # noqa: BLE001
        pass
    return own


# --- moderators' lists -------------------------------------------------------------------------


def players(game: Game) -> list[dict]:
    """Factions with their players and each player's working join code (None if none)."""
    now = timezone.now()
    active = {}
    for t in JoinToken.objects.filter(game=game, revoked_at__isnull=True, expires_at__gt=now).order_by("created_at"):
        active[t.user_id] = t
    members = defaultdict(list)
    for m in Membership.objects.filter(game=game, role=Membership.PLAYER).select_related("user").order_by(
            "user__username"):
        members[m.faction_id].append({"user": m.user, "token": active.get(m.user_id)})
    return [{"faction": f, "players": members.get(f.pk, [])} for f in labels.by_name(Faction.objects.filter(game=game))]


def spy_targets(game: Game) -> list[dict]:
    """Every stack a spy could report on: armies, fleets, garrisons, labelled for the moderator."""
    out = []
    for a in Army.objects.filter(game=game, destroyed=False).select_related("faction", "province"):
        out.append({"ref": f"army:{a.pk}", "faction": a.faction_id,
                    "label": f"{a.faction.name} — {unit_label('army', a.roman)} ({a.province.name})"})
    for f in Fleet.objects.filter(game=game, destroyed=False).select_related("faction", "sea"):
        out.append({"ref": f"fleet:{f.pk}", "faction": f.faction_id,
                    "label": f"{f.faction.name} — {unit_label('fleet', f.roman)} ({f.sea.name})"})
    garrisoned = Province.objects.filter(game=game, garrison_cards__isnull=False).select_related("owner").distinct()
    for p in garrisoned:
        owner = p.owner.name if p.owner else _("neutral")
        out.append({"ref": f"garrison:{p.code}", "faction": p.owner_id,
                    "label": f"{owner} — " + _("garrison of %(place)s") % {"place": p.name}})
    return out


# --- the clock's first paint (tablet.js keeps it going) ----------------------------------------
