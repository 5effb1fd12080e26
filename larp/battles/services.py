"""The console's turn: movement, battles with dice, regroup (R6-R12), every act audited (R14).

The engine recomputes the whole turn from the turn-start state, the orders,
the dice confirmed so far and the moderators' choices; the result is stored.
So confirming a battle is appending its roll, and undo is dropping the last
one: the previous state comes back exactly. Writes to the map happen only
when moderators apply movement (positions) and regroup (the whole state).
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from larp.battles import hooks
from larp.battles.models import DiceRoll, TurnResolution
from larp.campaign.access import require_moderator
from larp.campaign.models import Faction, Game, Province
from larp.dice import services as dice_record
from larp.dice.models import Roll
from larp.engine import CaseError, run_turn
from larp.forces.models import Army
from larp.orders import services as order_services
from larp.orders.models import Order
from larp.turns import clock
from larp.turns.models import Phase, Turn, TurnSettings
from larp.turns.services import audit
from larp.turns import situation
from larp.turns.situation import apply_positions, apply_state


class ConsoleError(ValidationError):
    """A console act that does not fit the turn's state; the message is for the moderator."""


class AlreadyDone(ConsoleError):
    """The act was done already (a double click, a second moderator): nothing changes, nothing is wrong."""


class StaleBattle(ConsoleError):
    """The request names a battle or roll that is no longer the current one (double click, second moderator)."""


def _current_turn(game: Game, *, lock: bool = False) -> tuple[Turn, Phase]:
    ts = TurnSettings.objects.filter(game=game).select_related("current_phase__turn").first()
    phase = ts.current_phase if ts else None
    if phase is None:
        raise ConsoleError(_("The game has not started."))
    if phase.kind == Phase.STRATEGY and phase.state != Phase.CLOSED:
        raise ConsoleError(_("Orders are still being filed: wait for the Strategy deadline."))
    return phase.turn, phase


def turn_number(game: Game) -> int | None:
    """The number of the turn under way, for the audit log (None before the game starts)."""
    ts = TurnSettings.objects.filter(game=game).select_related("current_phase__turn").first()
    return ts.current_phase.turn.number if ts and ts.current_phase else None


def _resolution(turn: Turn, *, lock: bool = False) -> TurnResolution:
    """The turn's resolution (locked when asked), with its result computed if it never was."""
    resolution, _created = TurnResolution.objects.get_or_create(turn=turn)
    if lock:
        resolution = TurnResolution.objects.select_for_update().get(pk=resolution.pk)
        if not resolution.result:
            _recompute(turn, resolution)
    return resolution


def turn_case(turn: Turn, resolution: TurnResolution) -> dict:
    """The engine's case for this turn: start state + orders in filing order + dice + choices."""
    orders = Order.objects.filter(turn=turn).order_by("implicit", "filed_at", "id")
    return situation.turn_case(turn, [o.payload for o in orders], resolution.dice, resolution.choices)


def _recompute(turn: Turn, resolution: TurnResolution) -> dict:
    try:
        result = run_turn(turn_case(turn, resolution))
    except CaseError as exc:
        raise ConsoleError(_("The rules engine refused the turn: %(problem)s") % {"problem": exc}) from None
    resolution.result = result
    resolution.updated_at = timezone.now()
    resolution.save(update_fields=["result", "updated_at", "dice", "choices"])
    return result


def current_result(game: Game) -> tuple[Turn, TurnResolution, dict]:
    """The turn's result as it stands (computed once and stored)."""
    turn, _phase = _current_turn(game)
    resolution = _resolution(turn)
    if not resolution.result:
        with transaction.atomic():
            resolution = _resolution(turn, lock=True)
            if not resolution.result:
                _recompute(turn, resolution)
    return turn, resolution, resolution.result


