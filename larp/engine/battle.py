"""One autobattle: R8 totals, R9 conditions, R10 specials, R11 losses and re-making.

Pure functions of a `Situation`, an `Engagement` (who fights whom, where) and
the special state before the battle. The turn (turn.py) and the `battle`
mode both come through `fight`; `odds` reuses `assess`, which is everything
except the dice.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .model import (
    GARRISON_KEY, STATE_CHARGES, STATE_LOST, STATE_USED, Commander, DiceRoll, Domain, Modifier,
    Decision, Fate, Outcome, Role, decide, Situation, SpecialKind, TroopDomain, TroopType,
)
from .rules import loss_points, strength_band


@dataclass(frozen=True, slots=True)
class Stack:
    """The cards of one army, fleet or garrison (key: unit id or "garrison")."""
    key: str
    troops: tuple[str, ...]
    commanders: tuple[Commander, ...] = ()


@dataclass(frozen=True, slots=True)
class Side:
    faction: str | None
    stacks: tuple[Stack, ...]          # loss order (R11): armies by number, then the garrison
    holds_walls: bool = False          # R9: garrison, owner's armies, allies there at the start
    greek_fire: bool = False           # R10: a charge is chosen for this battle
    modifiers: tuple[Modifier, ...] = ()


@dataclass(frozen=True, slots=True)
class Engagement:
    province: str
    domain: Domain
    storm: bool
    attacker: Side
    defender: Side


@dataclass(slots=True)
class Assessment:
    """Both sides' totals before dice, and what the battle does to the special state."""
    items: dict[Role, list[dict]]
    base: dict[Role, int]
    state_updates: dict[str, dict] = field(default_factory=dict)
    loses_on_defeat: tuple[str, ...] = ()   # attacking_until_defeat specials of the attacker


@dataclass(slots=True)
class SideResult:
    total: int | None                  # None: a battle decided elsewhere (no totals, no dice)
    items: list[dict]
    men: int
    dice: tuple[int, ...]
    losses: int
    remaining: dict[str, tuple[str, ...]]
    destroyed: list[str]
    before: dict[str, tuple[str, ...]] = field(default_factory=dict)   # each stack's cards going in
    fates: dict[str, Fate] = field(default_factory=dict)               # what the battle does to each stack

    def to_dict(self) -> dict:
        return {"total": self.total, "items": self.items, "men": self.men, "dice": list(self.dice),
                "losses": self.losses,
                "remaining": {k: list(v) for k, v in self.remaining.items()},
                "destroyed": list(self.destroyed),
                "before": {k: list(v) for k, v in self.before.items()},
                "fates": {k: v.value for k, v in self.fates.items()}}


@dataclass(slots=True)
class BattleResult:
    attacker: SideResult
    defender: SideResult
    difference: int | None
    band: int | None
    outcome: Outcome
    special_state: dict[str, dict]
    loser: Role = Role.ATTACKER
    decision: Decision | None = None

    @property
    def winner(self) -> str | None:
        """The side that won: the totals' winner, except that a storm taking the fortress is the attacker's
        victory whatever the totals (R7; R10 ruling of 2026-11-23)."""
        if self.decision == Decision.FORTRESS_TAKEN:
            return "attacker"
        return {Outcome.ATTACKER_WON: "attacker", Outcome.DEFENDER_WON: "defender"}.get(self.outcome, "tie")

    def to_dict(self) -> dict:
        return {"attacker": self.attacker.to_dict(), "defender": self.defender.to_dict(),
                "difference": self.difference, "band": self.band, "winner": self.winner,
                "outcome": self.outcome.value, "decision": (self.decision or self.outcome).value,
                "loser": self.loser.value, "special_state": self.special_state}


# --- R8 ------------------------------------------------------------------------

def stack_power(sit: Situation, troops: tuple[str, ...]) -> int:
    types = sit.troop_types
    return sum(types[t].power for t in troops)


def side_men(sit: Situation, side: Side) -> int:
    types = sit.troop_types
    return sum(types[t].men for s in side.stacks for t in s.troops)


