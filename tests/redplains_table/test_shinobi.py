"""W10 at the table: a shinobi that got through does one task per battle (scouting included) — sabotage, panic,
interception or signals — and the turn's case carries them to the engine. Every state is the engine's replay."""
import copy

import pytest

from larp.campaign.models import AuditEntry
from larp.dice.models import Roll
from larp.redplains import services
from larp.redplains import situation as sit
from larp.redplains.engine.turn import turn_mode
from larp.tables.models import Step

from .conftest import PLACES, deploy_with_shinobi


def state_of(table):
    table.refresh_from_db()
    assert table.state == sit.replay(table.setup, services.step_dicts(table))
    return table.state


def finish_execution(table, user):
    for _ in range(200):
        if sit.preview(table.setup, state_of(table))["complete"]:
            services.execute(table.pk, user)
            return state_of(table)
        services.execution_dice(table.pk, user)
    raise AssertionError("the execution never completed")


def north_attacks(table, user, first=None):
    """North rolls 6+6 (1 special, 3 ordinary); n1 by default a decisive attack on s1, n2 an ordinary move."""
    services.roll(table.pk, user, "north", hand=[6, 6])
    services.give_orders(table.pk, user, "north", first or [
        {"unit": "n1", "slot": 1, "kind": "special", "type": "decisive_attack", "target": "s1"},
        {"unit": "n2", "slot": 1, "kind": "ordinary", "type": "move"}])


def test_the_tally_counts_scouting_as_a_task_and_each_shinobi_does_one(shinobi_table, moderator):
    table = shinobi_table
    for side, n in (("north", 3), ("south", 2)):
        services.deploy(table.pk, moderator, side, PLACES[side], infiltrate=n)
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    services.scout(table.pk, moderator, "north", ["C11", "D11", "C12"])       # three cells: two shinobi
    state = state_of(table)
    assert sit.shinobi_tally(state, "north") == {"alive": 3, "through": 3, "used": 2, "ready": 1}
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    north_attacks(table, moderator)
    services.shinobi(table.pk, moderator, "north", "panic", "s1")
    with pytest.raises(sit.StepRefused) as spent:
        services.shinobi(table.pk, moderator, "north", "panic", "s2")
    assert spent.value.code == "no_shinobi"
    state = state_of(table)
    assert sit.shinobi_tally(state, "north") == {"alive": 3, "through": 3, "used": 3, "ready": 0}
    assert sit.shinobi_tally(state, "south")["ready"] == 2


def test_tasks_come_after_the_roll_in_the_command_phase_and_name_a_seen_enemy(shinobi_table, moderator):
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    steps = Step.objects.filter(table=table).count()
    with pytest.raises(sit.StepRefused) as early:
        services.shinobi(table.pk, moderator, "north", "panic", "s1")
    assert early.value.code == "no_roll_yet"
    services.roll(table.pk, moderator, "north", hand=[3, 3])
    steps += 1
    for task, unit, code in (("panic", "n2", "bad_target"), ("sabotage", "zz", "bad_target"),
                             ("signals", None, "bad_target"), ("poison", "s1", "bad_task")):
        with pytest.raises(sit.StepRefused) as bad:
            services.shinobi(table.pk, moderator, "north", task, unit)
        assert bad.value.code == code
    services.confirm(table.pk, moderator, "north")
    with pytest.raises(sit.StepRefused) as late:
        services.shinobi(table.pk, moderator, "north", "panic", "s1")
    assert late.value.code == "not_command"
    assert Step.objects.filter(table=table).count() == steps + 1               # only the confirmation
    assert not Roll.objects.filter(stream=table.dice, purpose__contains="W10.4").exists()


def test_sabotage_is_all_or_nothing_against_a_special_order(shinobi_table, moderator):
    """W10.4: 3–4 cancels the orders only if all are ordinary; n1 (a special order) keeps its attack on a 4,
    n2 (ordinary) loses its move on a 3. The dice are typed in by the moderator."""
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    north_attacks(table, moderator)
    services.roll(table.pk, moderator, "south", hand=[2, 3])
    services.shinobi(table.pk, moderator, "south", "sabotage", "n1", hand=[4])
    services.shinobi(table.pk, moderator, "south", "sabotage", "n2", hand=[3])
    state = state_of(table)
    assert sit.turn_case(table.setup, state)["shinobi"] == {
        "panic": [], "sabotage": [{"unit": "n1", "roll": 4}, {"unit": "n2", "roll": 3}]}
    assert [v["cancelled"] for v in sit.sabotage_verdicts(state)] == [False, True]
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    state = finish_execution(table, moderator)
    turn = state["turns"][0]
    assert turn["cancelled"] == [{"unit": "n2", "slot": 1, "rule": "W10.4", "reason": "sabotage"}]
    assert [(t["unit"], t["outcome"]) for t in turn["shinobi"]["south"]] == [("n1", "failed"), ("n2", "cancelled")]
    assert not any(e.get("unit") == "n2" and e["type"] == "move" for e in turn["events"])
    refs = [s.ref for s in table.steps.filter(kind="shinobi").order_by("seq")]
    hand = Roll.objects.filter(stream=table.dice, ref__in=refs).order_by("pk")
    assert [r.value for r in hand] == [4, 3] and {r.source for r in hand} == {Roll.HAND}
    assert table.steps.get(kind="execute").outcome == turn


