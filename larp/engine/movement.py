"""R6: executing the turn's orders in draw order, scheduling battles.

`Movement(case).run()` walks every unit once (draw order; each faction's
armies by number, then its fleets by number), keeps the positions, pins, the
battle provinces in the order their first battle was scheduled, and each
province's arrivals in order; `stacks()` then builds each battle stack
bottom-up (R6.5). Takings by occupation (R6.3, R12) are recorded here too.
"""
from __future__ import annotations

from dataclasses import dataclass

from .model import (
    SEA_ARMY_ORDERS, Army, Case, Domain, MoveResult, Order, OrderType, Situation, StackSide,
)
from .orders import Refusal, check_all


@dataclass(slots=True)
class Arrival:
    unit: str
    frm: str                 # the place it entered from (the stack's "from")
    back: str                # where it falls back if defeated attacking (by sea: its start, R12)
    attacking: bool          # it entered into a battle or a storm (R6.2/R6.3), or attacked a fleet
    target_faction: str | None = None


@dataclass(slots=True)
class Force:
    """One force of a battle stack (R6.5); mutable while the stack is resolved."""
    side: StackSide
    faction: str | None
    units: list[str]
    garrison: bool = False
    frm: str | None = None
    back: str | None = None
    holds_walls: bool = False
    target_faction: str | None = None
    storms: int = 0

    def to_dict(self) -> dict:
        d = {"side": self.side.value, "faction": self.faction, "units": list(self.units),
             "garrison": self.garrison}
        if self.side == StackSide.ARRIVAL:
            d["from"] = self.frm
        if self.target_faction is not None:
            d["target_faction"] = self.target_faction
        return d


@dataclass(slots=True)
class Taking:
    province: str
    unit: str
    faction: str


class World:
    """Where every unit is, and what it holds, while a turn is adjudicated."""

    def __init__(self, sit: Situation):
        self.sit = sit
        self.units: dict[str, Army] = {}
        self.loc: dict[str, str] = {}
        self.troops: dict[str, tuple[str, ...]] = {}
        self.occ: dict[str, dict[str, None]] = {p: {} for p in sit.provinces}   # ordered sets
        # Units per faction at each place, and of those the ones still where they started the turn
        # (so questions asked per faction do not scan a crowded province unit by unit).
        self.factions_at: dict[str, dict[str, int]] = {p: {} for p in sit.provinces}
        self.stayers_at: dict[str, dict[str, int]] = {p: {} for p in sit.provinces}
        for group in (sit.armies, sit.fleets):
            for u in group.values():
                if u.on_map:
                    self.units[u.id] = u
                    self.loc[u.id] = u.location
                    self.troops[u.id] = u.troops
        self.start_loc = dict(self.loc)
        for uid, place in self.loc.items():
            self._occupy(uid, place)
        self.garrison: dict[str, tuple[str, ...]] = {p.id: p.garrison for p in sit.provinces.values()}
        self.owner_start = {p.id: p.owner for p in sit.provinces.values()}

    def faction(self, uid: str) -> str:
        return self.units[uid].faction

    def _occupy(self, uid: str, place: str) -> None:
        self.occ[place][uid] = None
        faction = self.units[uid].faction
        tables = (self.factions_at, self.stayers_at) if self.start_loc.get(uid) == place else (self.factions_at,)
        for table in tables:
            counts = table[place]
            counts[faction] = counts.get(faction, 0) + 1

    def _vacate(self, uid: str, place: str) -> None:
        del self.occ[place][uid]
        faction = self.units[uid].faction
        tables = (self.factions_at, self.stayers_at) if self.start_loc.get(uid) == place else (self.factions_at,)
        for table in tables:
            counts = table[place]
            counts[faction] -= 1
            if not counts[faction]:
                del counts[faction]

    def move(self, uid: str, to: str) -> None:
        here = self.loc[uid]
        if here != to:
            self._vacate(uid, here)
            self._occupy(uid, to)
            self.loc[uid] = to

    def lift(self, uid: str) -> None:
        """Take a unit off the map while it waits to retreat (it keeps its last place in `loc`)."""
        self._vacate(uid, self.loc[uid])

    def put(self, uid: str, place: str) -> None:
        """Set a lifted unit down at `place`."""
        self.loc[uid] = place
        self._occupy(uid, place)

    def remove(self, uid: str) -> None:
        self._vacate(uid, self.loc.pop(uid))

    def at(self, place: str) -> list[str]:
        return list(self.occ[place])

    def o_side_present(self, province: str) -> bool:
        """R12: a force of the start owner's side (garrison, owner's or allied armies) stands there."""
        owner = self.owner_start[province]
        if self.garrison[province]:
            return True
        if owner is None:
            return False
        return any(self.sit.same_side(self.units[u].faction, owner) for u in self.occ[province])


