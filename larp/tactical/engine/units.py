"""Profiles and units of a combat case (T37.2), the casualty order, saves, refilling and thinning (T7, T22)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from . import data as d
from . import fields as f
from . import outcomes as o
from .errors import CaseError

MAX_BASES = 20
TALENTS = ("steadiness", "melee", "specialty")


@dataclass(frozen=True)
class Profile:
    id: str
    category: str
    mounted: bool
    specialty: int | None
    melee: int
    steadiness: int
    weapon: str | None
    javelin: bool
    armour: str | None
    shield: str | None
    horse_armour: str | None


@dataclass(frozen=True)
class General:
    id: str
    profile: Profile          # with the top values of its category (T12.4)
    deputy: bool
    talents: Mapping[str, int]


@dataclass
class Fig:
    rank: int                 # 0-based rank before this round's layout
    profile: str
    disordered: bool
    killed: bool = False


@dataclass
class Unit:
    id: str
    side: str
    formation: str
    special: str | None
    bases: int
    mounted: bool
    figs: list[Fig]
    general: General | None
    in_melee: bool
    fleeing: bool
    field: str
    start_full_ranks: int = 0
    start_ranks: int = 0
    start_special: str | None = None     # a circle tests as a circle after the round, thinned or not
    destroyed: bool = False
    extra: dict = field(default_factory=dict)

    def talent(self, name: str) -> int:
        """T12.8: a grouped general's talent touches every roll of the unit; a deputy has none."""
        if self.general is None or self.general.deputy:
            return 0
        return self.general.talents.get(name, 0)

    def alive(self) -> list[Fig]:
        return [x for x in self.figs if not x.killed]


def profile_of(rules: Mapping, raw: Any, field: str) -> Profile:
    p = f.obj(raw, field)
    pid = f.ident(f.need(p, "id", field), f"{field}.id")
    category = f.choice(f.need(p, "category", field), f"{field}.category", rules["categories"])
    cat = rules["categories"][category]
    has_specialty = "specialty" in cat.get("stat_order", ())
    spec = p.get("specialty")
    specialty = f.opt_integer(spec, f"{field}.specialty", 0, 6)
    if has_specialty and specialty is None:
        raise CaseError(f"{field}.specialty", f"missing: {category} have a specialty (T4.1)")
    weapons = [w for w in rules["weapons"] if w != "javelin"]
    return Profile(
        id=pid, category=category, mounted=bool(cat.get("mounted")), specialty=specialty,
        melee=f.integer(f.need(p, "melee", field), f"{field}.melee", 0, 6),
        steadiness=f.integer(f.need(p, "steadiness", field), f"{field}.steadiness", 0, 6),
        weapon=f.opt_choice(p.get("weapon"), f"{field}.weapon", weapons),
        javelin=f.boolean(p.get("javelin", False), f"{field}.javelin"),
        armour=_slot(rules, p.get("armour"), f"{field}.armour", "body"),
        shield=_slot(rules, p.get("shield"), f"{field}.shield", "shield"),
        horse_armour=_slot(rules, p.get("horse_armour"), f"{field}.horse_armour", "horse"))


def _slot(rules: Mapping, value: Any, field: str, slot: str) -> str | None:
    allowed = [k for k, v in rules["protection"].items() if v["slot"] == slot]
    return f.opt_choice(value, field, allowed)


def top_profile(rules: Mapping, p: Profile) -> Profile:
    """T12.4: the general's figure has the highest values of its troop type."""
    top = rules["generals"]["top_grade"]
    strong_melee = p.category in ("swordsmen", "riders")
    return Profile(p.id, p.category, p.mounted, top["specialty"] if p.specialty is not None else None,
                   top["melee_swordsmen_riders"] if strong_melee else top["melee_others"], top["steadiness"],
                   p.weapon, p.javelin, p.armour, p.shield, p.horse_armour)


