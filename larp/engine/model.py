"""The situation as immutable data, and the named values the engine uses.

Everything here is a frozen dataclass or an enum. Mappings keyed by id are
plain dicts built once by `case.parse_case` and never mutated afterwards; they
keep the order of the case document, which is the only order the engine
iterates them in (sets are used for membership only).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Domain(StrEnum):
    """A province's domain (R1)."""
    LAND = "land"
    SEA = "sea"


class TroopDomain(StrEnum):
    """A troop type's domain (R1): land cards for armies and garrisons, naval for fleets."""
    LAND = "land"
    NAVAL = "naval"


class OrderType(StrEnum):
    """R5 order kinds."""
    HOLD = "hold"
    MARCH = "march"
    ATTACK = "attack"
    SEA_ATTACK = "sea_attack"
    LANDING = "landing"
    FLEET_MOVE = "fleet_move"
    FLEET_ATTACK = "fleet_attack"


ARMY_ORDERS = frozenset({OrderType.MARCH, OrderType.ATTACK, OrderType.SEA_ATTACK, OrderType.LANDING})
FLEET_ORDERS = frozenset({OrderType.FLEET_MOVE, OrderType.FLEET_ATTACK})
LAND_PATH_ORDERS = frozenset({OrderType.MARCH, OrderType.ATTACK})
SEA_ARMY_ORDERS = frozenset({OrderType.SEA_ATTACK, OrderType.LANDING})


class RelationKind(StrEnum):
    ALLIANCE = "alliance"
    PASSAGE = "passage"


class Role(StrEnum):
    """The two sides of one autobattle."""
    ATTACKER = "attacker"
    DEFENDER = "defender"


class StackSide(StrEnum):
    """A force's place in a battle stack (R6.5), bottom to top."""
    HOLDER = "holder"
    PRESENT = "present"
    ARRIVAL = "arrival"


class MoveResult(StrEnum):
    """What became of one unit's order in the Movement phase (R6)."""
    MOVED = "moved"
    OCCUPIED = "occupied"
    BATTLE = "battle"
    PINNED = "pinned"
    FAILED = "failed"
    HELD = "held"


class Outcome(StrEnum):
    ATTACKER_WON = "attacker_won"
    DEFENDER_WON = "defender_won"
    TIE = "tie"


class Decision(StrEnum):
    """What a battle decided, as every screen and paper tells it (R7, R10, R12 and their rulings).

    `outcome` is the totals' verdict; the decision also knows what the losses left standing. A storm
    that destroys the last defender takes the fortress whatever the totals (R7; a victory of the
    attacker, R10 ruling of 2026-11-23); a side that wins but is destroyed by its own losses still
    won, and nobody takes the province by that battle (R12 ruling of 2026-11-23).
    """
    ATTACKER_WON = "attacker_won"
    DEFENDER_WON = "defender_won"
    TIE = "tie"
    FORTRESS_TAKEN = "fortress_taken"                   # storm: the last defender fell, the stormer holds the walls
    FORTRESS_EMPTIED = "fortress_emptied"               # storm: the last defender fell, and so did the stormer
    ATTACKER_WON_DESTROYED = "attacker_won_destroyed"   # won on totals, destroyed by its own losses
    DEFENDER_WON_DESTROYED = "defender_won_destroyed"


def decide(outcome: Outcome, storm: bool, attacker_left: bool, defenders_before: bool,
           defender_left: bool) -> Decision:
    """The decision of one battle from the totals' outcome and what stands after the losses."""
    if storm and defenders_before and not defender_left:
        return Decision.FORTRESS_TAKEN if attacker_left else Decision.FORTRESS_EMPTIED
    if outcome == Outcome.ATTACKER_WON:
        return Decision.ATTACKER_WON if attacker_left else Decision.ATTACKER_WON_DESTROYED
    if outcome == Outcome.DEFENDER_WON:
        return Decision.DEFENDER_WON if defender_left else Decision.DEFENDER_WON_DESTROYED
    return Decision.TIE


class Fate(StrEnum):
    """What one battle does to one stack of a side (R7, R11, R12), as fought[].<side>.fates says."""
    STAYS = "stays"            # the winner, or a side that was not beaten: it stays in the province
    DESTROYED = "destroyed"    # reduced to no cards (R11), or a garrison beaten in the field
    RETREATS = "retreats"      # a beaten defender: it retreats at regroup (R12, see retreats[])
    REPELLED = "repelled"      # a beaten or tied attacker: it falls back at regroup (R12)
    BESIEGED = "besieged"      # a storm's defender that lost the storm but holds the walls (R7)


class RetreatReason(StrEnum):
    """Why a unit leaves a battle province at regroup (R12)."""
    LOST_FIELD_BATTLE = "lost_field_battle"
    LOST_NAVAL_BATTLE = "lost_naval_battle"
    REPELLED = "repelled"