@transaction.atomic
def apply_movement(game: Game, by, turn_number: int | None = None) -> dict:
    """Armies and fleets stand where movement took them; the battles are set up (R6). Once per turn."""
    require_moderator(by, game)
    turn, _phase = _current_turn(game)
    if turn_number is not None and turn_number != turn.number:
        raise StaleBattle(_("This page was for turn %(asked)s; it is turn %(now)s now. Nothing was applied.")
                          % {"asked": turn_number, "now": turn.number})
    resolution = _resolution(turn, lock=True)
    result = resolution.result
    if resolution.movement_applied_at is not None:  # a double click, or a second moderator
        raise AlreadyDone(_("Movement of turn %(n)s has already been applied.") % {"n": turn.number})
    apply_positions(game, result["positions"])
    resolution.movement_applied_at = timezone.now()
    resolution.save(update_fields=["movement_applied_at"])
    audit(game, by, "movement_applied", {"turn": turn.number, "battles": len(result.get("battles", []))})
    clock.invalidate_on_commit(game.pk)
    return result


def battles_under_way(game: Game, by) -> Phase | None:
    """Fighting the turn's battles is the Tactics phase's work (R6.5): a moderator who acts on a battle while
    the clock still says Movement (its movement applied) moves the turn on to Tactics, audited like the
    console's button, so the console, tablets and projector name the phase really under way.

    Returns the phase started (None: nothing to change, or another moderator already moved on)."""
    from larp.turns.services import next_phase

    ts = TurnSettings.objects.filter(game=game).select_related("current_phase__turn").first()
    phase = ts.current_phase if ts else None
    if phase is None or phase.kind != Phase.MOVEMENT:
        return None
    if not TurnResolution.objects.filter(turn=phase.turn, movement_applied_at__isnull=False).exists():
        return None
    try:
        return next_phase(game, by, phase_id=phase.pk)
    except ValidationError:  # another moderator moved on first, or the phase keeps work: it stays as it is
        return None


def decided_count(resolution: TurnResolution) -> int:
    """Battles of the turn decided so far: one entry of `dice` per autobattle, one of `choices.outcomes` per
    battle decided elsewhere (a table, docs/adjudication.md); outcomes are entered for the battle awaiting."""
    return len(resolution.dice) + len((resolution.choices or {}).get("outcomes", []))


def _check_held(turn: Turn) -> None:
    """Refuse an act on the turn's battles while one of them is held (fought at a table, larp/bridge)."""
    reason = hooks.hold(turn)
    if reason:
        raise ConsoleError(reason)


def _check_battle_no(resolution: TurnResolution, battle_no: int) -> dict:
    awaiting = (resolution.result or {}).get("awaiting")
    if awaiting is None or awaiting["n"] != battle_no:
        raise StaleBattle(_("Battle %(n)s is not the one awaiting dice (it was confirmed already, or "
                             "battles changed).") % {"n": battle_no})
    return awaiting


def pending_roll(resolution: TurnResolution, battle_no: int) -> DiceRoll | None:
    """The server roll shown for this battle and not yet confirmed (the latest one)."""
    return DiceRoll.objects.filter(resolution=resolution, battle_no=battle_no, source="server",
                                   undone=False).order_by("-at", "-id").first()


def battle_ref(turn: Turn, battle_no: int) -> str:
    """What a war die is for, on the dice record."""
    return f"turn-{turn.number}:battle-{battle_no}"


def _discard_server_roll(turn: Turn, roll: DiceRoll, reason: str) -> None:
    """A server roll not used (re-rolled, replaced by hand dice, or its battle undone): discarded on the record."""
    if roll.counter is None:
        return
    first, last = roll.counters
    dice_record.discard(Roll.objects.filter(stream__game_id=turn.game_id, stream__label=dice_record.turn_label(
        turn.number), counter__gte=first, counter__lte=last), reason=reason)


