"""Every write at an «Орда» table and to its data, in a transaction, audited (docs/orda.md, "Table").

An act is: lock the table, check the seat may do it, take the dice (server or
hand) on the record, run the engine through the adapter, record the step with
its payload (dice included) and a sentence, store the replayed state, and
finish the table when the engine names a winner.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from larp.campaign.audit import audit
from larp.campaign.models import Faction, Game
from larp.orda import dataset, describe, labels, selectors
from larp.orda.access import acts_for
from larp.orda import situation as sit
from larp.orda.engine import outcomes as O
from larp.orda.engine.data import load
from larp.orda.models import DataSet
from larp.rules.dice import shuffled
from larp.tables import services as tables
from larp.tables.access import Seat
from larp.tables.models import Table

SYSTEM = "orda"
DECK_SIZE = len(dataset.EVENTS)


# ---------------------------------------------------------------- data sets (O23)

def create_dataset(game: Game, title: str, user, data: dict | None = None) -> DataSet:
    clean = dataset.clean(data) if data is not None else dataset.blank(title)
    clean["title"] = title.strip()[:200] or clean["title"]
    with transaction.atomic():
        ds = DataSet.objects.create(game=game, title=clean["title"] or _("Orda data"), data=clean, updated_by=user)
        audit(game, user, "orda_data_created", {"data": ds.pk, "title": ds.title})
    return ds


def save_dataset(ds: DataSet, data: dict, user, *, what: str) -> DataSet:
    """Replace the data set's document (already cleaned or raw: it is cleaned again here)."""
    clean = dataset.clean(data)
    with transaction.atomic():
        ds = DataSet.objects.select_for_update().get(pk=ds.pk)
        ds.data = clean
        ds.title = clean["title"] or ds.title
        ds.updated_by = user
        ds.save()
        audit(ds.game, user, "orda_data_edited", {"data": ds.pk, "title": ds.title, "what": what})
    return ds


# ---------------------------------------------------------------- a new table

def create(game: Game, user, *, title: str, data: DataSet, mode: str, order: list[str],
           factions: dict[str, Faction | None], players: int | None = None, rolloff: bool = False) -> Table:
    """A table from a data set: the starting case built and validated, the event deck shuffled by server dice.
    `rolloff`: the first turn waits for a roll-off at the table (O8, O10), which only says who starts `order`."""
    if data.game_id != game.pk:
        raise ValidationError(_("That data set is not in this game."))
    try:
        setup = sit.build_setup(data.data, mode, order, players)
    except sit.Refusal as r:
        raise ValidationError(r.message) from None
    if rolloff:
        setup["rolloff"] = True
    with transaction.atomic():
        table = tables.create_table(game, SYSTEM, title or _("Orda"),
                                    [(f, labels.faction(f), factions.get(f)) for f in order], user, setup=setup,
                                    origin={"data_set": data.pk, "test_data": bool(data.data.get("test_data"))})
        with tables.locked(table.pk) as t:
            _deal(t, user)
            t.state = _replay(t)
            t.save(update_fields=["state"])
    return Table.objects.get(pk=table.pk)


def _deal(table: Table, user) -> None:
    """The 24 event cards in an order drawn with server dice (Fisher–Yates, one die of k sides per card)."""
    seq = tables.next_seq(table)
    cards = shuffle(table, seq, list(dataset.EVENTS), _("event deck"), user)
    tables.record(table, "setup", user, seq=seq, payload={"order": cards}, outcome={"deck": len(cards)},
                  summary=describe.step_summary({}, {}, "setup", {}, {}))


def shuffle(table: Table, seq: int, cards: list[str], purpose: str, user) -> list[str]:
    """`cards` shuffled by the table's committed dice, on the record of step `seq`: Fisher–Yates from the last
    position i down to 1, position i swapping with position d − 1, d a server die of i + 1 sides (docs/orda.md,
    "Table"). No one chooses the order; anyone can redo it from the dice the check page lists."""
    dice = {i: tables.take_dice(table, seq, count=1, sides=i + 1, purpose=purpose, user=user)[0]
            for i in range(len(cards) - 1, 0, -1)}
    return shuffled(cards, lambda i: dice[i] - 1)


def _replay(table: Table) -> dict:
    return sit.replay(table.setup, [(s.kind, s.payload) for s in tables.live_steps(table)])


