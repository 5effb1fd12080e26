"""The `validate` mode (W41.9): a side's deployment (W6) or its orders of one turn (W12–W16, W13, W14, payment)."""
from __future__ import annotations

from typing import Any

from .board import Board, Terrain
from .case import Unit, boolean, choice, ident, integer, lst, obj, unique_ids, unit
from .data import Data
from .errors import CaseError
from .modes import case_data, top
from .orders import Order, check_orders, parse_orders
from .outcomes import BANNERS, CRAB, DRAGON, DRAGON_BANNER, FLEEING, ORDINARY, OUT_OF_BATTLE, PHOENIX, SIDES, SPECIAL


def _refuse(unit_id: str | None, rule: str, reason: str, slot: int | None = None) -> dict:
    return {"unit": unit_id, "slot": slot, "rule": rule, "reason": reason}


def _units(data: Data, case: dict) -> list[Unit]:
    units = [unit(data, raw, f"units[{i}]") for i, raw in enumerate(lst(case.get("units"), "units", 500))]
    unique_ids(units, "units")
    return units


def _leaders(case: dict, by_id: dict[str, Unit]) -> list[dict]:
    out = []
    for i, raw in enumerate(lst(case.get("leaders", []) or [], "leaders", 50)):
        node = obj(raw, f"leaders[{i}]")
        uid = ident(node, "unit", f"leaders[{i}]")
        if uid not in by_id:
            raise CaseError(f"leaders[{i}].unit", f"no unit {uid!r} in this case")
        out.append({"name": ident(node, "name", f"leaders[{i}]"),
                    "kind": choice(node, "kind", f"leaders[{i}]", ("general", "commander")), "unit": uid})
    return out


def deployment(data: Data, board: Board, terrain: Terrain, side: str, defender: str | None,
               units: list[Unit], leaders: list[dict]) -> list[dict]:
    """W3.1, W3.2, W6.1–W6.3 in the order of W41.9."""
    refused = []
    taken: dict[str, str] = {}
    rows = set(data.deployment_rows[side])
    for u in units:
        if u.side != side:
            continue
        if not data.min_figures <= u.figures <= data.max_figures:
            refused.append(_refuse(u.id, "W3.2", "size_out_of_range"))
        elif u.cell not in board.cells:
            refused.append(_refuse(u.id, "W2", "no_such_cell"))
        elif board.pos(u.cell)[1] not in rows or u.cell not in data.cells:
            refused.append(_refuse(u.id, "W6.1", "outside_deployment_zone"))
        elif u.cell in taken:
            refused.append(_refuse(u.id, "W3.1", "cell_taken"))
        else:
            taken[u.cell] = u.id
    for label in data.mandatory_cells[side]:
        if label not in taken:
            refused.append(_refuse(None, "W6.1", "mandatory_cell_empty"))
    if defender == side:
        refused += terrain_checks(data, board, terrain, side)
    by_id = {u.id: u for u in units}
    for leader in leaders:
        if by_id[leader["unit"]].side == side and by_id[leader["unit"]].minor_clan:
            refused.append(_refuse(leader["unit"], "W6.3", "leader_in_minor_clan_unit"))
    return refused


def terrain_checks(data: Data, board: Board, terrain: Terrain, side: str) -> list[dict]:
    """W6.2, W37.1, W38.1: counts, the defender's zone, no touching, no forest on a bridge cell."""
    out = []
    rows = set(data.deployment_rows[side])
    if len(terrain.hills) > data.hill_count or len(terrain.forests) > data.forest_count:
        out.append(_refuse(None, "W6.2", "terrain_count"))
    for cells in (terrain.hills, terrain.forests):
        if any(board.pos(c)[1] not in rows for c in cells):
            out.append(_refuse(None, "W6.2", "terrain_outside_zone"))
            break
    for cells in (terrain.hills, terrain.forests):
        if any(board.adjacent(a, b) or a == b for i, a in enumerate(cells) for b in cells[i + 1:]):
            out.append(_refuse(None, "W6.2", "terrain_touching"))
            break
    if terrain.bridge and any(c in terrain.bridge for c in terrain.forests):
        out.append(_refuse(None, "W6.2", "forest_on_bridge"))
    return out


def banner_owned(spec: dict) -> dict[str, int]:
    owned_raw = obj(spec.get("banners_owned") or {}, "validate.banners_owned")
    owned = {}
    for key in owned_raw:
        if key.startswith("_"):
            continue
        if key not in BANNERS:
            raise CaseError(f"validate.banners_owned.{key}", f"unknown banner; one of {', '.join(BANNERS)}")
        owned[key] = integer(owned_raw, key, "validate.banners_owned", 0, 100)
    return owned