def dice_count(sit: Situation, eng: Engagement) -> int:
    """R8: both sides roll two dice if either side counts more than the threshold."""
    limit = sit.rules.two_dice_above_men
    return 2 if side_men(sit, eng.attacker) > limit or side_men(sit, eng.defender) > limit else 1


# --- R9 / R10 --------------------------------------------------------------------

def _defence(sit: Situation, eng: Engagement, side: Side) -> int:
    rules = sit.rules
    if eng.domain == Domain.SEA or not side.holds_walls:
        return rules.defence_field
    province = sit.provinces[eng.province]
    # R9 ruling: the best position applies, they do not add up.
    best = rules.defence_field
    if province.fortress:
        best = max(best, rules.defence_fortress)
    if province.capital_of is not None:
        best = max(best, rules.defence_capital)
    return best


def _specials(sit: Situation, eng: Engagement, role: Role, side: Side, opponent: Side,
              state: dict[str, dict], updates: dict[str, dict], items: list[dict]) -> list[str]:
    """Append R10 items for one side; record state changes; return the side's attacking_until_defeat ids."""
    if eng.domain != Domain.LAND:
        return []   # R10 ruling: specials are land-only (the naval chapter is missing)
    rules = sit.rules
    province = sit.provinces[eng.province]
    # City specials belong to whoever holds the walls, a neutral garrison included.
    if role == Role.DEFENDER and side.holds_walls and province.special is not None:
        city = rules.specials[province.special]
        if city.kind == SpecialKind.CITY_DEFENCE:
            items.append({"source": city.id, "value": city.bonus})
    if side.faction is None:
        return []
    faction = sit.factions[side.faction]
    until_defeat: list[str] = []
    for sid in sit.faction_specials(side.faction):
        sp = rules.specials[sid]
        entry = state.get(sid, {})
        kind = sp.kind
        if kind == SpecialKind.EVERY_LAND_BATTLE:
            items.append({"source": sid, "value": sp.bonus})
        elif kind == SpecialKind.ON_START_PROVINCES:
            if province.id in faction.start_provinces:
                items.append({"source": sid, "value": sp.bonus})
        elif kind == SpecialKind.ATTACKING_UNTIL_DEFEAT:
            if role == Role.ATTACKER and not entry.get(STATE_LOST, False):
                items.append({"source": sid, "value": sp.bonus})
                until_defeat.append(sid)
        elif kind == SpecialKind.FIRST_BATTLE_DEFENDING:
            against = opponent.faction is not None and (sp.against is None or opponent.faction == sp.against)
            if against and not entry.get(STATE_USED, False):
                # The first such battle uses it up whoever attacks; the bonus only when defending.
                if role == Role.DEFENDER:
                    items.append({"source": sid, "value": sp.bonus})
                updates[sid] = {**entry, STATE_USED: True}
        elif kind == SpecialKind.CHARGES_AT_FORTRESS:
            charges = updates.get(sid, entry).get(STATE_CHARGES, sp.charges)
            eligible = eng.storm if role == Role.ATTACKER else (side.holds_walls and province.walled)
            if side.greek_fire and eligible and charges > 0:
                items.append({"source": sid, "value": sp.bonus})
                updates[sid] = {**entry, STATE_CHARGES: charges - 1}
    return until_defeat


def assess(sit: Situation, eng: Engagement, state: dict[str, dict]) -> Assessment:
    """Each side's itemised total without dice (R8-R10)."""
    rules = sit.rules
    items: dict[Role, list[dict]] = {}
    base: dict[Role, int] = {}
    updates: dict[str, dict] = {}
    until_defeat: list[str] = []
    for role, side, opponent in ((Role.ATTACKER, eng.attacker, eng.defender),
                                 (Role.DEFENDER, eng.defender, eng.attacker)):
        its = [{"source": "troops", "value": sum(stack_power(sit, s.troops) for s in side.stacks)},
               {"source": "commanders", "value": sum(c.power for s in side.stacks for c in s.commanders)}]
        if role == Role.DEFENDER:
            its.append({"source": "defence", "value": _defence(sit, eng, side)})
        elif (eng.domain == Domain.LAND and side.faction is not None
              and eng.province in sit.factions[side.faction].start_provinces):
            its.append({"source": "militia", "value": rules.militia})
        found = _specials(sit, eng, role, side, opponent, state, updates, its)
        if role == Role.ATTACKER:
            until_defeat = found
        for m in side.modifiers:
            its.append({"source": "modifier", "value": m.value, "reason": m.reason})
        items[role] = its
        base[role] = sum(i["value"] for i in its)
    return Assessment(items, base, updates, tuple(until_defeat))