def current(table: Table) -> dict:
    """The table's state: the cache, or the replay when the cache is empty (a table made by the bridge)."""
    return sit.restore(table.state) if table.state.get("case") else _replay(table)


# ---------------------------------------------------------------- acts at the table

def _faction_of(case: dict, uid: str) -> str | None:
    return next((u["faction"] for u in case["units"] if u["id"] == uid), None)


def _check_seat(seat: Seat, kind: str, state: dict, payload: dict) -> str:
    """The side acting (its key), or PermissionDenied: players act only for their own faction, at its moment."""
    case = state["case"]
    active = case["game"]["active"]
    if kind in ("undo", "values", "rolloff", "override_first", "override_unit", "override_modifier",
                "override_unmodify", "override_end"):
        if not seat.moderator:
            raise PermissionDenied(_("Only the game's moderators may do this."))
        return ""
    if kind == "counter":
        p = state.get("pending") or {}
        who = _faction_of(case, p.get("target", "")) or ""
    elif kind == "attack":
        p = state.get("pending") or {}
        who = _faction_of(case, p.get("attacker", "")) or ""
        if payload.get("hand") and not seat.moderator:
            raise PermissionDenied(_("Only the moderator enters dice by hand."))
    elif kind == "deploy":
        who = _faction_of(case, payload.get("unit", "")) or ""
    else:
        who = active
    if not acts_for(seat, who):
        raise PermissionDenied(_("It is not your side's move."))
    return who


def act(table_id: int, user, seat: Seat, kind: str, payload: dict, *, hand: list[int] | dict | None = None) -> Table:
    """One act at the table; ValidationError (in the user's language) when the rules refuse it, nothing saved.
    `hand`: dice typed in at the table — a list, or for a roll-off {faction: die}."""
    with tables.locked(table_id) as table, labels.speaking_for(table):
        if table.status not in (Table.SETUP, Table.PLAYING):
            raise ValidationError(_("This table is closed."))
        state = current(table)
        side = _check_seat(seat, kind, state, {"hand": hand, **payload})
        if kind == "turn_start" and not any(state["case"]["event"].get(k) for k in ("draw_pile", "discard", "current")):
            _deal(table, user)
            state = _replay(table)
        seq = tables.next_seq(table)
        payload = dict(payload)
        try:
            if kind == "values":
                payload = _values(table, state, payload)
            payload = _with_dice(table, seq, state, kind, payload, hand, user)
            new, outcome = sit.apply(state, kind, payload)
        except sit.Refusal as r:
            transaction.set_rollback(True)
            raise ValidationError(r.message) from None
        summary = describe.step_summary(state["case"], new["case"], kind, payload, outcome)
        tables.record(table, kind, user, seq=seq, side=side, payload=payload, outcome=outcome,
                      reason=payload.get("reason", "") if kind.startswith("override") else "", summary=summary)
        tables.set_state(table, new)
        _order_sides(table, new)
        if new["phase"] != sit.OVER:
            new = _skip_empty(table, new, user)
        if new["phase"] == sit.OVER and state["phase"] != sit.OVER:
            _finish(table, new, user)
    table.refresh_from_db()
    return table


def has_no_tokens(case: dict, faction: str) -> bool:
    """A faction with no token left on the board, on its summon indicator or in reserve: every one is dead (O5: the
    reserve is never renewed), so its turn can have no summon and no activation."""
    return not any(u["faction"] == faction and u["where"] != O.DEAD for u in case["units"])


def _skip_empty(table: Table, state: dict, user) -> dict:
    """The turn of a faction with no token left is played for it, on the record: its «Start of the turn» (the
    tour's event card if it is the first of the tour, drawn and reshuffled as always) and its «Results of the turn»
    (sieges, expiring effects, the discard, the victory check) as two steps of the table, so its player is not asked
    to click through every tour and the replay of the steps gives the same state (docs/orda.md, "Table")."""
    for _turns in range(2 * len(state["case"]["game"]["order"])):
        faction = state["case"]["game"]["active"]
        if state["phase"] != sit.START or not state.get("started", True) or not has_no_tokens(state["case"], faction):
            break
        for kind in ("turn_start", "turn_end"):
            seq = tables.next_seq(table)
            payload = _with_dice(table, seq, state, kind, {"skipped": True}, None, user)
            new, outcome = sit.apply(state, kind, payload)
            summary = describe.step_summary(state["case"], new["case"], kind, payload, outcome)
            tables.record(table, kind, user, seq=seq, side=faction, payload=payload, outcome=outcome,
                          summary=summary)
            tables.set_state(table, new)
            state = new
            if state["phase"] == sit.OVER:
                return state
    return state