def banner_checks(case: dict, by_id: dict[str, Unit], owned: dict[str, int] | None,
                  accepted: list[Order]) -> tuple[list[tuple[str, str]], list[dict]]:
    """W12.1, W12.4, W12.5 in the order of W41.9; `owned` None skips ownership (the turn mode)."""
    raised, refused = [], []
    for i, raw in enumerate(lst(case.get("banners", []) or [], "banners", 50)):
        node = obj(raw, f"banners[{i}]")
        uid = ident(node, "unit", f"banners[{i}]")
        if uid not in by_id:
            raise CaseError(f"banners[{i}].unit", f"no unit {uid!r} in this case")
        banner = choice(node, "banner", f"banners[{i}]", BANNERS)
        u = by_id[uid]
        if u.status in OUT_OF_BATTLE:                  # as an order given to it (W41.9): it has left the field
            raise CaseError(f"banners[{i}].unit", f"{uid} is out of the battle ({u.status})")
        reason = None
        if owned is not None and banner not in owned:
            reason = ("W12.1", "banner_not_owned")
        elif owned is not None and owned[banner] <= 0:
            reason = ("W12.1", "banner_used_up")
        elif u.minor_clan:
            reason = ("W12.1", "banner_in_minor_clan")
        elif banner == PHOENIX and u.status != FLEEING:
            reason = ("W12.1", "phoenix_needs_fleeing")
        elif banner != PHOENIX and u.status == FLEEING:
            reason = ("W12.1", "banner_on_fleeing_unit")
        elif banner == CRAB and not u.tt.samurai:
            reason = ("W12.5", "crab_in_ashigaru")
        elif banner == DRAGON_BANNER and any(o.unit == uid and o.slot == 1 and o.type != DRAGON for o in accepted):
            reason = ("W12.4", "dragon_not_first")
        elif any(r[0] == uid for r in raised):
            reason = ("W12.1", "one_banner_per_unit")
        if reason:
            refused.append(_refuse(uid, *reason))
            continue
        if owned is not None:
            owned[banner] -= 1
        raised.append((uid, banner))
    return raised, refused


def dragon_needs_banner(accepted: list[Order], raised: list[tuple[str, str]]) -> tuple[list[Order], list[dict]]:
    """W12.4: a Dragon move is the Dragon banner's; without the banner raised in the unit it is refused."""
    with_banner = {uid for uid, banner in raised if banner == DRAGON_BANNER}
    kept, refused = [], []
    for o in accepted:
        if o.type == DRAGON and o.unit not in with_banner:
            refused.append(o.refusal("W12.4", "dragon_without_banner"))
        else:
            kept.append(o)
    return kept, refused


def _matching(orders: list[Order], slots: list[set[str]]) -> int:
    """Maximum matching of orders to restricted extra orders (each slot: the unit ids it may pay for)."""
    match: dict[int, int] = {}

    def augment(oi: int, seen: set[int]) -> bool:
        for si, allowed in enumerate(slots):
            if orders[oi].unit in allowed and si not in seen:
                seen.add(si)
                if si not in match or augment(match[si], seen):
                    match[si] = oi
                    return True
        return False

    return sum(1 for oi in range(len(orders)) if augment(oi, set()))