def test_a_sabotage_by_the_server_takes_the_tables_next_die(shinobi_table, moderator, other_player):
    from larp.rules import dice as generator
    from larp.turns.audit_text import sentence
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    services.roll(table.pk, other_player, "south")
    services.shinobi(table.pk, other_player, "south", "sabotage", "n1")
    step = table.steps.get(kind="shinobi")
    roll = Roll.objects.get(ref=step.ref)
    assert step.payload == {"task": "sabotage", "unit": "n1", "roll": roll.value, "source": "server"}
    assert roll.source == Roll.SERVER and roll.value == generator.die(77, roll.counter)
    entry = AuditEntry.objects.filter(action="table_step", detail__seq=step.seq).get()
    summary = entry.detail["summary"]
    assert summary.startswith("Клан Скорпиона: синоби устраивает саботаж") and str(roll.value) in summary
    assert summary in sentence(entry, {}) and "Ночь синоби" in sentence(entry, {})     # the game's audit log


def test_several_panics_on_one_unit_add_up(shinobi_table, moderator):
    """W10.3: two panics lower s1's steadiness by 2 in the melee the engine fights (a third would not go below 0)."""
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    north_attacks(table, moderator, [{"unit": "n1", "slot": 1, "kind": "ordinary", "type": "move"}])
    services.shinobi(table.pk, moderator, "north", "panic", "s1")
    services.shinobi(table.pk, moderator, "north", "panic", "s1")
    services.roll(table.pk, moderator, "south", hand=[2, 3])
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    state = state_of(table)
    case = sit.turn_case(table.setup, state)
    assert case["shinobi"]["panic"] == ["s1", "s1"]
    calm = copy.deepcopy(case)
    calm["shinobi"] = {"panic": [], "sabotage": []}
    calm["seed"] = case["seed"] = 5

    def steadiness(c):
        melee = next(e for e in turn_mode(c)["events"] if e["type"] == "melee")
        return melee["units"]["s1"]["steadiness"]
    assert steadiness(case) == max(0, steadiness(calm) - 2)
    assert steadiness(calm) >= 1 and steadiness(case) < steadiness(calm)


def test_interception_before_a_reroll_takes_one_and_none_left_does_nothing(shinobi_table, moderator):
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    services.roll(table.pk, moderator, "north", hand=[2, 2])                 # no re-roll yet: it loses its one
    services.roll(table.pk, moderator, "south", hand=[5, 5])
    services.shinobi(table.pk, moderator, "south", "interception")
    state = state_of(table)
    assert sit.tasks(state, "south") == [{"task": "interception", "effect": "lost_one"}]
    assert state["rerolls_left"]["north"] == 0
    with pytest.raises(sit.StepRefused) as none_left:
        services.roll(table.pk, moderator, "north", hand=[6, 6])
    assert none_left.value.code == "no_reroll_left"
    services.shinobi(table.pk, moderator, "south", "interception")          # nothing left: spent all the same
    state = state_of(table)
    assert sit.tasks(state, "south")[-1] == {"task": "interception", "effect": "none"}
    assert sit.shinobi_tally(state, "south")["ready"] == 0


def test_interception_after_a_reroll_voids_it_and_reopens_orders_it_no_longer_pays(shinobi_table, moderator):
    """W10.5 ruling: south re-rolled 1+1 into 6+6 and gave a special order; the interception voids the re-roll,
    the 1+1 stands (no special), the order is refused and south must confirm again. Its count drops no further."""
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    services.roll(table.pk, moderator, "south", hand=[1, 1])
    services.roll(table.pk, moderator, "south", hand=[6, 6])
    services.give_orders(table.pk, moderator, "south", [
        {"unit": "s1", "slot": 1, "kind": "special", "type": "hold"}])
    services.confirm(table.pk, moderator, "south")
    services.roll(table.pk, moderator, "north", hand=[4, 4])
    services.shinobi(table.pk, moderator, "north", "interception")
    state = state_of(table)
    result = state["command"]["south"]["result"]
    assert result["voided_reroll"] is True and result["used_roll"] == 0 and result["orders"]["special"] == 0
    assert state["orders_check"]["south"]["ok"] is False and state["confirmed"]["south"] is False
    assert sit.tasks(state, "north") == [{"task": "interception", "effect": "voided"}]
    assert state["rerolls_left"]["south"] == 1 and result["rerolls_left"] == 0
    services.give_orders(table.pk, moderator, "south", [])
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    state = finish_execution(table, moderator)
    assert state["rerolls_left"]["south"] == 0                               # the voided re-roll's messenger is gone