def server_roll(game: Game, by, battle_no: int, replaces: int | None = None, reason: str = "") -> DiceRoll:
    """Dice rolled by the server from the game's committed seed, stored before anyone sees them.

    `replaces` names the roll on the moderator's screen (None: none yet). If another roll has been made for
    this battle since, the request is stale (a double click, a second moderator) and refused, so one press
    stores one roll. A re-roll needs the moderator's reason: the replaced dice stay on the dice record,
    discarded with it. Every die takes the turn stream's next counter, so a re-roll never reuses one.
    """
    require_moderator(by, game)
    with transaction.atomic():
        turn, _phase = _current_turn(game)
        resolution = _resolution(turn, lock=True)
        awaiting = _check_battle_no(resolution, battle_no)
        _check_held(turn)
        shown = pending_roll(resolution, battle_no)
        if (shown.pk if shown else None) != replaces:
            raise StaleBattle(_("The dice of battle %(n)s have just been rolled (by another moderator, or by a "
                                "second click): look at them before rolling again.") % {"n": battle_no})
        reason = (reason or "").strip()
        if shown is not None and not reason:
            raise ConsoleError(_("Write why the dice are rolled again: the dice record keeps it."))
        # Die k of the turn is die(turn_seed(seed, turn), k), k the turn stream's next counter: every
        # server die rolled before in this turn, re-rolls included (docs/dice.md).
        count = awaiting["dice_count"]["attacker"]
        stream = dice_record.turn_stream(game, turn.number)
        rolled = dice_record.roll(stream, 2 * count, purpose=f"battle {battle_no}",
                                  ref=battle_ref(turn, battle_no), user=by)
        values = [r.value for r in rolled]
        attacker, defender = values[:count], values[count:]
        roll = DiceRoll.objects.create(resolution=resolution, battle_no=battle_no, attacker=attacker,
                                       defender=defender, source="server", by=by, counter=rolled[0].counter)
        detail = {"turn": turn.number, "battle": battle_no, "attacker": attacker, "defender": defender,
                  "counters": list(roll.counters)}
        if shown is not None:
            _discard_server_roll(turn, shown, _("rolled again: %(reason)s") % {"reason": reason})
            detail["replaces"] = list(shown.counters) if shown.counters else None
        audit(game, by, "dice_rolled", detail, reason)
    return roll


def _valid_dice(values, count: int, side: str) -> list[int]:
    try:
        dice = [int(v) for v in values]
    except (TypeError, ValueError):
        raise ConsoleError(_("Dice are whole numbers from 1 to 6.")) from None
    if len(dice) != count or not all(1 <= d <= 6 for d in dice):
        raise ConsoleError(_("The %(side)s rolls %(count)s d6 (R8): enter %(count)s value(s) from 1 to 6.")
                           % {"side": _("attacker") if side == "attacker" else _("defender"), "count": count})
    return dice