def parse_profiles(rules: Mapping, raw: Any) -> dict[str, Profile]:
    if raw is None:
        raise CaseError("profiles", "missing")
    items = f.lst(raw, "profiles", 200)
    profiles = [profile_of(rules, p, f"profiles[{i}]") for i, p in enumerate(items)]
    f.unique_ids([{"id": p.id} for p in profiles], "profiles")
    return {p.id: p for p in profiles}


def _groups(raw: Any, field: str, profiles: Mapping[str, Profile], max_count: int) -> list[tuple[str, int, int]]:
    out = []
    for j, g in enumerate(f.lst(raw, field, 50)):
        gf = f"{field}[{j}]"
        g = f.obj(g, gf)
        pid = f.ident(f.need(g, "profile", gf), f"{gf}.profile")
        if pid not in profiles:
            raise CaseError(f"{gf}.profile", f"unknown profile {pid!r}")
        count = f.integer(f.need(g, "count", gf), f"{gf}.count", 1, max_count)
        dis = f.integer(g.get("disordered", 0), f"{gf}.disordered", 0, count)
        out.append((pid, count, dis))
    return out


def _expand(groups: list[tuple[str, int, int]], rank: int) -> list[Fig]:
    figs = []
    for pid, count, dis in groups:        # within a listed group those in ranks first (T22.2)
        figs += [Fig(rank, pid, False) for _ in range(count - dis)] + [Fig(rank, pid, True) for _ in range(dis)]
    return figs


def parse_unit(rules: Mapping, raw: Any, field: str, profiles: Mapping[str, Profile]) -> Unit:
    u = f.obj(raw, field)
    uid = f.ident(f.need(u, "id", field), f"{field}.id")
    side = f.ident(f.need(u, "side", field), f"{field}.side")
    formation = f.choice(f.need(u, "formation", field), f"{field}.formation", rules["formations"])
    special = f.opt_choice(u.get("special"), f"{field}.special", rules["special_formations"])
    if special and formation not in rules["special_formations"][special].get("base_formations", ()):
        raise CaseError(f"{field}.special", f"a {special} is built on very dense, dense or open formation (T10.4)")
    bases = f.integer(u.get("bases", 1), f"{field}.bases", 1, MAX_BASES)
    max_ranks = rules["bases"]["max_ranks_per_base"] * bases
    widest = max(fm["front"]["foot"] for fm in rules["formations"].values())
    if "ranks" in u and u["ranks"] is not None:
        ranks = f.lst(u["ranks"], f"{field}.ranks", max_ranks + 1)
        figs: list[Fig] = []
        mounted_seen = set()
        for r, rank in enumerate(ranks):
            groups = _groups(rank, f"{field}.ranks[{r}]", profiles, widest)
            if not groups:
                raise CaseError(f"{field}.ranks[{r}]", "an empty rank")
            figs += _expand(groups, r)
            mounted_seen |= {profiles[g[0]].mounted for g in groups}
    elif "figures" in u:
        groups = _groups(u["figures"], f"{field}.figures", profiles, widest * max_ranks)
        figs = _expand(groups, 0)
        mounted_seen = {profiles[g[0]].mounted for g in groups}
        ranks = None
    else:
        raise CaseError(f"{field}.ranks", "missing (give ranks or figures)")
    if not figs:
        raise CaseError(f"{field}.ranks", "a unit has at least one figure")
    if len(mounted_seen) > 1:
        raise CaseError(field, "every figure of a unit is foot or every one mounted (T8.7)")
    mounted = mounted_seen.pop()
    width = d.front(rules, formation, mounted)
    if ranks is not None:
        for r, rank in enumerate(ranks):
            n = sum(1 for x in figs if x.rank == r)
            if n > width:
                raise CaseError(f"{field}.ranks[{r}]", f"{n} figures, more than the {formation} front of {width}")
        if len(ranks) > max_ranks:
            raise CaseError(f"{field}.ranks", f"{len(ranks)} ranks, at most 3 per base ({max_ranks})")
    else:
        for i, x in enumerate(figs):
            x.rank = i // width
        if figs[-1].rank + 1 > max_ranks:
            raise CaseError(f"{field}.figures", f"{len(figs)} figures need more than {max_ranks} ranks of {width}")
    general = None
    if u.get("general") is not None:
        general = parse_general(rules, u["general"], f"{field}.general", profiles)
    unit = Unit(id=uid, side=side, formation=formation, special=special, bases=bases, mounted=mounted, figs=figs,
                general=general, in_melee=f.boolean(u.get("in_melee", False), f"{field}.in_melee"),
                fleeing=f.boolean(u.get("fleeing", False), f"{field}.fleeing"), field=field)
    unit.start_full_ranks = full_ranks(rules, unit)
    unit.start_ranks = len(rank_lists(unit.figs))
    unit.start_special = special
    return unit