class RefusalCode(StrEnum):
    """Why an order was refused when filed (R5); see docs/adjudication.md."""
    WRONG_UNIT_KIND = "wrong_unit_kind"
    PATH_LENGTH = "path_length"
    NOT_ADJACENT = "not_adjacent"
    NOT_LAND = "not_land"
    NOT_SEA = "not_sea"
    REPEATED_PROVINCE = "repeated_province"
    NOT_FRIENDLY = "not_friendly"
    TARGET_FRIENDLY = "target_friendly"
    FLEET_NOT_OWN = "fleet_not_own"
    FLEET_NOT_THERE = "fleet_not_there"
    FLEET_BUSY = "fleet_busy"
    FLEET_CARRYING = "fleet_carrying"
    TARGET_NOT_HOSTILE = "target_not_hostile"
    UNIT_DESTROYED = "unit_destroyed"


class SpecialKind(StrEnum):
    """How a special of R10 works; the scenario names the kind of each special."""
    CITY_DEFENCE = "city_defence"
    FIRST_BATTLE_DEFENDING = "first_battle_defending"
    ON_START_PROVINCES = "on_start_provinces"
    ATTACKING_UNTIL_DEFEAT = "attacking_until_defeat"
    CHARGES_AT_FORTRESS = "charges_at_fortress"
    EVERY_LAND_BATTLE = "every_land_battle"


# Keys of `special_state` (per special id), as the contract names them.
STATE_USED = "used"          # first_battle_defending (meander_miracle)
STATE_LOST = "lost"          # attacking_until_defeat (victory_march)
STATE_CHARGES = "charges"    # charges_at_fortress (greek_fire_land)

GARRISON_KEY = "garrison"    # the key of a garrison in `remaining`


@dataclass(frozen=True, slots=True)
class TroopType:
    id: str
    power: int
    men: int
    domain: TroopDomain


@dataclass(frozen=True, slots=True)
class Commander:
    name: str
    power: int

    def to_dict(self) -> dict:
        return {"name": self.name, "power": self.power}


@dataclass(frozen=True, slots=True)
class Faction:
    id: str
    crusader: bool
    capital: str | None
    specials: tuple[str, ...]
    start_provinces: frozenset[str]


@dataclass(frozen=True, slots=True)
class Province:
    id: str
    domain: Domain
    owner: str | None
    capital_of: str | None
    fortress: bool
    special: str | None
    garrison: tuple[str, ...]

    @property
    def walled(self) -> bool:
        """A fortress or a capital: a fight against its holder is a storm (R6.5, R7)."""
        return self.fortress or self.capital_of is not None


@dataclass(frozen=True, slots=True)
class Army:
    """An army (land) or a fleet (sea); `location` is its province or sea zone."""
    id: str
    faction: str
    number: int
    location: str | None
    troops: tuple[str, ...]
    commanders: tuple[Commander, ...]
    is_fleet: bool = False

    @property
    def on_map(self) -> bool:
        # A stack with no cards is destroyed (R11); a unit with no place is not on the map.
        return self.location is not None and bool(self.troops)


@dataclass(frozen=True, slots=True)
class Order:
    unit: str
    type: OrderType
    path: tuple[str, ...] = ()          # march / attack
    fleet: str | None = None            # sea_attack / landing
    sea: tuple[str, ...] = ()           # sea_attack / landing: S1[, S2]; fleet orders: (zone,)
    target: str | None = None           # sea_attack / landing: the province
    target_faction: str | None = None   # fleet_attack
    index: int = -1                     # position in the case's order list (filing order)

    def field(self) -> str:
        return f"orders[{self.index}]" if self.index >= 0 else "order"


@dataclass(frozen=True, slots=True)
class Special:
    id: str
    kind: SpecialKind
    bonus: int
    province: str | None = None   # city_defence
    against: str | None = None    # first_battle_defending
    charges: int = 0              # charges_at_fortress


@dataclass(frozen=True, slots=True)
class LossRow:
    low: int
    high: int
    winner: tuple[int, ...]
    loser: tuple[int, ...]


@dataclass(frozen=True)
class Rules:
    """The tunable tables of R3-R11 (scenario data; defaults in rules.py)."""
    army_max_men: int
    two_dice_above_men: int
    storms_per_turn: int
    defence_field: int
    defence_fortress: int
    defence_capital: int
    militia: int
    band_upper_bounds: tuple[int, ...]
    loss_tie: tuple[int, ...]
    loss_rows: tuple[LossRow, ...]
    specials: dict[str, Special]


@dataclass(frozen=True, slots=True)
class Modifier:
    side: Role
    value: int
    reason: str
    battle: int | None = None   # turn mode: 1-based number of the battle fought


@dataclass(frozen=True, slots=True)
class DiceRoll:
    attacker: tuple[int, ...]
    defender: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Decided:
    """A battle of the turn decided elsewhere (e.g. fought at a table of another rule system).

    No dice are rolled for it: its winner (or a tie) and each side's losses in power points are
    given, and the losses are applied by R11 as an autobattle's are (docs/adjudication.md).
    """
    battle: int                      # 1-based number of the battle fought
    province: str | None             # when given, battle `battle` must be at this province
    outcome: Outcome
    attacker_losses: int
    defender_losses: int


