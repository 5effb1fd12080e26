"""A battle of the war sent to a table, cancelled, and its result confirmed back into the turn (docs/bridge.md).

Every write in a transaction and audited. The turn itself changes only through the console's services
(`larp.battles.services.enter_outcome`): the table's result becomes the battle's outcome in the turn's
`choices.outcomes`, and the engine goes on from it exactly as after an autobattle.
"""
from __future__ import annotations

import pathlib

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from larp.battles import services as console
from larp.battles.models import TurnResolution
from larp.bridge import convert
from larp.bridge.models import TableBattle
from larp.campaign.access import require_moderator
from larp.campaign.models import Faction, Game, Province
from larp.forces.models import TroopType
from larp.scenarios import parse_text
from larp.tables import registry as table_systems
from larp.tables import services as tables
from larp.tables.models import SYSTEM_CHOICES, Table
from larp.turns.models import Phase, Turn
from larp.turns.selectors import names as names_of
from larp.turns.services import audit

SCENARIOS = pathlib.Path(__file__).resolve().parents[1] / "scenarios"
SYSTEM_NAMES = dict(SYSTEM_CHOICES)


class BridgeError(ValidationError):
    """A bridge act that does not fit the turn or the table; the message is for the moderator."""


# --- reading ------------------------------------------------------------------------------------------

def conversions(game: Game) -> dict[str, dict]:
    """The game's `rules.tables` (docs/bridge.md), or its scenario file's when the game was made without it."""
    found = (game.rules or {}).get("tables")
    if found:
        return found
    path = SCENARIOS / f"{game.scenario}.yaml"
    if path.exists():
        return ((parse_text(path.read_text(encoding="utf-8")) or {}).get("rules") or {}).get("tables") or {}
    return {}


def systems(game: Game) -> list[tuple[str, str]]:
    """The systems a battle of this game may be sent to: those its scenario converts to."""
    have = conversions(game)
    return [(code, SYSTEM_NAMES[code]) for code in convert.SYSTEMS if code in have]


def wall_items(game: Game, awaiting: dict) -> list[str]:
    """The defender's walls in this storm as the battles page itemises them («оборона +8», «Константинополь
    +15»): its defence and its city's special."""
    sources = names_of(game).get("sources") or {}
    province = Province.objects.filter(game=game, code=awaiting["province"]).first()
    walls = {"defence", province.special if province and province.special else "defence"}
    items = (((awaiting.get("odds") or {}).get("defender") or {}).get("items")) or []
    return [f"{sources.get(i['source'], i['source'])} {i['value']:+d}" for i in items
            if i.get("source") in walls and i.get("value")]


def refusals(game: Game, awaiting: dict) -> dict[str, str]:
    """Per system of this game that cannot take the battle awaiting its dice, why (convert.refusal)."""
    if not awaiting.get("storm"):
        return {}
    battle = None
    out = {}
    for code, conv in conversions(game).items():
        if code not in convert.SYSTEMS:
            continue
        battle = battle or battle_of(game, awaiting)
        if convert.refusal(battle, conv) == "storm_without_walls":
            out[code] = _("«%(system)s» knows no walls or siege, and its rules give the walls no measure: the "
                          "defender's walls here (%(walls)s) would be lost. Fight this storm by the autobattle or "
                          "at a table of a system with walls.") % {
                "system": SYSTEM_NAMES.get(code, code),
                "walls": ", ".join(wall_items(game, awaiting)) or _("a fortress")}
    return out


def powers(game: Game) -> dict[str, int]:
    return dict(TroopType.objects.filter(game=game).values_list("code", "power"))


def _returned(resolution: TurnResolution | None, tb: TableBattle) -> dict | None:
    """The outcome entered into the turn from this table, if it was."""
    if resolution is None:
        return None
    for o in (resolution.choices or {}).get("outcomes", []):
        if (o.get("table") or {}).get("id") == tb.table_id and o.get("battle") == tb.battle_no:
            return o
    return None


def state_of(tb: TableBattle, resolution: TurnResolution | None = None) -> str:
    """`cancelled`, `returned` (its result is in the turn), `at_table` (open) or `to_confirm` (finished)."""
    if tb.cancelled:
        return "cancelled"
    if resolution is None:
        resolution = TurnResolution.objects.filter(turn_id=tb.turn_id).first()
    if _returned(resolution, tb) is not None:
        return "returned"
    return "at_table" if tb.table.is_open else "to_confirm"