def parse_general(rules: Mapping, raw: Any, field: str, profiles: Mapping[str, Profile]) -> General:
    g = f.obj(raw, field)
    pid = f.ident(f.need(g, "profile", field), f"{field}.profile")
    if pid not in profiles:
        raise CaseError(f"{field}.profile", f"unknown profile {pid!r}")
    talents_raw = f.obj(g.get("talents") or {}, f"{field}.talents")
    lo = rules["generals"]["point_buy"]["min_per_quality"]
    hi = max(rules["generals"]["talent_roll"].values())
    talents = {}
    for name in TALENTS:
        talents[name] = f.integer(talents_raw.get(name, 0), f"{field}.talents.{name}", lo, hi)
    for name in talents_raw:
        if name not in TALENTS:
            raise CaseError(f"{field}.talents.{str(name)[:64]}", f"unknown talent; expected {', '.join(TALENTS)}")
    return General(id=f.ident(g.get("id", "general"), f"{field}.id"), profile=top_profile(rules, profiles[pid]),
                   deputy=f.boolean(g.get("deputy", False), f"{field}.deputy"), talents=talents)


def parse_units(rules: Mapping, raw: Any, profiles: Mapping[str, Profile]) -> dict[str, Unit]:
    items = f.lst(raw, "units", 50)
    units = [parse_unit(rules, u, f"units[{i}]", profiles) for i, u in enumerate(items)]
    f.unique_ids([{"id": u.id} for u in units], "units")
    return {u.id: u for u in units}


# ---- ranks, layout, thinning (T22.2, T22.3) -------------------------------------------------------
def rank_lists(figs: list[Fig]) -> list[list[Fig]]:
    ranks: dict[int, list[Fig]] = {}
    for x in figs:
        ranks.setdefault(x.rank, []).append(x)
    return [ranks[r] for r in sorted(ranks)]


def full_ranks(rules: Mapping, unit: Unit) -> int:
    width = d.front(rules, unit.formation, unit.mounted)
    return sum(1 for rank in rank_lists(unit.alive()) if len(rank) == width)


def laid_order(figs: list[Fig]) -> list[Fig]:
    """T22.2 ruling: rank by rank, within a rank as listed, within a listed group those in ranks first.

    A listed group is a run of figures of one profile in a rank (as `ranks_out` lists it); its
    figures in order come before its disordered ones, so a rear rank refills the front with the
    warriors still in order before the disordered ("замещение из задних рядов, даже расстроенными
    воинами": the disordered move up too, but only after them).
    """
    out: list[Fig] = []
    for rank in rank_lists(figs):
        start = 0
        while start < len(rank):
            end = start
            while end < len(rank) and rank[end].profile == rank[start].profile:
                end += 1
            run = rank[start:end]
            out += [x for x in run if not x.disordered] + [x for x in run if x.disordered]
            start = end
    return out


def relayout(rules: Mapping, unit: Unit) -> None:
    """Remove the killed, thin the formation to the first whose front the rest fill, lay the rest rank by rank."""
    left = laid_order([x for x in unit.figs if not x.killed])
    unit.figs = left
    if not left:
        unit.destroyed = True
        return
    order = list(rules["thinning_order"])
    start = order.index(unit.formation) if unit.formation in order else 0
    for name in order[start:]:
        unit.formation = name
        if len(left) >= d.front(rules, name, unit.mounted):
            break
    if unit.special and unit.formation not in rules["special_formations"][unit.special].get("base_formations", ()):
        unit.special = None
    width = d.front(rules, unit.formation, unit.mounted)
    for i, x in enumerate(left):
        x.rank = i // width