def test_signals_reopen_only_the_signalling_sides_orders(shinobi_table, moderator):
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    north_attacks(table, moderator)
    services.shinobi(table.pk, moderator, "north", "signals", "s1")
    services.roll(table.pk, moderator, "south", hand=[6, 5])
    services.give_orders(table.pk, moderator, "south", [
        {"unit": "s1", "slot": 1, "kind": "special", "type": "hold"}], banners=[])
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    state = state_of(table)
    assert state["phase"] == sit.SIGNALS
    assert state["confirmed"] == {"north": False, "south": True}
    report = sit.tasks(state, "north")[0]["report"]
    assert report["orders"] == [{"unit": "s1", "slot": 1, "kind": "special", "type": "hold"}]
    assert report["banners"] == [] and report["leaders"] == [] and report["general_retreat"] is False
    with pytest.raises(sit.StepRefused) as other_side:
        services.give_orders(table.pk, moderator, "south", [])
    assert other_side.value.code == "no_plan_change"
    with pytest.raises(sit.StepRefused) as no_task_now:
        services.shinobi(table.pk, moderator, "north", "panic", "s2")
    assert no_task_now.value.code == "not_command"
    # north changes its plan: n1 no longer attacks the holding spearmen, it moves on s2's side instead
    services.give_orders(table.pk, moderator, "north", [{"unit": "n2", "slot": 1, "kind": "ordinary", "type": "move"}])
    state = state_of(table)
    assert state["phase"] == sit.SIGNALS and [o["unit"] for o in state["orders"]["north"]] == ["n2"]
    services.confirm(table.pk, moderator, "north")
    state = state_of(table)
    assert state["phase"] == sit.EXECUTION
    assert [o["unit"] for o in sit.turn_case(table.setup, state)["orders"] if o["unit"].startswith("n")] == ["n2"]
    state = finish_execution(table, moderator)
    assert state["turns"][0]["shinobi"]["north"][0]["task"] == "signals"


def test_no_signals_no_plan_change_phase(shinobi_table, moderator):
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    north_attacks(table, moderator)
    services.shinobi(table.pk, moderator, "north", "panic", "s2")
    services.roll(table.pk, moderator, "south", hand=[6, 5])
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    assert state_of(table)["phase"] == sit.EXECUTION


def test_undo_of_a_sabotage_discards_its_die_and_frees_the_shinobi(shinobi_table, moderator):
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    services.roll(table.pk, moderator, "south", hand=[3, 3])
    services.shinobi(table.pk, moderator, "south", "sabotage", "n2")
    step = table.steps.get(kind="shinobi")
    services.undo(table.pk, moderator, "цель названа по ошибке")
    state = state_of(table)
    assert sit.tasks(state, "south") == [] and sit.shinobi_tally(state, "south")["ready"] == 2
    assert set(Roll.objects.filter(ref=step.ref).values_list("status", flat=True)) == {Roll.DISCARDED}


def test_the_protocol_says_what_each_shinobi_did(shinobi_table, moderator, client_for):
    from .test_printing import pdf_text
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    north_attacks(table, moderator)
    services.shinobi(table.pk, moderator, "north", "panic", "s2")
    services.roll(table.pk, moderator, "south", hand=[2, 3])
    services.shinobi(table.pk, moderator, "south", "sabotage", "n2", hand=[3])
    services.shinobi(table.pk, moderator, "south", "interception")
    for side in sit.SIDES:
        services.confirm(table.pk, moderator, side)
    finish_execution(table, moderator)
    text = " ".join(pdf_text(client_for(moderator), table, "protocol").split())
    for words in ("Синоби", "Клан Скорпиона: синоби устраивает саботаж в отряде «Конные самураи 2», бросок 3 "
                  "(вручную): все приказы отряда отменены.",
                  "Клан Журавля: синоби сеет панику в отряде «Асигару с копьями 2»",
                  "Клан Скорпиона: синоби перехватывает гонца — у противника на один переброс меньше."):
        assert words in text, words
    assert "Синоби (W10): задание" in " ".join(pdf_text(client_for(moderator), table, "orders").split())


def test_a_state_cached_before_shinobi_were_counted_still_takes_a_task(shinobi_table, moderator):
    """A table in play when this arrived: its cached state has no task list and no count yet."""
    table = shinobi_table
    deploy_with_shinobi(table, moderator)
    services.roll(table.pk, moderator, "north", hand=[3, 3])
    old = copy.deepcopy(state_of(table))
    del old["tasks"], old["shinobi_used"]
    new = sit.apply(table.setup, old, "shinobi", "north", {"task": "panic", "unit": "s1"})
    assert sit.tasks(new, "north") == [{"task": "panic", "unit": "s1"}]
    assert sit.shinobi_tally(new, "north")["ready"] == 2