def _values(table: Table, state: dict, payload: dict) -> dict:
    """The printed values the table lacks, as the chosen data set of the game gives them (O23): the step keeps
    them, so the replay never reads the data set again (it may be edited later)."""
    ds = DataSet.objects.filter(pk=payload.get("data_set"), game_id=table.game_id).first()
    if ds is None:
        raise sit.Refusal(_("That data set is not in this game."))
    given = sit.values_from(state["case"], ds.data)
    if not given["units"] and not given["cities"]:
        raise sit.Refusal(_("The data set «%(title)s» has none of the values this table lacks.") % {"title": ds.title})
    return {"data_set": ds.pk, "title": ds.title, **given}


def prepare_war_battle(table: Table, user) -> None:
    """larp.tables.registry: a battle of the war the bridge set up takes the printed values its tokens lack from
    the game's data set, when it has them (never invented); what is still missing the table's page lists."""
    ds = selectors.data_set_for(table)
    state = current(table)
    if ds is None or state["phase"] != sit.START:
        return
    given = sit.values_from(state["case"], ds.data)
    if given["units"] or given["cities"]:
        act(table.pk, user, Seat(table, True, None), "values", {"data_set": ds.pk})


def _order_sides(table: Table, state: dict) -> None:
    """The table's sides stand in the turn order (docs/orda.md, "Table"), which a roll-off may change."""
    tables.order_sides(table, state["case"]["game"]["order"])


def _with_dice(table: Table, seq: int, state: dict, kind: str, payload: dict, hand, user) -> dict:
    if kind == "turn_start":
        choices = dict(payload.get("choices") or {})
        choices.pop("reshuffle", None)                  # the order is never given: the table's dice draw it
        cards = sit.reshuffle_due(state)
        if cards:                                       # O10: the deck ran out; the table's dice shuffle the discards
            choices["reshuffle"] = shuffle(table, seq, cards, _("event deck reshuffle"), user)
        if choices or "choices" in payload:
            payload["choices"] = choices
    elif kind == "rolloff":
        rolling = sit.rolloff_of(state)["contenders"]
        if hand is not None:
            if not isinstance(hand, dict) or set(hand) != set(rolling):
                raise sit.Refusal(_("Enter one die from 1 to 6 for each faction still rolling: %(list)s.")
                                  % {"list": ", ".join(labels.faction(f) for f in rolling)})
            dice = _dice(table, seq, len(rolling), [hand[f] for f in rolling], _("turn order roll-off"), user)
        else:
            dice = _dice(table, seq, len(rolling), None, _("turn order roll-off"), user)
        payload.update(dice=dict(zip(rolling, dice)), hand=hand is not None)
    elif kind == "attack":
        rerolls = payload.pop("rerolls", None) or {}
        dice = _dice(table, seq, 2, hand, _("attack"), user)
        payload.update(dice={"attacker": [dice[0]], "defender": [dice[1]]}, hand=hand is not None)
        _second_chance(table, seq, state, payload, rerolls if hand is not None else None, user)
    elif kind == "move":
        preview = sit.run(O.MOVE, {**state["case"], "move": {"unit": payload["unit"], "path": payload["path"]}})
        if "state" not in preview:
            n = len(preview["provoked"])
            dice = _dice(table, seq, 2 * n, hand, _("zone of control"), user)
            payload.update(dice=[{"attacker": [dice[2 * i]], "defender": [dice[2 * i + 1]]} for i in range(n)],
                           hand=hand is not None)
    return payload