def active(turn: Turn) -> TableBattle | None:
    """The turn's battle at a table whose result is not yet in the turn (at most one: it holds the others)."""
    resolution = TurnResolution.objects.filter(turn=turn).first()
    for tb in TableBattle.objects.filter(turn=turn, cancelled=False).select_related("table").order_by("-pk"):
        if state_of(tb, resolution) in ("at_table", "to_confirm"):
            return tb
    return None


def result_taken(table: Table) -> str | None:
    """A finished table whose result is in the war's turn may not be reopened by an undo at the table: the turn
    has counted it (registered with larp.tables.registry)."""
    tb = TableBattle.objects.filter(table=table).select_related("table").first()
    if tb is not None and state_of(tb) == "returned":
        return _("This battle's result is already in the war's turn. Undo the battle's outcome on the battles "
                 "page first, then the step here.")
    return None


def suggestion(tb: TableBattle) -> dict | None:
    """The table's result as the battle's outcome in power points (docs/bridge.md), or None before its end."""
    if tb.table.status != Table.FINISHED or not tb.table.result:
        return None
    return convert.suggested_outcome(tb.table.result, tb.sides, tb.power)


def hold(turn: Turn) -> str | None:
    """larp.battles.hooks: the turn's battles wait while one of them is at a table."""
    tb = active(turn)
    if tb is None:
        return None
    if tb.table.is_open:
        return _("Battle %(n)s is being fought at the table «%(title)s» (%(system)s): finish the table or "
                 "cancel it first.") % {"n": tb.battle_no, "title": tb.table.title,
                                        "system": SYSTEM_NAMES.get(tb.table.system)}
    return _("The table «%(title)s» has finished: confirm its result for battle %(n)s first.") % {
        "n": tb.battle_no, "title": tb.table.title}


def unfinished_work(phase: Phase) -> list[str]:
    """larp.turns: the Tactics phase cannot be left while a battle is at a table (the game-night guard)."""
    if phase.kind != Phase.TACTICS:
        return []
    reason = hold(phase.turn)
    return [reason] if reason else []


def battle_of(game: Game, awaiting: dict) -> dict:
    """The strategic battle awaiting its dice, in the shape `convert` reads (names for the pages)."""
    names = names_of(game)
    province = Province.objects.get(game=game, code=awaiting["province"])
    out = {"n": awaiting["n"], "storm": bool(awaiting.get("storm")),
           "province": {"id": province.code, "name": province.name, "fortress": bool(province.fortress),
                        "capital": Faction.objects.filter(game=game, capital=province).exists()}}
    for role in convert.ROLES:
        side = awaiting[role]
        faction = side.get("faction")
        stacks = [{"key": key, "troops": list(cards), "commanders": list(side.get("commanders", {}).get(key, [])),
                   "name": names["units"].get(key, key) if key != "garrison" else _("garrison")}
                  for key, cards in side.get("before", {}).items()]
        out[role] = {"faction": faction,
                     "name": names["factions"].get(faction, faction) if faction else capfirst(_("neutral garrison")),
                     "stacks": stacks}
    used = {card for role in convert.ROLES for stack in out[role]["stacks"] for card in stack["troops"]}
    out["cards"] = {card: names.troop(card)["name"] for card in sorted(used)}
    return out


# --- writing ------------------------------------------------------------------------------------------

def _awaiting(game: Game, battle_no: int) -> tuple[Turn, dict]:
    turn, _resolution, result = console.current_result(game)
    awaiting = (result or {}).get("awaiting")
    if awaiting is None or awaiting["n"] != battle_no:
        raise BridgeError(_("Battle %(n)s is not the one awaiting its dice (it was fought already, or the "
                            "battles changed).") % {"n": battle_no})
    return turn, awaiting