@transaction.atomic
def confirm_battle(game: Game, by, battle_no: int, attacker, defender, *, roll_id: int | None = None) -> dict:
    """Apply one battle's dice. Idempotent: a second confirmation of the same battle changes nothing."""
    require_moderator(by, game)
    turn, _phase = _current_turn(game)
    resolution = _resolution(turn, lock=True)
    if decided_count(resolution) >= battle_no:
        return {"already": True, "result": resolution.result}  # double click, or a second moderator
    awaiting = _check_battle_no(resolution, battle_no)
    _check_held(turn)
    if roll_id is not None:
        roll = DiceRoll.objects.filter(pk=roll_id, resolution=resolution, battle_no=battle_no, undone=False).first()
        if roll is None:
            raise ConsoleError(_("That server roll does not belong to this battle."))
        latest = pending_roll(resolution, battle_no)
        if latest is not None and latest.pk != roll.pk:
            raise StaleBattle(_("The dice of battle %(n)s were rolled again since this page was opened: look at "
                                "the new roll before confirming.") % {"n": battle_no})
        attacker, defender, source = roll.attacker, roll.defender, "server"
    else:
        attacker = _valid_dice(attacker, awaiting["dice_count"]["attacker"], "attacker")
        defender = _valid_dice(defender, awaiting["dice_count"]["defender"], "defender")
        source = "hand"
        shown = pending_roll(resolution, battle_no)
        if shown is not None:
            _discard_server_roll(turn, shown, _("dice entered by hand instead"))
        DiceRoll.objects.create(resolution=resolution, battle_no=battle_no, attacker=attacker, defender=defender,
                                source="hand", by=by)
        dice_record.record_hand(dice_record.turn_stream(game, turn.number), [*attacker, *defender],
                                purpose=f"battle {battle_no}", ref=battle_ref(turn, battle_no), user=by)
    resolution.dice = [*resolution.dice, {"attacker": attacker, "defender": defender}]
    result = _recompute(turn, resolution)
    fought = result["fought"][battle_no - 1]
    audit(game, by, "battle_confirmed", {"turn": turn.number, "battle": battle_no, "province": fought["province"], "dice": {
        "attacker": attacker, "defender": defender, "source": source}, "outcome": fought.get("outcome"),
        "decision": fought.get("decision"), "totals": [fought["attacker"]["total"], fought["defender"]["total"]]})
    return {"already": False, "result": result}


@transaction.atomic
def undo_last_battle(game: Game, by, reason: str, battle_no: int | None = None) -> int:
    """Drop the last confirmed roll: the turn is recomputed and the previous state returns exactly (R14).

    The reason is required (the log shows it). `battle_no` names the battle the moderator sees as the last
    one; if it is no longer the last (a second click, another moderator), nothing is undone.
    """
    require_moderator(by, game)
    if not (reason or "").strip():
        raise ConsoleError(_("Write why the battle is undone: the log keeps it."))
    turn, _phase = _current_turn(game)
    resolution = _resolution(turn, lock=True)
    if resolution.applied_at is not None:
        raise ConsoleError(_("Regroup has been applied; battles can no longer be undone."))
    _check_held(turn)
    decided = decided_count(resolution)
    if battle_no is not None and decided != battle_no:
        raise StaleBattle(_("Battle %(n)s is no longer the last one confirmed (it was undone already, or "
                            "another battle was confirmed since): nothing was undone.") % {"n": battle_no})
    if not decided:
        raise ConsoleError(_("No battle has been confirmed yet."))
    battle_no = decided
    fought = (resolution.result or {}).get("fought") or []
    province = fought[battle_no - 1].get("province") if len(fought) >= battle_no else None
    outcomes = list((resolution.choices or {}).get("outcomes", []))
    outside = [o for o in outcomes if o.get("battle") == battle_no]
    if outside:
        # The last battle was decided at a table: its entered outcome is taken back (the table stays finished).
        resolution.choices = {**resolution.choices, "outcomes": [o for o in outcomes if o.get("battle") != battle_no]}
    else:
        resolution.dice = resolution.dice[:-1]
        DiceRoll.objects.filter(resolution=resolution, battle_no=battle_no, undone=False).update(undone=True)
        dice_record.discard(stream=dice_record.turn_stream(game, turn.number), ref=battle_ref(turn, battle_no),
                            reason=_("battle undone: %(reason)s") % {"reason": reason.strip()})
    _recompute(turn, resolution)
    audit(game, by, "battle_undone", {"turn": turn.number, "battle": battle_no, "province": province,
                                      **({"table": outside[0].get("table", {}).get("id")} if outside else {})},
          reason.strip())
    return battle_no