def _second_chance(table: Table, seq: int, state: dict, payload: dict, rerolls: dict | None, user) -> None:
    """O16/O21 Сила Золотой Орды: a unit with a second chance rerolls its own die once when it loses the exchange
    (server dice; the same policy the odds assume), or as typed in by the moderator (hand dice)."""
    p = state.get("pending") or {}
    case = state["case"]
    chance = {role: any(e["kind"] == "golden_horde" for u in case["units"] if u["id"] == p.get(role)
                        for e in u["effects"]) for role in ("attacker", "target")}
    if not any(chance.values()):
        return
    if rerolls is not None:
        for role, key in (("attacker", "attacker"), ("target", "defender")):
            if chance[role] and rerolls.get(key):
                payload["dice"][key].append(tables.take_dice(table, seq, hand=[rerolls[key]], user=user,
                                                             purpose=_("second chance"))[0])
        return
    first = sit.run(O.ATTACK, sit.attack_doc(case, p, p["counter"], payload["dice"]))
    if not first["defender"]["dice"]:
        return                                          # an automatic retreat: no dice at all
    loser = "target" if first["hit"] else "attacker"
    if chance[loser]:
        key = "defender" if loser == "target" else "attacker"
        payload["dice"][key].append(tables.take_dice(table, seq, count=1, user=user, purpose=_("second chance"))[0])


def _dice(table: Table, seq: int, n: int, hand, purpose: str, user) -> list[int]:
    if hand is not None:
        if len(hand) != n or any(not 1 <= d <= 6 for d in hand):
            raise sit.Refusal(_("Enter %(n)s dice from 1 to 6.") % {"n": n})
        return tables.take_dice(table, seq, hand=hand, purpose=purpose, user=user)
    return tables.take_dice(table, seq, count=n, purpose=purpose, user=user)


def result_of(table: Table, state: dict) -> dict:
    """docs/tables.md's result: the winning side's key (the first faction of the winning Orda side in the order)."""
    order = state["case"]["game"]["order"]
    winners = [f for f in order if load().side_of(f) == state["winner"]]
    return {"winner": winners[0] if winners else None, "winners": winners, "orda_side": state["winner"],
            "ended_by": state["reason"], "losses": sit.losses(table.setup, state["case"]),
            "tour": state["case"]["game"]["tour"]}


def _finish(table: Table, state: dict, user) -> None:
    result = result_of(table, state)
    tables.finish(table, result, user, summary=_("Victory: %(side)s — %(reason)s.") % {
        "side": labels.side(state["winner"]), "reason": labels.reason(state["reason"])})


def undo(table_id: int, user, seat: Seat, reason: str) -> Table:
    if not seat.moderator:
        raise PermissionDenied(_("Only the game's moderators may do this."))
    with tables.locked(table_id) as table, labels.speaking_for(table):
        step = tables.undo_last(table, user, reason, kinds=[k for k in KINDS if k != "setup"])
        if step is None:
            raise ValidationError(_("There is nothing to undo."))
        state = _replay(table)
        tables.set_state(table, state)
        _order_sides(table, state)
    table.refresh_from_db()
    return table


KINDS = ("setup", "values", "rolloff", "override_first", "deploy", "turn_start", "turn_end", "move", "declare", "counter", "attack", "ability", "override_unit",
         "override_modifier", "override_unmodify", "override_end")


def paint(ds: DataSet, brush: str, h: list[int], user) -> DataSet:
    """One click of the board editor: toggle a board hex, or put a capital, a city or a line's side on it."""
    import copy

    data = copy.deepcopy(ds.data)
    places = ("capitals", "cities")

    def drop_place(hex_):
        for c, v in data["capitals"].items():
            if v == hex_:
                data["capitals"][c] = None
        for c in data["cities"]:
            data["cities"][c] = [x for x in data["cities"][c] if x != hex_]

    if brush == "board":
        if h in data["board"]:
            data["board"].remove(h)
            drop_place(h)
            for line in data["borders"]:
                data["borders"][line] = [x for x in data["borders"][line] if x != h]
        else:
            data["board"].append(h)
    elif h not in data["board"]:
        raise ValidationError(_("Add the hex to the board first."))
    elif brush in dataset.CAPITAL_COLOURS:
        was = data["capitals"][brush] == h
        drop_place(h)
        data["capitals"][brush] = None if was else h
    elif brush in dataset.CITY_COLOURS:
        was = h in data["cities"][brush]
        drop_place(h)
        if not was:
            data["cities"][brush].append(h)
    elif brush in ("red_line", "green_line"):
        line = brush.split("_")[0]
        hexes = data["borders"][line]
        data["borders"][line] = [x for x in hexes if x != h] if h in hexes else hexes + [h]
    else:
        raise ValidationError(_("Unknown brush."))
    del places
    return save_dataset(ds, data, user, what=f"board:{brush}")
