"""The `army` mode (T8, T12): points and legality of an army, the generals' allowance and talents.

Dice order (for the seed's k, dice.py): the generals in the order listed, each
his steadiness, melee and specialty talent dice (method `roll`), then the
commander-in-chief's Initiative die.
"""
from __future__ import annotations

from typing import Any, Mapping

from . import data as d
from . import fields as f
from .dice import Dice, parse_list, parse_seed
from .errors import CaseError
from .units import TALENTS

ROLES = ("main", "auxiliary")


def _entries(rules: Mapping, raw: Any) -> tuple[dict, int | None]:
    al = f.obj(raw, "army_list")
    year = f.opt_integer(al.get("year"), "army_list.year", -5000, 5000)
    entries = {}
    for i, e in enumerate(f.lst(f.need(al, "entries", "army_list"), "army_list.entries", 200)):
        ef = f"army_list.entries[{i}]"
        e = f.obj(e, ef)
        eid = f.ident(f.need(e, "id", ef), f"{ef}.id")
        if eid in entries:
            raise CaseError(f"{ef}.id", f"duplicate id {eid!r}")
        category = f.choice(f.need(e, "category", ef), f"{ef}.category", rules["categories"])
        slots = {}
        for key, slot in (("armour", "body"), ("shields", "shield"), ("horse_armour", "horse")):
            allowed = [k for k, v in rules["protection"].items() if v["slot"] == slot]
            slots[key] = [None if x is None else f.choice(x, f"{ef}.{key}[{j}]", allowed)
                          for j, x in enumerate(f.lst(e.get(key, [None]), f"{ef}.{key}", 20))]
        weapons = [None if w is None else f.choice(w, f"{ef}.weapons[{j}]", rules["weapons"])
                   for j, w in enumerate(f.lst(e.get("weapons", [None]), f"{ef}.weapons", 20))]
        entries[eid] = {"id": eid, "role": f.choice(f.need(e, "role", ef), f"{ef}.role", ROLES),
                        "category": category, "weapons": weapons, **slots,
                        "javelin": f.boolean(e.get("javelin", False), f"{ef}.javelin"),
                        "melee": f.opt_integer(e.get("melee"), f"{ef}.melee", 1, 6),
                        "price": f.opt_integer(e.get("price"), f"{ef}.price", 0, 1000)}
    return entries, year


def _base_price(rules: Mapping, cat: Mapping, p: dict) -> int | None:
    """T5.1: the category price for the grades; None when the grades are outside the table."""
    values = {"specialty": p["specialty"], "melee": p["melee"], "steadiness": p["steadiness"]}
    stats = "-".join(str(values[k]) for k in cat["stat_order"])
    for row in cat["prices"].values():
        for cell in row:
            if cell["stats"] == stats:
                return cell["price"]
    return None