def _update_choices(game: Game, by, action: str, change, detail: dict, reason: str = "",
                    battle_no: int | None = None) -> dict:
    require_moderator(by, game)
    with transaction.atomic():
        turn, _phase = _current_turn(game)
        resolution = _resolution(turn, lock=True)
        if resolution.applied_at is not None:
            raise ConsoleError(_("Regroup has been applied; start the next turn."))
        previous = (dict(resolution.choices), resolution.result)
        choices = dict(resolution.choices)
        if battle_no is not None:
            _check_battle_no(resolution, battle_no)
        change(choices, decided_count(resolution))
        resolution.choices = choices
        try:
            result = _recompute(turn, resolution)
        except ConsoleError:
            resolution.choices, resolution.result = previous
            raise
        audit(game, by, action, {"turn": turn.number, **detail}, reason)
        return result


def enter_outcome(game: Game, by, battle_no: int, province: str, winner: str, losses: dict, reason: str = "",
                  note: dict | None = None) -> dict:
    """The awaiting battle decided elsewhere (a table, larp/bridge): its winner or a tie and each side's losses
    in power points go into `choices.outcomes` (docs/adjudication.md), and the turn goes on from it.

    `note` is kept with the outcome for the pages and the paper (the table, its system, its result); the
    engine reads only the battle, province, winner and losses.
    """
    if winner not in ("attacker", "defender", "tie"):
        raise ConsoleError(_("Choose the winner or a tie."))
    try:
        points = {role: int(losses[role]) for role in ("attacker", "defender")}
    except (KeyError, TypeError, ValueError):
        raise ConsoleError(_("Losses are whole numbers of power points.")) from None
    if any(p < 0 for p in points.values()):
        raise ConsoleError(_("Losses are whole numbers of power points."))

    def change(choices, confirmed):
        outcomes = [o for o in choices.get("outcomes", []) if o.get("battle") != battle_no]
        choices["outcomes"] = [*outcomes, {"battle": battle_no, "province": province, "winner": winner,
                                           "losses": points, **(note or {})}]

    return _update_choices(game, by, "outside_outcome_entered", change,
                           {"battle": battle_no, "province": province, "winner": winner, "losses": points},
                           reason, battle_no)


def add_modifier(game: Game, by, battle_no: int, side: str, value: int, reason: str) -> dict:
    """A moderator modifier for a battle not yet fought, with its written reason (R8, R14)."""
    if side not in ("attacker", "defender"):
        raise ConsoleError(_("Choose the attacker or the defender."))
    try:
        value = int(value)
    except (TypeError, ValueError):
        raise ConsoleError(_("A modifier is a whole number, e.g. 2 or -3.")) from None
    if not reason or not reason.strip():
        raise ConsoleError(_("Write the reason for the modifier: players will ask."))

    def change(choices, confirmed):
        if battle_no <= confirmed:
            raise ConsoleError(_("Battle %(n)s is already fought; undo it first.") % {"n": battle_no})
        choices["modifiers"] = [*choices.get("modifiers", []),
                                {"battle": battle_no, "side": side, "value": value, "reason": reason.strip()}]

    return _update_choices(game, by, "modifier_added", change, {"battle": battle_no, "side": side, "value": value},
                           reason, battle_no)


def remove_modifier(game: Game, by, battle_no: int, index: int) -> dict:
    """Take back a modifier of a battle not yet fought (`index` in the turn's list of modifiers)."""
    detail = {"battle": battle_no}

    def change(choices, confirmed):
        if battle_no <= confirmed:
            raise ConsoleError(_("Battle %(n)s is already fought; undo it first.") % {"n": battle_no})
        modifiers = list(choices.get("modifiers", []))
        if not 0 <= index < len(modifiers) or modifiers[index].get("battle") != battle_no:
            raise ConsoleError(_("This modifier is no longer there: the page was out of date. Look again."))
        gone = modifiers.pop(index)
        detail.update(side=gone.get("side"), value=gone.get("value"), was=gone.get("reason", ""))
        choices["modifiers"] = modifiers

    return _update_choices(game, by, "modifier_removed", change, detail, battle_no=battle_no)


