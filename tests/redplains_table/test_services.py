"""The Red Plains table's services: every act a step in the log, every die on the record, state = the replay."""
import pytest
from django.core.exceptions import ValidationError

from larp.campaign.models import AuditEntry
from larp.dice.models import Roll
from larp.redplains import services
from larp.redplains import situation as sit
from larp.redplains.engine.validate import validate_mode
from larp.rules import dice as generator
from larp.tables.models import Step, Table

from .conftest import PLACES, deploy_both, give_turn_one


def run_execution(table, user, hand_first=None):
    """Every roll the execution awaits: the first by hand (if given), the rest by the server."""
    if hand_first is not None:
        services.execution_dice(table.pk, user, hand=hand_first)
    for _ in range(200):
        table.refresh_from_db()
        if sit.preview(table.setup, table.state)["complete"]:
            return
        services.execution_dice(table.pk, user)
    raise AssertionError("the execution never completed")


def replayed(table):
    return sit.replay(table.setup, services.step_dicts(table))


def test_setup_is_the_engine_case_of_the_start(table):
    assert set(table.setup) >= {"field", "defender", "sides", "units", "leaders"}
    case = {**table.setup, "units": [{**u, "cell": PLACES[u["side"]][u["id"]]} for u in table.setup["units"]],
            "validate": {"phase": "deployment", "side": "north", "turn": 0}}
    assert validate_mode(case) == {"ok": True, "refused": [], "paid": {"special": 0, "ordinary": 0}}
    assert table.state["phase"] == sit.DEPLOYMENT and table.status == Table.SETUP


def test_a_whole_battle_through_the_services_ends_with_the_replayed_result(table, moderator, player, other_player):
    deploy_both(table, moderator)
    give_turn_one(table, moderator, player, other_player)
    table.refresh_from_db()
    assert table.state["phase"] == sit.EXECUTION
    run_execution(table, moderator)
    services.execute(table.pk, moderator)
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    state = replayed(table)
    assert state == table.state
    assert table.result == sit.result_of(table.setup, state)
    assert table.result["winner"] == "north" and table.result["ended_by"] == "W39.2"
    assert table.result["losses"]["north"]["start"] == 32 and table.result["losses"]["south"]["start"] == 8
    # each stored outcome is what the engine gives again
    execute = table.steps.get(kind="execute")
    assert execute.outcome == state["turns"][-1]
    # every server die is on the record with consecutive counters, and each is in a step's payload
    rolls = list(Roll.objects.filter(stream=table.dice, source=Roll.SERVER).order_by("counter"))
    assert [r.counter for r in rolls] == list(range(len(rolls)))
    assert [r.value for r in rolls] == [generator.die(4242, r.counter) for r in rolls]
    in_steps = sum(len(s.payload.get("values") or s.payload.get("dice") or []) for s in table.steps.all()
                   if s.payload.get("source") == "server")
    assert in_steps == len(rolls)
    assert AuditEntry.objects.filter(action="table_finished").count() == 1
    summaries = [e.detail.get("summary") for e in AuditEntry.objects.filter(action="table_step")]
    assert "Ход 1 исполнен." in summaries


def test_hand_dice_take_exactly_what_the_roll_needs(table, moderator, player, other_player):
    deploy_both(table, moderator)
    give_turn_one(table, moderator, player, other_player)
    before = Step.objects.filter(table=table).count()
    dice_before = Roll.objects.filter(stream=table.dice).count()
    with pytest.raises(sit.StepRefused) as refused:
        services.execution_dice(table.pk, moderator, hand=[6] * 30)
    assert refused.value.code == "too_many_dice" and refused.value.params == {"needed": 4}
    assert Step.objects.filter(table=table).count() == before
    assert Roll.objects.filter(stream=table.dice).count() == dice_before
    services.execution_dice(table.pk, moderator, hand=[5, 2, 6, 1])
    table.refresh_from_db()
    step = table.steps.get(kind="dice")
    assert step.payload["values"] == [5, 2, 6, 1] and step.payload["source"] == "hand"
    assert table.state["dice"] == {"n1": [5, 2, 6, 1]}