# --- R11 ----------------------------------------------------------------------------

def remake_order(sit: Situation, domain: TroopDomain) -> list[TroopType]:
    """The cards greedy re-making uses: the stack's domain, largest power first."""
    cards = [t for t in sit.troop_types.values() if t.domain == domain and t.power > 0]
    return sorted(cards, key=lambda t: -t.power)   # stable: equal powers keep the case's order


def remake(power: int, cards: list[TroopType]) -> tuple[tuple[str, ...], int]:
    """R11 greedy re-making: (cards, dropped remainder smaller than the smallest card)."""
    out: list[str] = []
    for t in cards:
        n, power = divmod(power, t.power)
        out.extend([t.id] * n)
    return tuple(out), power


def apply_losses(sit: Situation, stacks: tuple[Stack, ...], losses: int, domain: Domain
                 ) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    """R11: take `losses` power points stack by stack, re-make each stack that lost any.

    Returns (remaining cards per stack key, keys of stacks reduced to nothing).
    Stacks that lost nothing keep their cards as they are; empty stacks are skipped.
    """
    cards = remake_order(sit, TroopDomain.NAVAL if domain == Domain.SEA else TroopDomain.LAND)
    remaining: dict[str, tuple[str, ...]] = {}
    destroyed: list[str] = []
    left = losses
    for s in stacks:
        if not s.troops:
            continue
        power = stack_power(sit, s.troops)
        take = min(left, power)
        left -= take
        troops = remake(power - take, cards)[0] if take > 0 else s.troops
        remaining[s.key] = troops
        if not troops:
            destroyed.append(s.key)
    return remaining, destroyed


def fight(sit: Situation, eng: Engagement, roll: DiceRoll, state: dict[str, dict]) -> BattleResult:
    """One autobattle with the given dice: totals, winner, losses, re-made stacks, new special state."""
    a = assess(sit, eng, state)
    totals = {}
    for role, dice in ((Role.ATTACKER, roll.attacker), (Role.DEFENDER, roll.defender)):
        a.items[role].append({"source": "dice", "value": sum(dice)})
        totals[role] = a.base[role] + sum(dice)
    at, dt = totals[Role.ATTACKER], totals[Role.DEFENDER]
    difference = abs(at - dt)
    band = strength_band(sit.rules, min(at, dt))
    winner_loss, loser_loss = loss_points(sit.rules, difference, band)
    if at > dt:
        outcome, losses = Outcome.ATTACKER_WON, (winner_loss, loser_loss)
    elif dt > at:
        outcome, losses = Outcome.DEFENDER_WON, (loser_loss, winner_loss)
    else:
        outcome, losses = Outcome.TIE, (winner_loss, loser_loss)
    return settle(sit, eng, a, outcome, losses, (totals[Role.ATTACKER], totals[Role.DEFENDER]),
                  (roll.attacker, roll.defender), difference, band, state)


def decided(sit: Situation, eng: Engagement, outcome: Outcome, losses: tuple[int, int],
            state: dict[str, dict]) -> BattleResult:
    """A battle decided elsewhere (choices.outcomes): no dice and no totals, the given winner and the
    given losses in power points, applied by R11 exactly as an autobattle's; the specials' state
    changes as after an autobattle with that outcome (R10)."""
    a = assess(sit, eng, state)
    return settle(sit, eng, a, outcome, losses, (None, None), ((), ()), None, None, state)