def payment(data: Data, board: Board, spec: dict, by_id: dict[str, Unit], leaders: list[dict],
            accepted: list[Order], general_retreat: bool) -> tuple[list[Order], list[dict], dict]:
    """W7, W9, W13.1: restricted extras first (a maximum matching), then the command roll's orders."""
    command = obj(spec.get("command") or {}, "validate.command")
    pool = {k: integer(command, k, "validate.command", 0, 100, 0) for k in (SPECIAL, ORDINARY)}
    extra = obj(spec.get("extra") or {}, "validate.extra")
    plan = obj(extra.get("cunning_plan") or {}, "validate.extra.cunning_plan")
    for k in (SPECIAL, ORDINARY):
        pool[k] += integer(plan, k, "validate.extra.cunning_plan", 0, 100, 0)
    restricted: dict[str, list[set[str]]] = {SPECIAL: [], ORDINARY: []}
    for i, item in enumerate(lst(extra.get("ordinary", []) or [], "validate.extra.ordinary", 50)):
        item = obj(item, f"validate.extra.ordinary[{i}]")
        clan = ident(item, "minor_clan", f"validate.extra.ordinary[{i}]")
        allowed = {u.id for u in by_id.values() if u.minor_clan == clan}
        restricted[ORDINARY] += [allowed] * integer(item, "count", f"validate.extra.ordinary[{i}]", 0, 100, 1)
    generals = {g["name"]: g for g in leaders if g["kind"] == "general"}
    for i, item in enumerate(lst(extra.get("special", []) or [], "validate.extra.special", 50)):
        item = obj(item, f"validate.extra.special[{i}]")
        name = ident(item, "general", f"validate.extra.special[{i}]")
        if name not in generals:
            raise CaseError(f"validate.extra.special[{i}].general", f"no leader {name!r} placed in `leaders`")
        home = by_id[generals[name]["unit"]]
        allowed = {u.id for u in by_id.values() if u.side == home.side and u.cell and home.cell
                   and (u.id == home.id or board.adjacent(u.cell, home.cell))} if home.status not in OUT_OF_BATTLE \
            else set()
        restricted[SPECIAL] += [allowed] * integer(item, "count", f"validate.extra.special[{i}]", 0, 100, 1)
    refused: list[dict] = []
    gr_paid = 0
    if general_retreat:                                                # W13.1: an ordinary, else a special
        if pool[ORDINARY] > 0:
            pool[ORDINARY] -= 1
            gr_paid = 1
        elif pool[SPECIAL] > 0:
            pool[SPECIAL] -= 1
            gr_paid = 1
        else:
            refused.append(_refuse(None, "W13.1", "not_enough_ordinary"))
    kept = list(accepted)
    for kind in (SPECIAL, ORDINARY):
        payable: list[Order] = []
        for o in [o for o in accepted if o.kind == kind and not o.free]:
            trial = payable + [o]                     # earlier orders first: the last ones are refused
            if len(trial) - _matching(trial, restricted[kind]) <= pool[kind]:
                payable = trial
                continue
            kept.remove(o)
            misused = len(restricted[kind]) > _matching(payable, restricted[kind])   # only a restricted extra left
            refused.append(o.refusal("W9", "extra_order_misused") if misused
                           else o.refusal("W7", f"not_enough_{kind}"))
    paid = {SPECIAL: sum(1 for o in kept if o.kind == SPECIAL and not o.free),
            ORDINARY: sum(1 for o in kept if o.kind == ORDINARY and not o.free) + gr_paid}
    return kept, refused, paid


def validate_mode(case: Any) -> dict:
    case = top(case)
    data = case_data(case)
    spec = obj(case.get("validate"), "validate")
    phase = choice(spec, "phase", "validate", ("deployment", "orders"))
    side = choice(spec, "side", "validate", SIDES)
    turn = integer(spec, "turn", "validate", 0, 10_000, 0)
    board = Board(data, case.get("field"))
    terrain = Terrain(board, case.get("field"))
    defender = choice(case, "defender", "case", SIDES, None)
    units = _units(data, case)
    by_id = {u.id: u for u in units}
    leaders = _leaders(case, by_id)
    if phase == "deployment":
        refused = deployment(data, board, terrain, side, defender, units, leaders)
        return {"ok": not refused, "refused": refused, "paid": {SPECIAL: 0, ORDINARY: 0}}
    for i, u in enumerate(units):
        if u.status not in OUT_OF_BATTLE:
            board.cell(u.cell, f"units[{i}].cell")
    orders = parse_orders(case.get("orders"), by_id)
    for o in orders:
        if by_id[o.unit].side != side:
            raise CaseError(f"orders[{o.index}].unit", f"{o.unit} is not a unit of {side}")
    accepted, refused = check_orders(data, board, by_id, orders, set(terrain.forests))
    general_retreat = boolean(spec, "general_retreat", "validate")
    if general_retreat and turn < data.general_retreat_from_turn:
        refused.append(_refuse(None, "W13.1", "general_retreat_too_early"))
        general_retreat = False
    raised, refused_banners = banner_checks(case, by_id, banner_owned(spec), accepted)
    refused += refused_banners
    accepted, refused_dragons = dragon_needs_banner(accepted, raised)
    refused += refused_dragons
    for i, uid in enumerate(lst(spec.get("withdraw", []) or [], "validate.withdraw", 500)):
        if not isinstance(uid, str) or uid not in by_id:
            raise CaseError(f"validate.withdraw[{i}]", "names no unit of this case")
        u = by_id[uid]
        if u.side != side or u.status in OUT_OF_BATTLE or u.figures >= data.withdraw_below:
            refused.append(_refuse(uid, "W14.1", "withdraw_not_allowed"))
    _kept, unpaid, paid = payment(data, board, spec, by_id, leaders, accepted, general_retreat)
    refused += unpaid
    return {"ok": not refused, "refused": refused, "paid": paid}