def test_the_stake_comes_before_the_roll_and_reroll_needs_a_messenger(table, moderator, player, other_player):
    deploy_both(table, moderator)
    services.roll(table.pk, player, "north")
    with pytest.raises(sit.StepRefused) as late:
        services.stake(table.pk, player, "north", "high")
    assert late.value.code == "stake_after_roll"
    first = table.steps.get(kind="roll", side="north")
    services.roll(table.pk, player, "north")            # the one messenger's re-roll
    assert set(Roll.objects.filter(ref=first.ref).values_list("status", flat=True)) == {Roll.DISCARDED}
    with pytest.raises(sit.StepRefused) as none_left:
        services.roll(table.pk, player, "north")
    assert none_left.value.code == "no_reroll_left"
    services.roll(table.pk, moderator, "south", hand=[1, 1])
    with pytest.raises(sit.StepRefused):
        services.roll(table.pk, moderator, "south", hand=[6, 6])     # south has no messenger
    table.refresh_from_db()
    assert table.state["command"]["south"]["result"]["success"] is False
    assert table.state["command"]["south"]["result"]["orders"] == {"special": 0, "ordinary": 3}


def test_orders_are_checked_by_the_engine_and_bad_ones_block_confirmation(table, moderator, player):
    deploy_both(table, moderator)
    services.roll(table.pk, moderator, "north", hand=[1, 2])            # low stake failed: 3 ordinary, 0 special
    services.give_orders(table.pk, player, "north", [
        {"unit": "n1", "slot": 1, "kind": "special", "type": "decisive_attack", "target": "s1"}])
    table.refresh_from_db()
    check = table.state["orders_check"]["north"]
    assert check["ok"] is False and check["refused"][0]["reason"] == "not_enough_special"
    with pytest.raises(sit.StepRefused) as refused:
        services.confirm(table.pk, player, "north")
    assert refused.value.code == "orders_not_valid"


def test_undo_replays_and_never_reuses_a_counter(table, moderator, player, other_player):
    deploy_both(table, moderator)
    give_turn_one(table, moderator, player, other_player)
    services.execution_dice(table.pk, moderator)
    table.refresh_from_db()
    taken = table.state["dice"]["n1"]
    services.undo(table.pk, moderator, "кубик упал со стола")
    table.refresh_from_db()
    assert table.state["dice"] == {} and table.state == replayed(table)
    assert set(Roll.objects.filter(stream=table.dice, purpose__startswith="the melee").values_list(
        "status", flat=True)) == {Roll.DISCARDED}
    services.execution_dice(table.pk, moderator)
    counters = list(Roll.objects.filter(stream=table.dice, source=Roll.SERVER).values_list("counter", flat=True))
    assert len(counters) == len(set(counters)) and len(taken) == 4
    with pytest.raises(ValidationError):
        services.undo(table.pk, moderator, "   ")


def test_override_needs_a_reason_and_changes_the_unit(table, moderator):
    deploy_both(table, moderator)
    with pytest.raises(ValidationError):
        services.override(table.pk, moderator, "s1", {"figures": 6}, "  ")
    services.override(table.pk, moderator, "s1", {"figures": 6}, "подкрепление по решению мастера")
    table.refresh_from_db()
    assert sit.unit_map(table.state)["s1"]["figures"] == 6 and table.state == replayed(table)
    step = table.steps.get(kind="override")
    assert step.reason == "подкрепление по решению мастера"
    assert AuditEntry.objects.filter(action="table_override").exists()


def test_a_table_made_with_its_units_placed_starts_at_the_command_phase(tiny_game, moderator):
    """The bridge from a battle of the war fills Table.setup with the units already on the field."""
    from larp.tables import services as tables
    setup = sit.make_setup({"north": [{"type": "cavalry", "figures": 8}, {"type": "samurai_bows", "figures": 8}],
                            "south": [{"type": "samurai_spears", "figures": 8},
                                      {"type": "ashigaru_arquebus", "figures": 8}]})
    for u, cell in zip(setup["units"], ("A11", "B11", "C11", "D11")):
        u["cell"] = cell
    table = tables.create_table(tiny_game, "red-plains", "Из войны", [("north", "Север", None), ("south", "Юг", None)],
                                moderator, setup=setup, origin={"battle": 1, "turn": 2})
    assert table.state == {}
    state = services.current(table)
    assert state["phase"] == sit.COMMAND and state["turn"] == 1
    services.roll(table.pk, moderator, "north", hand=[6, 6])
    table.refresh_from_db()
    assert table.state["command"]["north"]["result"]["orders"] == {"special": 1, "ordinary": 3}