@dataclass(frozen=True)
class Choices:
    greek_fire: frozenset[int] = frozenset()
    storms: dict[str, int] = field(default_factory=dict)
    retreats: dict[str, str] = field(default_factory=dict)
    modifiers: tuple[Modifier, ...] = ()
    outcomes: dict[int, Decided] = field(default_factory=dict)   # battle number -> decided elsewhere


@dataclass(frozen=True, slots=True)
class BattleSideSpec:
    """One side of a `battle`/`odds` case."""
    faction: str | None
    units: tuple[str, ...]
    garrison: bool
    holds_walls: bool


@dataclass(frozen=True, slots=True)
class BattleSpec:
    province: str
    domain: Domain
    storm: bool
    attacker: BattleSideSpec
    defender: BattleSideSpec
    greek_fire_attacker: bool
    greek_fire_defender: bool
    modifiers: tuple[Modifier, ...]


def friendly_to(alliances: frozenset[frozenset[str]], passages: frozenset[tuple[str, str]],
                faction: str | None, owner: str | None) -> bool:
    """R1: a province of `owner` is friendly for `faction`: its own, an ally's, or one whose owner granted it
    passage; neutral never is. Seen from the province, an army not friendly to it is hostile (a siege)."""
    if owner is None or faction is None:
        return False
    return owner == faction or frozenset((owner, faction)) in alliances or (owner, faction) in passages


@dataclass(frozen=True)
class Situation:
    """The map and the forces at the start of a turn (or of one battle)."""
    troop_types: dict[str, TroopType]
    factions: dict[str, Faction]
    alliances: frozenset[frozenset[str]]
    passages: frozenset[tuple[str, str]]          # (granter, grantee)
    provinces: dict[str, Province]
    land_adj: dict[str, tuple[str, ...]]          # land -> bordering land provinces
    coast: dict[str, tuple[str, ...]]             # land -> sea zones it is coastal to, sea -> coastal land
    sea_adj: dict[str, tuple[str, ...]]           # sea -> bordering sea zones
    armies: dict[str, Army]
    fleets: dict[str, Army]
    draw: tuple[str, ...]                         # every faction, in acting order (R4)
    special_state: dict[str, dict]
    rules: Rules

    # --- R1 relations -------------------------------------------------------
    def allied(self, a: str | None, b: str | None) -> bool:
        return a is not None and b is not None and a != b and frozenset((a, b)) in self.alliances

    def grants_passage(self, granter: str | None, grantee: str | None) -> bool:
        return (granter, grantee) in self.passages

    def friendly_to(self, faction: str | None, owner: str | None) -> bool:
        """R1: a province of `owner` is friendly for `faction` (neutral never is)."""
        return friendly_to(self.alliances, self.passages, faction, owner)

    def is_friendly(self, faction: str, province: str) -> bool:
        return self.friendly_to(faction, self.provinces[province].owner)

    def hostile(self, mover: str | None, other: str | None) -> bool:
        """R1: a force of `other` is hostile to a moving force of `mover`.

        A neutral garrison (faction None) is hostile to everyone and everyone to it.
        """
        if mover is None or other is None:
            return True
        return other != mover and not self.allied(mover, other) and (other, mover) not in self.passages

    def hostile_in(self, mover: str | None, other: str | None, place: str) -> bool:
        """R1 in a given province: `hostile`, except that inside a province of a faction that
        granted passage, host and guest are at peace both ways (ruling of 2026-11-23)."""
        if not self.hostile(mover, other):
            return False
        owner = self.provinces[place].owner
        return not (owner is not None and mover == owner and (owner, other) in self.passages)

    def same_side(self, a: str | None, b: str | None) -> bool:
        """Same faction or allied: passed over in a stack, never fought (R6.5)."""
        return a is not None and b is not None and (a == b or self.allied(a, b))

    def unit(self, unit_id: str) -> Army | None:
        return self.armies.get(unit_id) or self.fleets.get(unit_id)

    def faction_specials(self, faction_id: str | None) -> tuple[str, ...]:
        """The faction's listed specials, plus chivalry for a crusader faction (R10)."""
        if faction_id is None:
            return ()
        faction = self.factions[faction_id]
        specials = faction.specials
        if faction.crusader and "chivalry" not in specials and "chivalry" in self.rules.specials:
            specials = specials + ("chivalry",)
        return specials


@dataclass(frozen=True)
class Case:
    """A parsed case document: the situation plus what the mode needs."""
    situation: Situation
    orders: tuple[Order, ...] = ()
    dice: tuple[DiceRoll, ...] = ()          # turn mode: one per autobattle, in order fought
    battle_dice: DiceRoll | None = None      # battle mode
    seed: int | None = None
    choices: Choices = field(default_factory=Choices)
    battle: BattleSpec | None = None