def send_to_table(game: Game, user, battle_no: int, system: str, reason: str, *, seed: int | None = None
                  ) -> TableBattle:
    """«Сыграть за столом»: a table of `system` set up from the battle awaiting its dice, its sides the
    factions (their players see it), its armies suggested by the scenario's conversion (docs/bridge.md)."""
    require_moderator(user, game)
    if not (reason or "").strip():
        raise BridgeError(_("Write why the battle is fought at a table: the log keeps it."))
    conv = conversions(game).get(system)
    if conv is None:
        raise BridgeError(_("This game's scenario does not say how to set up a battle of %(system)s.")
                          % {"system": SYSTEM_NAMES.get(system, system)})
    with transaction.atomic():
        turn, awaiting = _awaiting(game, battle_no)
        Turn.objects.select_for_update().get(pk=turn.pk)   # one table per battle, even on a double click
        if active(turn) is not None:
            raise console.AlreadyDone(_("A battle of this turn is already at a table."))
        if awaiting.get("domain") == "sea":
            raise BridgeError(_("A naval battle cannot be fought at a table of these systems."))
        battle = battle_of(game, awaiting)
        refused = refusals(game, awaiting).get(system)
        if refused:
            raise BridgeError(refused)
        kinds = powers(game)
        setup = convert.starting_case(system, battle, conv, kinds)
        keys = convert.sides_of(conv)
        factions = {f.code: f for f in Faction.objects.filter(
            game=game, code__in=[battle[r]["faction"] for r in convert.ROLES if battle[r]["faction"]])}
        title = _("Turn %(turn)s, battle %(n)s: %(province)s") % {
            "turn": turn.number, "n": battle_no, "province": battle["province"]["name"]}
        table = tables.create_table(
            game, system, title,
            [(keys[role], battle[role]["name"], factions.get(battle[role]["faction"])) for role in convert.ROLES],
            user, setup=setup, seed=seed,
            origin={"battle": battle_no, "turn": turn.number, "province": battle["province"]["id"]})
        # The system's own work on the converted setup: «Орда» takes the printed values the conversion lacks
        # from the game's data set (docs/bridge.md).
        table_systems.prepare(table, user)
        tb = TableBattle.objects.create(
            turn=turn, battle_no=battle_no, province=battle["province"]["id"], table=table, sides=keys,
            power={role: convert.side_power(battle[role], kinds) for role in convert.ROLES}, battle=battle,
            reason=reason.strip(), created_by=user if user and user.is_authenticated else None)
        audit(game, user, "battle_sent_to_table", {
            "turn": turn.number, "battle": battle_no, "province": tb.province, "table": table.pk,
            "title": table.title, "system": system}, reason.strip())
    return tb


def _table_battle(game: Game, tb_id: int, *, lock: bool = False) -> TableBattle:
    qs = TableBattle.objects.select_related("table", "turn")
    if lock:
        qs = qs.select_for_update()
    tb = qs.filter(pk=tb_id, turn__game=game).first()
    if tb is None:
        raise BridgeError(_("There is no such battle at a table in this game."))
    return tb


def cancel(game: Game, user, tb_id: int, reason: str) -> TableBattle:
    """The battle goes back to the autobattle: the table (if still open) is cancelled; both audited."""
    require_moderator(user, game)
    if not (reason or "").strip():
        raise BridgeError(_("Write why the table is cancelled: the log keeps it."))
    with transaction.atomic():
        tb = _table_battle(game, tb_id, lock=True)
        if tb.cancelled:
            raise console.AlreadyDone(_("This table was cancelled already."))
        if state_of(tb) == "returned":
            raise BridgeError(_("Its result is already in the turn: undo that battle first."))
        if tb.table.is_open:
            with tables.locked(tb.table_id) as table:
                tables.cancel(table, user, reason.strip())
        tb.cancelled, tb.cancel_reason = True, reason.strip()
        tb.save(update_fields=["cancelled", "cancel_reason"])
        audit(game, user, "battle_table_cancelled", {"turn": tb.turn.number, "battle": tb.battle_no,
                                                     "province": tb.province, "title": tb.table.title},
              reason.strip())
    return tb


def confirm_result(game: Game, user, tb_id: int, winner: str, attacker_losses: int, defender_losses: int,
                   reason: str = "") -> dict:
    """The finished table's result, as the moderator confirmed or edited it, goes into the turn as the
    battle's outcome (winner or tie, losses in power points); the turn goes on (R11, R6.5, R7, R12)."""
    require_moderator(user, game)
    tb = _table_battle(game, tb_id)
    state = state_of(tb)
    if state == "returned":
        raise console.AlreadyDone(_("The result of this table is already in the turn."))
    if state != "to_confirm":
        raise BridgeError(_("The table has not finished yet."))
    suggested = suggestion(tb)
    table = tb.table
    counted = (table.result or {}).get("losses") or {}
    note = {"table": {"id": table.pk, "system": table.system, "system_name": SYSTEM_NAMES.get(table.system),
                      "title": table.title, "result": table.result, "suggested": suggested,
                      # what each side lost there, in the system's own measure (figures, health)
                      "lost": {role: counted.get(key) or {"start": 0, "lost": 0} for role, key in tb.sides.items()}}}
    edited = suggested is None or suggested["winner"] != winner or suggested["losses"] != {
        "attacker": attacker_losses, "defender": defender_losses}
    return console.enter_outcome(game, user, tb.battle_no, tb.province, winner,
                                 {"attacker": attacker_losses, "defender": defender_losses},
                                 (reason or "").strip() or (_("edited by the moderator") if edited else ""),
                                 note=note)