def _profile(rules: Mapping, raw: Any, i: int, entries: dict, refused: list) -> dict:
    pf = f"profiles[{i}]"
    p = f.obj(raw, pf)
    pid = f.ident(f.need(p, "id", pf), f"{pf}.id")
    eid = f.ident(f.need(p, "entry", pf), f"{pf}.entry")
    if eid not in entries:
        raise CaseError(f"{pf}.entry", f"unknown army list entry {eid!r}")
    entry = entries[eid]
    cat = rules["categories"][entry["category"]]
    mounted = bool(cat.get("mounted"))
    spec_used = "specialty" in cat["stat_order"]
    prof = {"id": pid, "entry": entry,
            "specialty": f.opt_integer(p.get("specialty"), f"{pf}.specialty", 0, 9) if spec_used else None,
            "melee": f.integer(f.need(p, "melee", pf), f"{pf}.melee", 0, 9),
            "steadiness": f.integer(f.need(p, "steadiness", pf), f"{pf}.steadiness", 0, 9),
            "weapon": f.opt_choice(p.get("weapon"), f"{pf}.weapon", [w for w in rules["weapons"] if w != "javelin"]),
            "javelin": f.boolean(p.get("javelin", False), f"{pf}.javelin"), "mounted": mounted}
    for key, slot in (("armour", "body"), ("shield", "shield"), ("horse_armour", "horse")):
        prof[key] = f.opt_choice(p.get(key), f"{pf}.{key}", [k for k, v in rules["protection"].items() if v["slot"] == slot])
    if spec_used and prof["specialty"] is None:
        raise CaseError(f"{pf}.specialty", f"missing: {entry['category']} have a specialty (T4.1)")
    before = len(refused)

    def no(rule, reason):
        refused.append({"rule": rule, "reason": reason, "where": pid})
    w = prof["weapon"]
    if w not in cat["weapons"]:
        no("T5.3", f"{w or 'the sword'} is not a weapon of {entry['category']}")
    elif w not in entry["weapons"]:
        no("T8.5", f"the army list entry {entry['id']} does not offer {w or 'the sword'}")
    for key, offered in (("armour", "armour"), ("shield", "shields"), ("horse_armour", "horse_armour")):
        if prof[key] not in entry[offered]:
            no("T8.5", f"the army list entry {entry['id']} does not offer {prof[key] or 'no ' + key.replace('_', ' ')}")
    if w is not None:
        weapon = rules["weapons"][w]
        for item in (prof["armour"], prof["shield"], prof["horse_armour"]):
            if item and item in weapon.get("forbidden", ()):
                no("T6.2" if weapon.get("kind") == "offensive" else "T6.3", f"{w} is never carried with {item}")
    if prof["horse_armour"] and not mounted:
        no("T7.1", "horse armour is for mounted warriors only")
    if not mounted and prof["shield"] and prof["armour"] in rules["protection"][prof["shield"]].get("forbidden_with_foot", ()):
        no("T7.1", f"a foot warrior does not combine {prof['shield']} with {prof['armour']}")
    if prof["javelin"]:
        if not cat.get("javelin_allowed"):
            no("T6.1", "the javelin is for swordsmen and riders only")
        elif not entry["javelin"]:
            no("T8.5", f"the army list entry {entry['id']} does not allow javelins")
    for key in ("specialty", "melee", "steadiness"):
        if prof[key] is not None and not 2 <= prof[key] <= 4:
            no("T8.5", f"{key} {prof[key]} is outside 2-4")
    default_melee = rules["characteristics"]["melee"]["default"]
    special = False
    if "specialty" in cat["stat_order"] and prof["melee"] != default_melee:
        if entry["melee"] == prof["melee"] and entry["price"] is not None:
            special = True
        else:
            no("T8.6", f"melee {prof['melee']} needs an army list entry that fixes it with its price")
    base = entry["price"] if special else _base_price(rules, cat, {**prof, "melee": prof["melee"] if not spec_used
                                                                  else default_melee})
    equipment = sum(rules["protection"][x]["cost"] for x in (prof["armour"], prof["shield"], prof["horse_armour"]) if x)
    if w is not None:
        equipment += rules["weapons"][w].get("cost", 0)
    javelin = rules["army"]["javelin_cost"] if prof["javelin"] else 0
    auxiliary = entry["role"] == "auxiliary"
    each = None if base is None else (base + equipment + javelin) * (rules["army"]["auxiliary_multiplier"] if auxiliary else 1)
    prof["out"] = {"base": base, "equipment": equipment, "javelin": javelin, "auxiliary": auxiliary, "each": each,
                   "ok": len(refused) == before}
    return prof


