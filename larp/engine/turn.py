"""The whole turn: movement (R6), battles and storms top-down (R6.5, R7-R11), regroup (R12).

Battle provinces are resolved in the order their first battle was
scheduled; within a stack the topmost force with a hostile force beneath it
attacks the nearest such force. Dice are consumed in the order fought.
"""
from __future__ import annotations

from collections import deque

from .battle import Engagement, Side, Stack, decided, dice_count, fight
from .odds import odds as battle_odds_of
from .dice import DiceExhausted, DiceSource
from .errors import CaseError
from .limits import RETREAT_OPTIONS_LISTED
from .model import (
    GARRISON_KEY, Case, Domain, Outcome, RetreatReason, Role, StackSide,
)
from .movement import Force, Movement

UNREACHABLE = float("inf")


class Turn:
    def __init__(self, case: Case):
        self.case = case
        self.sit = case.situation
        self.mv = Movement(case).run()
        self.world = self.mv.world
        self.movement_result = self.mv.result()
        self.dice = DiceSource(case.dice, case.seed)
        self.state = {k: dict(v) for k, v in self.sit.special_state.items()}
        self.fought: list[dict] = []
        self.defeats: list[tuple[str, str, RetreatReason, str | None]] = []  # unit, place, reason, back
        self.destroyed: dict[str, list[str]] = {"armies": [], "fleets": [], "garrisons": []}
        self.unattached: list[dict] = []
        self.retreats: list[dict] = []
        self.awaiting: dict | None = None
        self._distances: dict[tuple[str, bool], dict[str, int]] = {}
        self._candidates: dict[tuple[str, str, bool], tuple[list[str], set[str]]] = {}
        self.storms_at: dict[str, int] = {}   # R7: storms fought at each fortress this turn

    # --- fights ------------------------------------------------------------------------
    def run(self) -> "Turn":
        for place, domain in self.mv.contests.items():
            forces = self.mv.stack(place)
            if domain == Domain.LAND:
                self._resolve_land(place, forces)
            else:
                self._resolve_sea(place, forces)
            if self.awaiting is not None:
                return self
        self._regroup()
        return self

    def _resolve_land(self, place: str, forces: list[Force]) -> None:
        sit = self.sit
        walled = sit.provinces[place].walled
        # R7 ruling: at most `storms_per_turn` storms at one fortress per turn, all attackers
        # together; choices.storms may only lower what one attacker makes there.
        cap = sit.rules.storms_per_turn
        limit = min(self.case.choices.storms.get(place, cap), cap)
        while True:
            pick = None
            for i in range(len(forces) - 1, 0, -1):
                x = forces[i]
                below = next((j for j in range(i - 1, -1, -1)
                              if sit.hostile_in(x.faction, forces[j].faction, place)), None)
                if below is None:
                    continue
                y = forces[below]
                storm = y.side == StackSide.HOLDER and walled
                if storm and (x.storms >= limit or self.storms_at.get(place, 0) >= cap):
                    continue   # R7: out of storms this turn: it stays as a besieger
                pick = (x, y, storm)
                break
            if pick is None:
                return
            x, y, storm = pick
            if not self._fight(place, Domain.LAND, forces, x, y, storm):
                return

    def _resolve_sea(self, place: str, forces: list[Force]) -> None:
        # R6.6: only a fleet attack starts a naval battle; the attacker fights the target faction's fleets.
        while True:
            pick = None
            for i in range(len(forces) - 1, 0, -1):
                x = forces[i]
                if x.target_faction is None:
                    continue
                below = next((j for j in range(i - 1, -1, -1) if forces[j].faction == x.target_faction), None)
                if below is not None:
                    pick = (x, forces[below])
                    break
            if pick is None:
                return
            if not self._fight(place, Domain.SEA, forces, pick[0], pick[1], False):
                return

    def _side(self, force: Force, role: Role, n: int, place: str, with_garrison: bool, holds_walls: bool) -> Side:
        world = self.world
        stacks = [Stack(u, world.troops[u], world.units[u].commanders)
                  for u in sorted(force.units, key=lambda u: (world.units[u].number, u))]
        if with_garrison:
            stacks.append(Stack(GARRISON_KEY, world.garrison[place]))
        mods = tuple(m for m in self.case.choices.modifiers if m.battle == n and m.side == role)
        return Side(force.faction, tuple(stacks), holds_walls, n in self.case.choices.greek_fire, mods)

    def _fight(self, place: str, domain: Domain, forces: list[Force], x: Force, y: Force, storm: bool) -> bool:
        """One autobattle of x (attacking) against y; False when it awaits dice."""
        world, sit = self.world, self.sit
        n = len(self.fought) + 1
        garrison = y.side == StackSide.HOLDER and bool(world.garrison[place])
        eng = Engagement(place, domain, storm,
                         self._side(x, Role.ATTACKER, n, place, False, False),
                         self._side(y, Role.DEFENDER, n, place, garrison, y.holds_walls))
        count = dice_count(sit, eng)
        storm_no = self.storms_at.get(place, 0) + 1 if storm else None
        header = {"n": n, "province": place, "domain": domain.value, "storm": storm, "storm_no": storm_no}
        att = {"faction": x.faction, "units": sorted(x.units, key=lambda u: (world.units[u].number, u)),
               "garrison": False}
        dfd = {"faction": y.faction, "units": sorted(y.units, key=lambda u: (world.units[u].number, u)),
               "garrison": garrison}
        outside = self.case.choices.outcomes.get(n)
        if outside is not None:
            # A battle decided elsewhere (a table of another rule system): no dice are rolled for it.
            if outside.province is not None and outside.province != place:
                raise CaseError(f"choices.outcomes.{n}",
                                f"battle {n} is at {place}, not at {outside.province}")
            result = decided(sit, eng, outside.outcome, (outside.attacker_losses, outside.defender_losses),
                             self.state)
            return self._after(place, domain, forces, x, y, storm, storm_no, header, att, dfd, result,
                               outside=True)
        try:
            roll, index = self.dice.next(count)
        except DiceExhausted:
            # What moderators explain at the table before the dice: both sides
            # itemised (R8-R10) and the exact odds over every roll.
            # Each stack's cards and commanders going into it, for a battle fought elsewhere (a table).
            stacks = {role: {"before": {s.key: list(s.troops) for s in side.stacks},
                             "commanders": {s.key: [c.to_dict() for c in s.commanders] for s in side.stacks}}
                      for role, side in (("attacker", eng.attacker), ("defender", eng.defender))}
            self.awaiting = {**header, "attacker": {**att, **stacks["attacker"]},
                             "defender": {**dfd, **stacks["defender"]},
                             "dice_count": {"attacker": count, "defender": count},
                             "odds": battle_odds_of(sit, eng, self.state)}
            return False
        for role, values in (("attacker", roll.attacker), ("defender", roll.defender)):
            if len(values) != count:
                raise CaseError(f"dice[{index}].{role}",
                                f"battle {n} at {place} needs {count} {'die' if count == 1 else 'dice'} per side "
                                f"(R8: two when a side counts more than {sit.rules.two_dice_above_men} men), "
                                f"got {len(values)}")
        result = fight(sit, eng, roll, self.state)
        return self._after(place, domain, forces, x, y, storm, storm_no, header, att, dfd, result)

    def _after(self, place: str, domain: Domain, forces: list[Force], x: Force, y: Force, storm: bool,
               storm_no: int | None, header: dict, att: dict, dfd: dict, result, *, outside: bool = False) -> bool:
        """What one fight (an autobattle, or a battle decided elsewhere) does to the stack (R6.5, R7, R11, R12)."""
        world, sit = self.world, self.sit
        self.state = result.special_state
        entry = result.to_dict()
        entry["attacker"] = {**att, **entry["attacker"]}
        entry["defender"] = {**dfd, **entry["defender"]}
        if outside:
            entry["outside"] = True
        self.fought.append({**header, **entry})

        # Losses: re-made cards, destroyed stacks.
        for side_result in (result.attacker, result.defender):
            for key, troops in side_result.remaining.items():
                if key == GARRISON_KEY:
                    world.garrison[place] = troops
                    if not troops:
                        self.destroyed["garrisons"].append(place)
                else:
                    world.troops[key] = troops
                    if not troops:
                        self._destroy(key)
        for f in (x, y):
            f.units = [u for u in f.units if u in world.loc]
        y_garrison = y.side == StackSide.HOLDER and bool(world.garrison[place])
        y.garrison = y_garrison
        x_alive, y_alive = bool(x.units), bool(y.units) or y_garrison

        outcome = result.outcome
        victor: Force | None = None      # the winner, if it is still there to take the province
        beaten: Force | None = None      # the force that lost the fight and left
        naval = domain == Domain.SEA
        if storm:
            x.storms += 1
            self.storms_at[place] = storm_no
            if not y_alive:
                # R7: the last defender died: the fortress falls whatever the storm's result.
                victor = x if x_alive else None
                beaten = y
            elif outcome != Outcome.ATTACKER_WON:
                self._leave(forces, x, place, RetreatReason.REPELLED)
        elif outcome == Outcome.ATTACKER_WON:
            self._leave(forces, y, place, RetreatReason.LOST_NAVAL_BATTLE if naval else RetreatReason.LOST_FIELD_BATTLE)
            victor = x if x_alive else None
            beaten = y
        else:
            # R12: a tie counts as a failed attack.
            self._leave(forces, x, place, RetreatReason.REPELLED)
            victor = y if y_alive and y.units else None
            if outcome == Outcome.DEFENDER_WON:
                beaten = x
        forces[:] = [f for f in forces if f.units or (f.side == StackSide.HOLDER and f.garrison)]
        if beaten is not None and not naval:
            winner = x if beaten is y else y
            taking = self.mv.takings.get(place)
            if (taking is not None and winner.faction is not None and winner.faction == world.owner_start[place]
                    and sit.same_side(beaten.faction, taking.faction)):
                # R12 ruling of 2026-11-23: the owner's own army that beats the taker in the same
                # turn cancels the taking (no friendly fire between a faction and itself).
                self.mv.cancel_taking(place)
        if victor is not None and not naval and victor in forces:
            owner = world.owner_start[place]
            o_side = any((f.side == StackSide.HOLDER and f.garrison)
                         or (owner is not None and f.units and sit.same_side(f.faction, owner)) for f in forces)
            self.mv.record_taking(place, victor.units[0], o_side)
        return True

    def _leave(self, forces: list[Force], force: Force, place: str, reason: RetreatReason) -> None:
        """The loser leaves the stack; its units retreat at regroup (R12)."""
        if force.side == StackSide.HOLDER and force.garrison:
            # A garrison cannot retreat: beaten in the field (a fortress-less province), it is gone.
            self.world.garrison[place] = ()
            self.destroyed["garrisons"].append(place)
            force.garrison = False
        back = force.back if force.side == StackSide.ARRIVAL and reason == RetreatReason.REPELLED else None
        for u in sorted(force.units, key=lambda u: (self.world.units[u].number, u)):
            self.defeats.append((u, place, reason, back))
        force.units = []

    def _destroy(self, uid: str) -> None:
        world = self.world
        unit = world.units[uid]
        world.remove(uid)
        self.destroyed["fleets" if unit.is_fleet else "armies"].append(uid)
        capital = self.sit.factions[unit.faction].capital
        for c in unit.commanders:
            # R11: commanders of a destroyed stack wait unattached at the faction's capital.
            self.unattached.append({"name": c.name, "power": c.power, "faction": unit.faction, "province": capital})

    # --- regroup (R12) -------------------------------------------------------------------
    def _distance(self, faction: str, naval: bool) -> dict[str, int]:
        """Steps from the faction's capital: land borders for armies, every border for fleets."""
        key = (faction, naval)
        if key not in self._distances:
            sit = self.sit
            capital = sit.factions[faction].capital
            dist: dict[str, int] = {}
            if capital in sit.provinces:
                dist[capital] = 0
                queue = deque([capital])
                while queue:
                    p = queue.popleft()
                    nexts = sit.land_adj[p] if not naval else sit.land_adj[p] + sit.coast[p] + sit.sea_adj[p]
                    for q in nexts:
                        if q not in dist:
                            dist[q] = dist[p] + 1
                            queue.append(q)
            self._distances[key] = dist
        return self._distances[key]

    def _hostile_at(self, faction: str, place: str) -> bool:
        world = self.world
        # Distinct factions there, not every unit: a retreat into a crowded province stays cheap.
        return any(self.sit.hostile_in(faction, other, place) for other in world.factions_at[place])

    def _retreat_candidates(self, faction: str, place: str, naval: bool) -> tuple[list[str], set[str]]:
        """R12: the places a defeated defender of `faction` at `place` may go before hostile armies are
        considered (adjacent zones; adjacent land friendly at the start of the turn), default order first
        (nearest the capital, then by id). Fixed for the turn, so computed once per faction and place."""
        key = (faction, place, naval)
        cached = self._candidates.get(key)
        if cached is None:
            sit, world = self.sit, self.world
            if naval:
                found = list(sit.sea_adj[place])
            else:
                found = [p for p in sit.land_adj[place] if sit.friendly_to(faction, world.owner_start[p])]
            dist = self._distance(faction, naval)
            found.sort(key=lambda p: (dist.get(p, UNREACHABLE), p))
            cached = self._candidates[key] = (found, set(found))
        return cached

    def retreat_options(self, uid: str, place: str, limit: int | None = None) -> list[str]:
        """R12: where a defeated defender may go, default first; at most `limit` of them."""
        unit = self.world.units[uid]
        out: list[str] = []
        for p in self._retreat_candidates(unit.faction, place, unit.is_fleet)[0]:
            if not self._hostile_at(unit.faction, p):
                out.append(p)
                if limit is not None and len(out) >= limit:
                    break
        return out

    def _may_retreat_to(self, uid: str, place: str, dest: str) -> bool:
        unit = self.world.units[uid]
        return (dest in self._retreat_candidates(unit.faction, place, unit.is_fleet)[1]
                and not self._hostile_at(unit.faction, dest))

    def _regroup(self) -> None:
        world = self.world
        # The losers left their stacks when they lost (R6.5): while retreats are
        # decided, in the order of the defeats, none of them stands anywhere.
        defeats = [d for d in self.defeats if d[0] in world.loc]
        for uid, *_ in defeats:
            world.lift(uid)
        for uid, place, reason, back in defeats:
            unit = world.units[uid]
            # Only the first RETREAT_OPTIONS_LISTED legal places are listed (a stack of n armies
            # beside n provinces would otherwise list n*n); any legal place may be chosen.
            options = self.retreat_options(uid, place, RETREAT_OPTIONS_LISTED)
            back_ok = back is not None and back != place and not self._hostile_at(unit.faction, back)
            if back_ok:
                # R12: a defeated attacker goes back where it came from (by sea: its start).
                options = ([back] + [o for o in options if o != back])[:RETREAT_OPTIONS_LISTED]
            chosen = self.case.choices.retreats.get(uid)
            if chosen is not None:
                if not ((back_ok and chosen == back) or self._may_retreat_to(uid, place, chosen)):
                    raise CaseError(f"choices.retreats.{uid}",
                                    f"{chosen!r} is not a legal retreat from {place} (R12); legal: "
                                    + (", ".join(options) or "none")
                                    + (" …" if len(options) >= RETREAT_OPTIONS_LISTED else ""))
                dest = chosen
            else:
                dest = options[0] if options else None
            self.retreats.append({"unit": uid, "from": place, "to": dest, "destroyed": dest is None,
                                  "reason": reason.value, "options": list(options)})
            world.put(uid, dest if dest is not None else place)
            if dest is None:
                self._destroy(uid)

    def recoloured(self) -> list[dict]:
        out = []
        for province in self.mv.taking_order:
            t = self.mv.takings[province]
            out.append({"province": province, "from": self.world.owner_start[province], "to": t.faction,
                        "by": t.unit})
        return out

    def state_dict(self) -> dict:
        sit, world = self.sit, self.world
        owners = dict(world.owner_start)
        for province in self.mv.taking_order:
            owners[province] = self.mv.takings[province].faction
        provinces = {p.id: {"domain": p.domain.value, "owner": owners[p.id], "capital_of": p.capital_of,
                            "fortress": p.fortress, "special": p.special, "garrison": list(world.garrison[p.id])}
                     for p in sit.provinces.values()}

        def unit_dict(u, place_key: str) -> dict:
            return {"faction": u.faction, "number": u.number, place_key: world.loc[u.id],
                    "troops": list(world.troops[u.id]), "commanders": [c.to_dict() for c in u.commanders]}

        return {"provinces": provinces,
                "armies": {a.id: unit_dict(a, "province") for a in sit.armies.values() if a.id in world.loc},
                "fleets": {f.id: unit_dict(f, "sea") for f in sit.fleets.values() if f.id in world.loc},
                "special_state": self.state}

    def result(self) -> dict:
        out = dict(self.movement_result)
        out["fought"] = self.fought
        if self.awaiting is not None:
            out["awaiting"] = self.awaiting
            return out
        out["retreats"] = self.retreats
        out["destroyed"] = self.destroyed
        out["recoloured"] = self.recoloured()
        out["unattached_commanders"] = self.unattached
        out["state"] = self.state_dict()
        return out