class Movement:
    def __init__(self, case: Case):
        self.case = case
        sit = self.sit = case.situation
        self.world = World(sit)
        checks = check_all(sit, case.orders)
        self.refused: list[Refusal] = [r for r in checks if r is not None]
        self.orders: dict[str, Order] = {o.unit: o for o, r in zip(case.orders, checks) if r is None}
        self.refused_units = {r.unit for r in self.refused}
        self.carried_by: dict[str, str] = {o.fleet: o.unit for o in self.orders.values()
                                           if o.type in SEA_ARMY_ORDERS}
        self.moves: list[dict] = []
        self.pinned: dict[str, None] = {}
        self.executed: set[str] = set()
        self.occupied: list[dict] = []
        self.contests: dict[str, Domain] = {}
        self.arrivals: dict[str, list[Arrival]] = {}
        self.takings: dict[str, Taking] = {}     # province -> last taking
        self.taking_order: list[str] = []        # provinces in order of their first taking
        self.draw_index = {f: i for i, f in enumerate(sit.draw)}

    # --- bookkeeping ---------------------------------------------------------------
    def _schedule(self, place: str, domain: Domain) -> None:
        if place not in self.contests:
            self.contests[place] = domain

    def _has_order(self, uid: str) -> bool:
        """A unit with an accepted order of its own to execute, or a fleet an army's order uses."""
        order = self.orders.get(uid)
        return (order is not None and order.type != OrderType.HOLD) or uid in self.carried_by

    def _pin(self, uid: str) -> None:
        # R6.7 ruling: pinned is said only of a unit that had an order still to execute; a holding
        # unit that is attacked simply defends (and a holding besieger still continues its siege, R7).
        if uid not in self.executed and uid not in self.pinned and self._has_order(uid):
            self.pinned[uid] = None

    def _arrive(self, uid: str, place: str, arrival: Arrival) -> None:
        self.world.move(uid, place)
        self.arrivals.setdefault(place, []).append(arrival)

    def record_taking(self, province: str, uid: str, o_side_present: bool | None = None) -> bool:
        """R12: an army hostile to the start owner takes the province (unless a force at peace with it
        took it first: an ally, or a faction that granted it passage).

        `o_side_present` is whether a force of the owner's side is still there
        (computed from the world when not given: occupation without battle).
        True when this is a taking.
        """
        sit, world = self.sit, self.world
        faction = world.faction(uid)
        if o_side_present is None:
            o_side_present = world.o_side_present(province)
        if sit.friendly_to(faction, world.owner_start[province]) or o_side_present:
            return False
        last = self.takings.get(province)
        if last is not None and not sit.hostile_in(faction, last.faction, province):
            # R12 ruling of 2026-11-28: arriving where an army not hostile to yours (an ally, or a
            # faction that granted yours passage) already took it is not a taking: the province was
            # not empty (R6.7 ruling: "occupies" is said of the first army only). The same holds for
            # a victory there (this is also called for the winner of a fight): its taker keeps it.
            return False
        if province not in self.takings:
            self.taking_order.append(province)
        self.takings[province] = Taking(province, uid, faction)
        return True

    def cancel_taking(self, province: str) -> None:
        """R12: the owner's own army won the province back this turn; the owner keeps it."""
        del self.takings[province]
        self.taking_order.remove(province)

    def _move_entry(self, uid: str, order: str, frm: str, result: MoveResult, path: list[str],
                    **extra) -> None:
        entry = {"seq": len(self.moves) + 1, "faction": self.world.faction(uid), "unit": uid, "order": order,
                 "from": frm, "to": self.world.loc[uid], "path": path, "result": result.value}
        entry.update(extra)
        self.moves.append(entry)

    # --- execution ---------------------------------------------------------------------
    def run(self) -> "Movement":
        by_faction: dict[str, tuple[list[Army], list[Army]]] = {f: ([], []) for f in self.sit.draw}
        for u in self.world.units.values():
            by_faction[u.faction][1 if u.is_fleet else 0].append(u)
        for f in self.sit.draw:
            armies, fleets = by_faction[f]
            for group in (armies, fleets):
                for u in sorted(group, key=lambda u: (u.number, u.id)):
                    self._execute(u)
        return self

    def _execute(self, u: Army) -> None:
        uid = u.id
        frm = self.world.loc[uid]
        order = self.orders.get(uid)
        if uid in self.executed:
            # A carrying fleet already moved with its army's order (R5: the army's form counts).
            start, here = self.world.start_loc[uid], self.world.loc[uid]
            moved = here != start
            self._move_entry(uid, "carry", start, MoveResult.MOVED if moved else MoveResult.HELD,
                             [here] if moved else [], army=self.carried_by[uid])
            return
        self.executed.add(uid)
        if uid in self.pinned:
            # R6.1: attacked before its turn: the order is cancelled, it defends where it stands.
            self._move_entry(uid, order.type.value if order else "hold", frm, MoveResult.PINNED, [])
            return
        if order is None or order.type == OrderType.HOLD:
            self._hold(u)
            extra = {"refused": True} if uid in self.refused_units else {}
            self._move_entry(uid, "hold", frm, MoveResult.HELD, [], **extra)
            return
        if order.type in (OrderType.MARCH, OrderType.ATTACK):
            result, path = self._walk(u, order)
            self._move_entry(uid, order.type.value, frm, result, path)
        elif order.type in SEA_ARMY_ORDERS:
            result, path = self._by_sea(u, order)
            self._move_entry(uid, order.type.value, frm, result, path, fleet=order.fleet, sea=list(order.sea),
                             target=order.target)
        else:
            result, path = self._fleet(u, order)
            extra = {"sea": order.sea[0]}
            if order.target_faction is not None:
                extra["target_faction"] = order.target_faction
            self._move_entry(uid, order.type.value, frm, result, path, **extra)

    def _hostile_armies(self, faction: str, place: str) -> list[str]:
        world, sit = self.world, self.sit
        return [a for a in world.occ[place] if sit.hostile_in(faction, world.units[a].faction, place)]

    def _enter(self, uid: str, place: str, frm: str, back: str, final: bool, attack: bool) -> MoveResult | None:
        """Enter one province; a result when the unit stops there, None when it passes on."""
        faction = self.world.faction(uid)
        hostile = self._hostile_armies(faction, place)
        if hostile:
            # R6.2: stopped by a hostile army whatever the order; the mover attacks.
            self._arrive(uid, place, Arrival(uid, frm, back, True))
            self._schedule(place, Domain.LAND)
            for a in hostile:
                self._pin(a)
            return MoveResult.BATTLE
        if not final:
            return None   # R6.4
        if attack:
            if self.world.garrison[place]:
                # R6.3: a storm (or a battle) against the garrison.
                self._arrive(uid, place, Arrival(uid, frm, back, True))
                self._schedule(place, Domain.LAND)
                return MoveResult.BATTLE
            self._arrive(uid, place, Arrival(uid, frm, back, False))
            if not self.record_taking(place, uid):
                # R6.7 ruling: "occupies" is said of a taking only; an owner's ally there, or a
                # taking of this side earlier this turn, leaves the arrival a plain move.
                return MoveResult.MOVED
            self.occupied.append({"province": place, "unit": uid})
            return MoveResult.OCCUPIED
        self._arrive(uid, place, Arrival(uid, frm, back, False))
        return MoveResult.MOVED

    def _walk(self, u: Army, order: Order) -> tuple[MoveResult, list[str]]:
        prev = self.world.loc[u.id]
        entered: list[str] = []
        attack = order.type == OrderType.ATTACK
        for i, place in enumerate(order.path):
            entered.append(place)
            result = self._enter(u.id, place, prev, prev, i == len(order.path) - 1, attack)
            if result is not None:
                return result, entered
            prev = place
        raise AssertionError("unreachable: the last step always stops")

    def _by_sea(self, u: Army, order: Order) -> tuple[MoveResult, list[str]]:
        fleet = order.fleet
        if fleet in self.pinned or self.world.loc.get(fleet) != order.sea[0]:
            # R6.1: a pinned fleet cannot carry: the army's sea order fails and it stays.
            return MoveResult.FAILED, []
        self.executed.add(fleet)
        final_zone = order.sea[-1]
        if final_zone != self.world.loc[fleet]:
            self._arrive(fleet, final_zone, Arrival(fleet, self.world.loc[fleet], self.world.loc[fleet], False))
        start = self.world.loc[u.id]
        result = self._enter(u.id, order.target, start, start, True, order.type == OrderType.SEA_ATTACK)
        return result, [order.target]

    def _fleet(self, u: Army, order: Order) -> tuple[MoveResult, list[str]]:
        here = self.world.loc[u.id]
        zone = order.sea[0]
        if order.type == OrderType.FLEET_ATTACK:
            targets = [g for g in self.world.occ[zone] if self.world.units[g].faction == order.target_faction]
            if targets:
                self._arrive(u.id, zone, Arrival(u.id, here, here, True, order.target_faction))
                self._schedule(zone, Domain.SEA)
                for g in targets:
                    self._pin(g)   # R6.6: an attacked fleet is pinned
                return MoveResult.BATTLE, [zone] if zone != here else []
            # R5: no fleet of the target faction there: the fleet simply moves there
            # (result moved even when the zone is its own).
            if zone == here:
                return MoveResult.MOVED, []
        if zone == here:
            return MoveResult.HELD, []
        self._arrive(u.id, zone, Arrival(u.id, here, here, False))
        return MoveResult.MOVED, [zone]

    def _hold(self, u: Army) -> None:
        """R7: a hold order continues a siege: storm a hostile holder (or an earlier force) here."""
        if u.is_fleet:
            return
        world, sit = self.world, self.sit
        place = world.loc[u.id]
        faction = u.faction
        owner = world.owner_start[place]
        beneath: list[str] = []
        present = world.factions_at[place]
        holder_hostile = owner != faction and sit.hostile(faction, owner)
        has_holder = bool(world.garrison[place]) or (owner is not None and owner in present)
        mine = self.draw_index[faction]
        earlier = {f for f in world.stayers_at[place]
                   if f != owner and self.draw_index[f] < mine and sit.hostile_in(faction, f, place)}
        if not (holder_hostile and has_holder) and not earlier:
            return   # nothing to besiege here (checked per faction: a crowded province stays cheap)
        if holder_hostile and has_holder:
            beneath.extend(a for a in world.occ[place] if world.units[a].faction == owner)
        for a in world.occ[place]:
            if world.units[a].faction in earlier and world.start_loc.get(a) == place:
                beneath.append(a)
        if (holder_hostile and has_holder) or beneath:
            self._schedule(place, Domain.LAND)
            for a in beneath:
                self._pin(a)

    # --- stacks (R6.5) -----------------------------------------------------------------------
    def stack(self, place: str) -> list[Force]:
        world, sit = self.world, self.sit
        domain = self.contests[place]
        units = world.units
        number = lambda uid: (units[uid].number, uid)   # noqa: E731
        arrivals = [a for a in self.arrivals.get(place, []) if world.loc.get(a.unit) == place]
        arrived = {a.unit: a for a in arrivals}
        owner = world.owner_start[place] if domain == Domain.LAND else None
        forces: list[Force] = []
        holder_units: list[str] = []
        if domain == Domain.LAND:
            holder_units = sorted((a for a in world.occ[place] if owner is not None and units[a].faction == owner
                                   and not (a in arrived and arrived[a].attacking)), key=number)
            if holder_units or world.garrison[place]:
                forces.append(Force(StackSide.HOLDER, owner, holder_units, bool(world.garrison[place]),
                                    holds_walls=True))
        present: dict[str, list[str]] = {}
        for a in world.occ[place]:
            f = units[a].faction
            if a not in arrived and (domain == Domain.SEA or f != owner):
                present.setdefault(f, []).append(a)
        for f in sorted(present, key=lambda f: self.draw_index[f]):
            forces.append(Force(StackSide.PRESENT, f, sorted(present[f], key=number),
                                holds_walls=domain == Domain.LAND and sit.allied(f, owner)))
        holder_set = set(holder_units)
        for a in arrivals:
            if a.unit in holder_set:
                continue
            f = units[a.unit].faction
            forces.append(Force(StackSide.ARRIVAL, f, [a.unit], frm=a.frm, back=a.back,
                                holds_walls=domain == Domain.LAND and f == owner,
                                target_faction=a.target_faction if a.attacking else None))
        return forces

    # --- output -------------------------------------------------------------------------------
    def positions(self) -> dict:
        loc = self.world.loc
        return {"armies": {a: loc[a] for a in self.sit.armies if a in loc},
                "fleets": {f: loc[f] for f in self.sit.fleets if f in loc}}

    def result(self) -> dict:
        battles = [{"province": p, "domain": d.value, "stack": [f.to_dict() for f in self.stack(p)]}
                   for p, d in self.contests.items()]
        return {"refused": [r.to_dict() for r in self.refused], "moves": self.moves,
                "pinned": list(self.pinned), "occupied": self.occupied, "battles": battles,
                "positions": self.positions()}