def settle(sit: Situation, eng: Engagement, a: Assessment, outcome: Outcome, losses: tuple[int, int],
           totals: tuple[int | None, int | None], dice: tuple[tuple[int, ...], tuple[int, ...]],
           difference: int | None, band: int | None, state: dict[str, dict]) -> BattleResult:
    """R11 losses applied to both sides, R10 state changes, R7/R12 loser and each stack's fate."""
    results = []
    for role, side, side_dice, loss, total in ((Role.ATTACKER, eng.attacker, dice[0], losses[0], totals[0]),
                                               (Role.DEFENDER, eng.defender, dice[1], losses[1], totals[1])):
        remaining, destroyed = apply_losses(sit, side.stacks, loss, eng.domain)
        results.append(SideResult(total, a.items[role], side_men(sit, side), tuple(side_dice), loss,
                                  remaining, destroyed))
    # R10 ruling of 2026-11-23: a storm that destroys the last defender takes the fortress (R7),
    # and that is a victory of the attacker for every special, whatever the totals.
    left = results[1].remaining
    fortress_taken = eng.storm and bool(left) and not any(left.values())
    new_state = {k: dict(v) for k, v in state.items()}
    for sid, entry in a.state_updates.items():
        new_state[sid] = entry
    if outcome == Outcome.DEFENDER_WON and not fortress_taken:
        # R10: lost for good at the first defeat as attacker (a tie is not a defeat).
        for sid in a.loses_on_defeat:
            new_state[sid] = {**new_state.get(sid, {}), STATE_LOST: True}
    loser = Role.DEFENDER if outcome == Outcome.ATTACKER_WON or fortress_taken else Role.ATTACKER
    for role, side, result in ((Role.ATTACKER, eng.attacker, results[0]), (Role.DEFENDER, eng.defender, results[1])):
        result.before = {s.key: s.troops for s in side.stacks}
        result.fates = {s.key: fate(role, loser, eng.storm, s.key, s.troops, result.remaining.get(s.key, s.troops))
                        for s in side.stacks}
    decision = decide(outcome, eng.storm, any(results[0].remaining.values()), bool(left), any(left.values()))
    return BattleResult(results[0], results[1], difference, band, outcome, new_state, loser, decision)


def fate(role: Role, loser: Role, storm: bool, key: str, before: tuple[str, ...], remaining: tuple[str, ...]) -> Fate:
    """What one battle does to one stack (R7, R11, R12).

    The loser is the attacker on a tie (R12: a failed attack) and the defender
    when a storm destroys the last defender (R7: the fortress falls whatever
    the totals). A beaten attacker falls back; a beaten defender retreats at
    regroup, except behind walls after a storm; a garrison cannot retreat, so
    beaten in the field it is destroyed.
    """
    if before and not remaining:
        return Fate.DESTROYED
    if role != loser:
        return Fate.STAYS
    if role == Role.ATTACKER:
        return Fate.REPELLED
    if storm:
        return Fate.BESIEGED
    return Fate.DESTROYED if key == GARRISON_KEY else Fate.RETREATS


def engagement_from_spec(sit: Situation, spec) -> Engagement:
    """The `battle` object of a battle/odds case -> Engagement (armies by number, then the garrison)."""
    def side(s, greek_fire: bool, role: Role) -> Side:
        units = sorted((sit.unit(u) for u in s.units), key=lambda u: (u.number, u.id))
        stacks = [Stack(u.id, u.troops, u.commanders) for u in units]
        if s.garrison:
            stacks.append(Stack(GARRISON_KEY, sit.provinces[spec.province].garrison))
        return Side(s.faction, tuple(stacks), s.holds_walls, greek_fire,
                    tuple(m for m in spec.modifiers if m.side == role))

    return Engagement(spec.province, spec.domain, spec.storm,
                      side(spec.attacker, spec.greek_fire_attacker, Role.ATTACKER),
                      side(spec.defender, spec.greek_fire_defender, Role.DEFENDER))