def _unit(rules: Mapping, raw: Any, i: int, profiles: dict, year: int | None, refused: list) -> dict:
    uf = f"units[{i}]"
    u = f.obj(raw, uf)
    uid = f.ident(f.need(u, "id", uf), f"{uf}.id")
    formation = f.choice(f.need(u, "formation", uf), f"{uf}.formation", rules["formations"])
    bases = f.integer(u.get("bases", 1), f"{uf}.bases", 1, 20)
    groups = []
    for j, g in enumerate(f.lst(f.need(u, "figures", uf), f"{uf}.figures", 50)):
        gf = f"{uf}.figures[{j}]"
        g = f.obj(g, gf)
        pid = f.ident(f.need(g, "profile", gf), f"{gf}.profile")
        if pid not in profiles:
            raise CaseError(f"{gf}.profile", f"unknown profile {pid!r}")
        groups.append((profiles[pid], f.integer(f.need(g, "count", gf), f"{gf}.count", 1, 1000)))
    if not groups:
        raise CaseError(f"{uf}.figures", "a unit has at least one figure")
    figures = sum(n for _, n in groups)
    before = len(refused)

    def no(rule, reason):
        refused.append({"rule": rule, "reason": reason, "where": uid})
    mounts = {p["mounted"] for p, _ in groups}
    mounted = mounts == {True}
    if len(mounts) > 1:
        no("T8.7", "every figure of a unit is foot or every one mounted")
    width = d.front(rules, formation, mounted)
    limit = rules["bases"]["max_ranks_per_base"] * bases
    if formation == "loose":
        most = rules["formations"]["loose"].get("figures_max", {}).get("mounted" if mounted else "foot", width)
        if bases != 1 or not width <= figures <= most:
            no("T8.7", f"a skirmisher unit is one round base of {width}-{most} figures")
    elif figures < width:
        no("T8.7", f"{figures} figures do not fill one rank of {width} in {formation} formation")
    elif -(-figures // width) > limit:
        no("T8.7", f"{figures} figures need more than {limit} ranks of {width} (3 per base)")
    cutoff = rules["army"]["handgun_isolation_before_year"]
    if year is not None and year < cutoff and any(p["weapon"] == "handgun" for p, _ in groups) \
            and any(p["weapon"] != "handgun" for p, _ in groups):
        no("T8.7", f"before {cutoff} handgunners share a unit with no other warriors")
    points = sum((p["out"]["each"] or 0) * n for p, n in groups)
    return {"id": uid, "figures": figures, "points": points, "front": width,
            "full_ranks": min(figures // width, limit), "ok": len(refused) == before}


def _generals(rules: Mapping, raw: Any, entries: dict, figures: int, dice: Dice, refused: list) -> dict:
    gens = rules["generals"]
    out_list, seen_cinc = [], False
    counts = {"ordinary": {"irregular": 0, "regular": 0}, "mercenary": {"irregular": 0, "regular": 0}}
    items = f.lst(raw or [], "generals", 100)
    for i, g in enumerate(items):
        gf = f"generals[{i}]"
        g = f.obj(g, gf)
        gid = f.ident(f.need(g, "id", gf), f"{gf}.id")
        kind = f.choice(f.need(g, "type", gf), f"{gf}.type", ("regular", "irregular"))
        merc = f.boolean(g.get("mercenary", False), f"{gf}.mercenary")
        cinc = f.boolean(g.get("c_in_c", False), f"{gf}.c_in_c")
        eid = f.ident(f.need(g, "entry", gf), f"{gf}.entry")
        if eid not in entries:
            raise CaseError(f"{gf}.entry", f"unknown army list entry {eid!r}")
        method = f.choice(g.get("method", "roll"), f"{gf}.method", ("roll", "points"))
        own = parse_list(g.get("dice") or [], f"{gf}.dice")
        counts["mercenary" if merc else "ordinary"][kind] += 1
        before = len(refused)

        def no(rule, reason):
            refused.append({"rule": rule, "reason": reason, "where": gid})
        if cinc and merc:
            no("T12.3", "the commander-in-chief is not a mercenary")
        elif cinc and seen_cinc:
            no("T12.3", "exactly one commander-in-chief")
        seen_cinc |= cinc
        if not merc and entries[eid]["role"] != "main":
            no("T12.4", "an ordinary general has the qualities of the main troop type")
        take = _own_dice(own, dice, f"{gf}.dice")
        if method == "roll":
            talents = {name: gens["talent_roll"][take()] for name in TALENTS}
        else:
            t = f.obj(f.need(g, "talents", gf), f"{gf}.talents")
            talents = {name: f.integer(t.get(name, 0), f"{gf}.talents.{name}", -9, 9) for name in TALENTS}
            pb = gens["point_buy"]
            if (any(not pb["min_per_quality"] <= v <= pb["max_per_quality"] for v in talents.values())
                    or sum(talents.values()) > pb["points"]):
                no("T12.6", f"talents are {pb['min_per_quality']} to {pb['max_per_quality']} each, "
                            f"{pb['points']} points in all")
        initiative = gens["initiative_roll"][take()] if cinc else 0
        take.check()
        cat_name = entries[eid]["category"]
        cat = rules["categories"][cat_name]
        top = gens["top_grade"]
        stats = {"specialty": top["specialty"] if "specialty" in cat["stat_order"] else None,
                 "melee": top["melee_swordsmen_riders"] if cat_name in ("swordsmen", "riders") else top["melee_others"],
                 "steadiness": top["steadiness"]}
        out_list.append({"id": gid, "talents": talents, "initiative": initiative, "stats": stats,
                         "ok": len(refused) == before})
    if items and not seen_cinc:
        refused.append({"rule": "T12.3", "reason": "exactly one commander-in-chief is appointed",
                        "where": "generals.c_in_c"})
    blocks = {}
    for block, per_key in (("ordinary", "ordinary_figures_per"), ("mercenary", "mercenary_figures_per")):
        c = counts[block]
        used = c["irregular"] * gens[per_key]["irregular"] + c["regular"] * gens[per_key]["regular"]
        ok = used <= figures or (block == "ordinary" and c["irregular"] + c["regular"] == 1)   # T12.1 ruling
        blocks[block] = {"irregular": c["irregular"], "regular": c["regular"], "used": used}
        if block == "ordinary":
            blocks[block]["figures"] = figures
        blocks[block]["ok"] = ok
        if not ok:
            refused.append({"rule": "T12.1" if block == "ordinary" else "T12.2",
                            "reason": f"{used} figures' worth of generals for {figures} figures of troops",
                            "where": f"generals.{block}"})
    return {**blocks, "list": out_list}


class _own_dice:
    """A general's own dice list, then the case's seed; left-over dice are malformed."""

    def __init__(self, own: list[int], dice: Dice, field: str):
        self.own, self.dice, self.field, self.i = own, dice, field, 0

    def __call__(self) -> int:
        if self.i < len(self.own):
            self.i += 1
            self.dice.k += 1
            return self.own[self.i - 1]
        if self.dice.seed is None:
            raise CaseError(self.field, f"the dice ran out ({len(self.own)} given) and there is no seed")
        return self.dice.take()

    def check(self) -> None:
        if self.i < len(self.own):
            left = len(self.own) - self.i
            raise CaseError(self.field, f"{left} {'die' if left == 1 else 'dice'} not used")


def run_army(rules: Mapping, case: Any) -> dict:
    case = f.obj(case, "case")
    entries, year = _entries(rules, f.need(case, "army_list", ""))
    limit = f.integer(case.get("points_limit", rules["army"]["recommended_max_points"]), "points_limit", 0, 100000)
    dice = Dice({}, parse_seed(case.get("seed")))
    refused: list[dict] = []
    profiles = {}
    for i, p in enumerate(f.lst(f.need(case, "profiles", ""), "profiles", 200)):
        prof = _profile(rules, p, i, entries, refused)
        if prof["id"] in profiles:
            raise CaseError(f"profiles[{i}].id", f"duplicate id {prof['id']!r}")
        profiles[prof["id"]] = prof
    units = [_unit(rules, u, i, profiles, year, refused) for i, u in enumerate(f.lst(f.need(case, "units", ""), "units", 500))]
    f.unique_ids(units, "units")
    figures = sum(u["figures"] for u in units)
    total = sum(u["points"] for u in units)
    points_ok = total <= limit
    if not points_ok:
        refused.append({"rule": "T8.1", "reason": f"the army costs {total} points, more than the agreed {limit}",
                        "where": "points"})
    generals = _generals(rules, case.get("generals"), entries, figures, dice, refused)
    return {"valid": not refused, "points": {"total": total, "limit": limit, "ok": points_ok},
            "profiles": {pid: p["out"] for pid, p in profiles.items()}, "units": units, "figures": figures,
            "generals": generals, "refused": refused}