def set_greek_fire(game: Game, by, battle_no: int, use: bool) -> dict:
    def change(choices, confirmed):
        if battle_no <= confirmed:
            raise ConsoleError(_("Battle %(n)s is already fought; undo it first.") % {"n": battle_no})
        chosen = [n for n in choices.get("greek_fire", []) if n != battle_no]
        choices["greek_fire"] = sorted(chosen + ([battle_no] if use else []))

    return _update_choices(game, by, "greek_fire", change, {"battle": battle_no, "use": use}, battle_no=battle_no)


def set_storms(game: Game, by, province: str, storms: int, reason: str = "") -> dict:
    try:
        storms = int(storms)
    except (TypeError, ValueError):
        raise ConsoleError(_("Storms are counted 1 to 4 (R7).")) from None
    if not 1 <= storms <= 4:
        raise ConsoleError(_("Storms are counted 1 to 4 (R7)."))

    def change(choices, confirmed):
        choices["storms"] = {**choices.get("storms", {}), province: storms}

    return _update_choices(game, by, "storms_limited", change, {"province": province, "storms": storms}, reason)


def set_retreat(game: Game, by, unit: str, province: str | None, reason: str = "") -> dict:
    """Another legal retreat than the engine's default (R12); None restores the default."""
    def change(choices, confirmed):
        retreats = {k: v for k, v in choices.get("retreats", {}).items() if k != unit}
        if province:
            retreats[unit] = province
        choices["retreats"] = retreats

    return _update_choices(game, by, "retreat_chosen", change, {"unit": unit, "to": province}, reason)


@transaction.atomic
def set_news(game: Game, by, text: str) -> None:
    require_moderator(by, game)
    turn, _phase = _current_turn(game)
    resolution = _resolution(turn, lock=True)
    resolution.news = (text or "").strip()
    resolution.save(update_fields=["news"])
    audit(game, by, "news", {"turn": turn.number, "chars": len(resolution.news)})


@transaction.atomic
def apply_regroup(game: Game, by, turn_number: int | None = None) -> dict:
    """Write the turn's outcome to the map: positions, losses, retreats, recolouring (R12). Once.

    `turn_number` names the turn the moderator sees; a request made for another turn is refused.
    """
    require_moderator(by, game)
    turn, phase = _current_turn(game)
    if turn_number is not None and turn_number != turn.number:
        raise StaleBattle(_("This page was for turn %(asked)s; it is turn %(now)s now. Nothing was applied.")
                          % {"asked": turn_number, "now": turn.number})
    resolution = _resolution(turn, lock=True)
    if resolution.applied_at is not None:
        raise AlreadyDone(_("Regroup for turn %(n)s has already been applied.") % {"n": turn.number})
    result = _recompute(turn, resolution)
    if "awaiting" in result:
        raise ConsoleError(_("Battle %(n)s at %(province)s still awaits its dice.")
                           % {"n": result["awaiting"]["n"], "province": _province_name(game, result["awaiting"]["province"])})
    apply_state(game, result["state"])
    resolution.applied_at = timezone.now()
    resolution.save(update_fields=["applied_at"])
    audit(game, by, "regroup_applied", {"turn": turn.number, "recoloured": result.get("recoloured", []),
                                        "retreats": len(result.get("retreats", []))})
    clock.invalidate_on_commit(game.pk)
    return result


def _province_name(game: Game, code: str) -> str:
    province = Province.objects.filter(game=game, code=code).first()
    return province.name if province else code


@transaction.atomic
def transfer_province(game: Game, by, province_code: str, faction_code: str | None, reason: str) -> Province:
    """A moderator hands a province to another faction or makes it neutral, with a reason (R12, R14)."""
    require_moderator(by, game)
    if not reason or not reason.strip():
        raise ConsoleError(_("Write the reason for the transfer."))
    province = Province.objects.select_for_update().get(game=game, code=province_code, domain=Province.LAND)
    before = province.owner.code if province.owner else None
    province.owner = Faction.objects.get(game=game, code=faction_code) if faction_code else None
    province.save(update_fields=["owner"])
    audit(game, by, "province_transferred", {"turn": turn_number(game), "province": province_code, "from": before, "to": faction_code}, reason)
    clock.invalidate_on_commit(game.pk)
    return province