def ranks_out(unit: Unit) -> list[list[dict]]:
    out = []
    for rank in rank_lists(unit.figs):
        groups: list[dict] = []
        for x in rank:
            if groups and groups[-1]["profile"] == x.profile:
                groups[-1]["count"] += 1
                groups[-1]["disordered"] += int(x.disordered)
            else:
                groups.append({"profile": x.profile, "count": 1, "disordered": int(x.disordered)})
        out.append(groups)
    return out


def after(rules: Mapping, unit: Unit) -> dict:
    if unit.destroyed:
        return {"formation": unit.formation, "figures": 0, "disordered": 0, "full_ranks": 0,
                "fleeing": unit.fleeing, "destroyed": True, "ranks": []}
    return {"formation": unit.formation, "figures": len(unit.figs),
            "disordered": sum(1 for x in unit.figs if x.disordered), "full_ranks": full_ranks(rules, unit),
            "fleeing": unit.fleeing, "destroyed": False, "ranks": ranks_out(unit)}


def first_rank_steadiness(unit: Unit, profiles: Mapping[str, Profile]) -> int:
    """T11.2: the steadiness of the first rank (as it stands after refilling); the lowest if mixed."""
    ranks = rank_lists(unit.figs)
    return min(profiles[x.profile].steadiness for x in ranks[0])


# ---- protection and casualties (T7.3, T7.4, T22.1) ------------------------------------------------
def protection_key(p: Profile, attack: str, ignores_shields: bool, testudo: bool) -> tuple:
    """T7.4: which protection counts against this attack, as a key of `saved_by`."""
    if attack == o.ATTACK_MELEE:
        return ("one", p.armour, False)
    if attack == o.ATTACK_CLASH_CAVALRY:
        return ("one", p.shield, False) if p.mounted else ("one", None, False)   # trampled: no saves
    shield = None if ignores_shields else p.shield
    if not p.mounted:
        return ("one", shield, testudo)
    return ("min", p.armour, shield, p.horse_armour)


def saved_by(rules: Mapping, key: tuple, n: int) -> int:
    if key[0] == "one":
        return d.saves(rules, key[1], n, key[2])
    rider = max(d.saves(rules, key[1], n), d.saves(rules, key[2], n))
    return min(rider, d.saves(rules, key[3], n))


def hit_order(unit: Unit) -> list[Fig]:
    """T22.1: figures in ranks front to rear, then the disordered front to rear; within a rank as listed."""
    alive = unit.alive()
    return [x for x in alive if not x.disordered] + [x for x in alive if x.disordered]


def take_hits(rules: Mapping, unit: Unit, profiles: Mapping[str, Profile], ordinary: int, ignoring: int,
              attack: str, ignores_shields: bool = False, shieldless: int = 0) -> dict:
    """Deal nominal hits and kill by T7.3; returns the tallies.

    Order of dealing: `ordinary` hits, then `shieldless` ones (a crossbow, sling or
    handgun among bows: shields do not count), then `ignoring` (armour-ignoring) ones.
    """
    order = hit_order(unit)
    testudo = unit.special == o.TESTUDO and attack in (o.ATTACK_SHOOTING, o.ATTACK_CLASH_INFANTRY)
    by_key: dict[tuple, list[Fig]] = {}
    at = 0
    for count, no_shields in ((ordinary, ignores_shields), (shieldless, True)):
        for x in order[at:at + count]:
            by_key.setdefault(protection_key(profiles[x.profile], attack, no_shields, testudo), []).append(x)
        at = min(len(order), at + count)
    saved = 0
    for key, hit in by_key.items():
        s = saved_by(rules, key, len(hit))
        saved += s
        for x in hit[:len(hit) - s]:
            x.killed = True
    n_ign = min(ignoring, len(order) - at)
    for x in order[at:at + n_ign]:
        x.killed = True
    taken = at + n_ign
    return {"hits_taken": taken, "saved": saved, "killed": taken - saved}