@transaction.atomic
def raise_army(game: Game, by, army: Army, province_code: str | None = None) -> Army:
    """A destroyed army's slot raised anew (R2): in the capital, or where a moderator places it if it is lost."""
    require_moderator(by, game)
    army = Army.objects.select_for_update().select_related("faction__capital").get(pk=army.pk, game=game)
    if not army.destroyed:
        raise ConsoleError(_("Army %(army)s is not destroyed.") % {"army": army})
    capital = army.faction.capital
    if province_code:
        province = Province.objects.get(game=game, code=province_code, domain=Province.LAND)
    elif capital is not None and capital.owner_id == army.faction_id:
        province = capital
    else:
        raise ConsoleError(_("The capital is lost: choose where to place the new army (R2)."))
    army.destroyed, army.province = False, province
    army.save(update_fields=["destroyed", "province"])
    audit(game, by, "army_raised", {"turn": turn_number(game), "army": army.code, "province": province.code})
    return army


def moderator_set_order(user, game: Game, unit_code: str, payload: dict, reason: str) -> Order:
    """A moderator writes or corrects an order at any time of the turn (R14), checked by the engine, audited.

    Before any battle is confirmed only: the confirmed dice belong to the battles as they were; undo them
    first. A computed turn is cleared, to be recomputed from the corrected orders on the next look.
    """
    unit, order_data = order_services.moderator_order_data(user, game, unit_code, payload, reason)
    with transaction.atomic():
        turn = order_services.lock_for_moderator(game, unit)
        resolution = TurnResolution.objects.select_for_update().filter(turn=turn).first()
        if resolution is not None and (decided_count(resolution) or resolution.applied_at or hooks.hold(turn)):
            raise order_services.OrderRefused(
                _("Battles of this turn are already confirmed: undo them before changing orders."), code="battles")
        order = order_services.save_moderator_order(user, game, turn, unit, order_data, reason)
        if resolution is not None:
            resolution.result = {}
            resolution.save(update_fields=["result"])
        return order


# --- the work of each phase (the turn cycle asks before a phase is left) ---------

def _turn_result(turn: Turn) -> tuple[TurnResolution, dict]:
    resolution = _resolution(turn)
    if not resolution.result:
        with transaction.atomic():
            resolution = _resolution(turn, lock=True)
    return resolution, resolution.result


def unfinished_work(phase: Phase) -> list[str]:
    """What leaving this phase now would lose, in sentences for the moderator (empty: its work is done).

    Movement: the positions applied. Tactics: no battle awaiting dice. Regroup: the outcome applied.
    """
    game = phase.turn.game
    resolution, result = _turn_result(phase.turn)
    if phase.kind == Phase.MOVEMENT and resolution.movement_applied_at is None:
        moving = sum(1 for m in result.get("moves", []) if m.get("result") != "held")
        return [_("Movement has not been applied: units that would move: %(moves)s; battles it sets up: "
                  "%(battles)s. They will stay where they stand.")
                % {"moves": moving, "battles": len(result.get("battles", []))}]
    if phase.kind == Phase.TACTICS and result.get("awaiting"):
        awaiting = result["awaiting"]
        return [_("Battle %(n)s (%(province)s) and any after it have not been fought; without them regroup "
                  "of this turn cannot be applied.")
                % {"n": awaiting["n"], "province": _province_name(game, awaiting["province"])}]
    if phase.kind == Phase.REGROUP and resolution.applied_at is None:
        return [_("Regroup has not been applied: losses, retreats and provinces changing hands "
                  "(%(recoloured)s) will not reach the map.") % {"recoloured": len(result.get("recoloured", []))}]
    return []
