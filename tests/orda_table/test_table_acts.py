"""The «Орда» table's acts a moderator could not do through the pages before: the roll-off for the turn order (O8,
O10), the Арбалетчик's push direction (O21 heavy bolts) and the paired attacks of Змей Горыныч and the Подрывник
(O15, O21) — each a step of the log, replayed, undone and audited in Russian, with fixed dice. Every number is the
data set MADE UP FOR THE TESTS (tests/orda_table/data.py)."""
import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from larp.campaign.models import AuditEntry
from larp.dice.models import Roll
from larp.orda import services
from larp.orda import situation as sit
from larp.rules.dice import die
from larp.tables import services as tables
from larp.tables.access import seat
from larp.tables.models import Step, Table
from tests.orda_table.data import CROSSBOW_AND_SAPPER, SERPENT_LINE, arranged_setup


@pytest.fixture(autouse=True)
def _russian():
    with translation.override("ru"):
        yield


def make_table(game, moderator, order, placements, *, seed=3, **kw):
    north, south = game.factions.get(code="north"), game.factions.get(code="south")
    players = {"rus": north, "china": north, "north_mongolia": south, "south_mongolia": south}
    return tables.create_table(game, "orda", "Стол для проверки", [(f, f, players[f]) for f in order], moderator,
                               setup=arranged_setup(order, placements, **kw), seed=seed)


def replayed(table) -> dict:
    table = Table.objects.get(pk=table.pk)
    return sit.replay(table.setup, [(s.kind, s.payload) for s in tables.live_steps(table)])


def stored(table) -> dict:
    return Table.objects.get(pk=table.pk).state


def unit(table, uid) -> dict:
    return next(u for u in stored(table)["case"]["units"] if u["id"] == uid)


def nothing_saved(table):
    """A context that checks an act left no step and no die behind."""
    class Check:
        def __enter__(self):
            self.before = (Step.objects.filter(table=table).count(), Roll.objects.count(), stored(table))

        def __exit__(self, *exc):
            assert (Step.objects.filter(table=table).count(), Roll.objects.count(), stored(table)) == self.before
            return False
    return Check()


# ---------------------------------------------------------------- the roll-off (O8, O10)

@pytest.fixture
def rolloff_table(tiny_game, moderator):
    return make_table(tiny_game, moderator, ["china", "north_mongolia"], CROSSBOW_AND_SAPPER, rolloff=True)


def test_the_first_turn_waits_for_the_rolloff_and_a_tie_is_rolled_again(tiny_game, rolloff_table, moderator,
                                                                       player, other_player):
    t = rolloff_table
    mod, cn, nm = (seat(u, tiny_game.pk, t.pk) for u in (moderator, player, other_player))
    with pytest.raises(ValidationError) as exc:
        services.act(t.pk, player, cn, "turn_start", {})
    assert "жеребьёвку" in exc.value.messages[0]
    with pytest.raises(PermissionDenied):                    # the moderator holds the roll-off, not a player
        services.act(t.pk, player, cn, "rolloff", {}, hand={"china": 6, "north_mongolia": 1})
    table = services.act(t.pk, moderator, mod, "rolloff", {}, hand={"china": 4, "north_mongolia": 4})
    ro = table.state["rolloff"]
    assert ro["first"] is None and ro["contenders"] == ["china", "north_mongolia"]
    assert table.status == Table.SETUP and table.state["case"]["game"]["order"] == ["china", "north_mongolia"]
    with nothing_saved(t), pytest.raises(ValidationError) as exc:    # a die for each faction still rolling
        services.act(t.pk, moderator, mod, "rolloff", {}, hand={"china": 2})
    assert "Северная Монголия" in exc.value.messages[0]
    table = services.act(t.pk, moderator, mod, "rolloff", {}, hand={"china": 2, "north_mongolia": 5})
    assert table.state["rolloff"]["first"] == "north_mongolia"
    assert table.state["case"]["game"]["order"] == ["north_mongolia", "china"]
    assert table.state["case"]["game"]["active"] == "north_mongolia"
    assert [s.key for s in table.sides.all()] == ["north_mongolia", "china"]
    assert table.status == Table.SETUP
    with nothing_saved(t), pytest.raises(ValidationError) as exc:
        services.act(t.pk, moderator, mod, "rolloff", {})
    assert "уже определён" in exc.value.messages[0]
    steps = Step.objects.filter(table=t, kind="rolloff").order_by("seq")
    assert [s.payload for s in steps] == [{"dice": {"china": 4, "north_mongolia": 4}, "hand": True},
                                          {"dice": {"china": 2, "north_mongolia": 5}, "hand": True}]
    assert [r.value for r in Roll.objects.filter(ref__in=[s.ref for s in steps]).order_by("pk")] == [4, 4, 2, 5]
    summaries = list(AuditEntry.objects.filter(action="table_step", detail__kind="rolloff").order_by("pk")
                     .values_list("detail__summary", flat=True))
    assert "ничья" in summaries[0] and "Китай 4, Северная Монголия 4" in summaries[0]
    assert "первый ход: Северная Монголия" in summaries[1] and "с руки" in summaries[1]
    with pytest.raises(PermissionDenied):                    # it is not China's turn any more
        services.act(t.pk, player, cn, "turn_start", {})
    table = services.act(t.pk, other_player, nm, "turn_start", {})
    assert table.status == Table.PLAYING and replayed(t) == stored(t)


def test_server_dice_roll_again_only_those_tied(tiny_game, moderator):
    # a seed whose first four server dice tie for the best (the counters of the table's stream start at 0)
    seed = next(s for s in range(1, 2000) if sorted(die(s, k) for k in range(4))[-2:] == [die(s, 0)] * 2)
    order = ["rus", "north_mongolia", "china", "south_mongolia"]
    t = make_table(tiny_game, moderator, order, {"rus-ivan_iii": [1, 1], "nm-batu_khan": [0, -3],
                                                 "cn-wanyan_xun": [3, -1], "sm-genghis_khan": [-3, 1]},
                   seed=seed, rolloff=True)
    mod = seat(moderator, tiny_game.pk, t.pk)
    table = services.act(t.pk, moderator, mod, "rolloff", {})
    first = table.state["rolloff"]["rounds"][0]
    assert first == [[f, die(seed, k)] for k, f in enumerate(order)]
    assert die(seed, 0) == max(d for _f, d in first) and len(table.state["rolloff"]["contenders"]) >= 2
    assert Table.objects.get(pk=t.pk).status == Table.SETUP
    rounds = 1
    while table.state["rolloff"]["first"] is None:
        tied = table.state["rolloff"]["contenders"]
        last = dict(table.state["rolloff"]["rounds"][-1])
        assert len(tied) > 1 and len({last[f] for f in tied}) == 1 and last[tied[0]] == max(last.values())
        table = services.act(t.pk, moderator, mod, "rolloff", {})
        rounds += 1
        assert [f for f, _d in table.state["rolloff"]["rounds"][-1]] == tied     # only the tied roll again
    assert rounds >= 2
    winner = table.state["rolloff"]["first"]
    game_order = table.state["case"]["game"]["order"]
    assert game_order[0] == winner and game_order == (order + order)[order.index(winner):order.index(winner) + 4]
    assert sit.setup_problems(table.state["case"]) == []                 # the sides still alternate (O8)
    rolls = Roll.objects.filter(stream=table.dice, source="server").order_by("counter")
    assert all(r.value == die(seed, r.counter) for r in rolls)            # every die is the stream's
    assert replayed(t) == stored(t)


def test_a_tie_among_four_and_the_wrong_faction_in_the_second_round(tiny_game, moderator):
    order = ["rus", "north_mongolia", "china", "south_mongolia"]
    t = make_table(tiny_game, moderator, order, {"rus-ivan_iii": [1, 1], "nm-batu_khan": [0, -3],
                                                 "cn-wanyan_xun": [3, -1], "sm-genghis_khan": [-3, 1]}, rolloff=True)
    mod = seat(moderator, tiny_game.pk, t.pk)
    table = services.act(t.pk, moderator, mod, "rolloff", {},
                         hand={"rus": 3, "north_mongolia": 6, "china": 6, "south_mongolia": 1})
    assert table.state["rolloff"]["contenders"] == ["north_mongolia", "china"]
    with nothing_saved(t), pytest.raises(ValidationError):
        services.act(t.pk, moderator, mod, "rolloff", {}, hand={"north_mongolia": 2, "china": 5, "rus": 6})
    table = services.act(t.pk, moderator, mod, "rolloff", {}, hand={"north_mongolia": 2, "china": 5})
    assert table.state["case"]["game"]["order"] == ["china", "south_mongolia", "rus", "north_mongolia"]
    assert [s.key for s in table.sides.all()] == ["china", "south_mongolia", "rus", "north_mongolia"]
    table = services.undo(t.pk, moderator, mod, "кубик укатился")             # the deciding round undone
    assert table.state["rolloff"]["first"] is None and table.state["case"]["game"]["order"] == order
    assert [s.key for s in table.sides.all()] == order
    assert replayed(t) == stored(t)


def test_the_moderator_names_the_first_faction_with_a_reason(tiny_game, rolloff_table, moderator, player):
    t = rolloff_table
    mod, cn = seat(moderator, tiny_game.pk, t.pk), seat(player, tiny_game.pk, t.pk)
    with pytest.raises(PermissionDenied):
        services.act(t.pk, player, cn, "override_first", {"first": "china", "reason": "хочу первым"})
    with nothing_saved(t), pytest.raises(ValidationError):
        services.act(t.pk, moderator, mod, "override_first", {"first": "rus", "reason": "Руси нет за столом"})
    table = services.act(t.pk, moderator, mod, "override_first",
                         {"first": "north_mongolia", "reason": "бросили кубики на столе: 6 против 2"})
    assert table.state["case"]["game"]["order"] == ["north_mongolia", "china"]
    assert table.state["rolloff"]["named"] is True and table.status == Table.SETUP
    entry = AuditEntry.objects.get(action="table_override", detail__kind="override_first")
    assert entry.reason == "бросили кубики на столе: 6 против 2"
    assert "Ведущий: первый ход — Северная Монголия" in entry.detail["summary"]
    services.act(t.pk, moderator, mod, "turn_start", {})
    with nothing_saved(t), pytest.raises(ValidationError) as exc:   # the order is fixed before the first turn only
        services.act(t.pk, moderator, mod, "override_first", {"first": "china", "reason": "передумали"})
    assert "O8" in exc.value.messages[0]
    assert replayed(t) == stored(t)


def test_a_table_without_a_rolloff_starts_as_before_and_may_still_hold_one(tiny_game, moderator, player):
    t = make_table(tiny_game, moderator, ["china", "north_mongolia"], CROSSBOW_AND_SAPPER)
    mod = seat(moderator, tiny_game.pk, t.pk)
    table = services.act(t.pk, moderator, mod, "rolloff", {}, hand={"china": 1, "north_mongolia": 3})
    assert table.state["case"]["game"]["order"] == ["north_mongolia", "china"]
    assert replayed(t) == stored(t)


# ---------------------------------------------------------------- the Арбалетчик's push (O21 heavy bolts)

@pytest.fixture
def bolts(tiny_game, moderator, player, other_player):
    t = make_table(tiny_game, moderator, ["china", "north_mongolia"], CROSSBOW_AND_SAPPER)
    cn = seat(player, tiny_game.pk, t.pk)
    services.act(t.pk, player, cn, "turn_start", {})
    return t


def test_the_back_hexes_are_the_legal_push_choices_the_first_the_default(bolts):
    case = stored(bolts)["case"]
    assert sit.push_hexes(case, "cn-crossbowman-1", "nm-raider-1") == [[1, -2], [2, -2], [2, -1]]
    assert sit.push_hexes(case, "cn-sapper-1", "nm-thief-1") == []          # no heavy bolts: no push


def test_the_shooter_chooses_the_push_hex_and_the_hit_pushes_there(tiny_game, bolts, moderator, player,
                                                                   other_player):
    t = bolts
    mod, cn, nm = (seat(u, tiny_game.pk, t.pk) for u in (moderator, player, other_player))
    with pytest.raises(PermissionDenied):                    # the shooter's side chooses, not the target's
        services.act(t.pk, other_player, nm, "declare",
                     {"attacker": "cn-crossbowman-1", "target": "nm-raider-1", "push_to": [2, -1]})
    table = services.act(t.pk, player, cn, "declare",
                         {"attacker": "cn-crossbowman-1", "target": "nm-raider-1", "push_to": [2, -1]})
    assert table.state["pending"]["push_to"] == [2, -1]
    step = Step.objects.get(table=t, kind="declare")
    assert "цель отбрасывается на 2,-1, как выбрал стрелок" in AuditEntry.objects.get(
        action="table_step", detail__seq=step.seq).detail["summary"]
    services.act(t.pk, other_player, nm, "counter", {"counter": "defence"})
    table = services.act(t.pk, moderator, mod, "attack", {}, hand=[6, 1])
    attack = Step.objects.get(table=t, kind="attack")
    assert attack.outcome["hit"] is True and attack.outcome["pushed_to"] == [2, -1]
    raider = unit(t, "nm-raider-1")
    assert raider["hex"] == [2, -1] and raider["damage"] == 1
    assert "отброшен на 2,-1" in AuditEntry.objects.get(action="table_step",
                                                            detail__seq=attack.seq).detail["summary"]
    assert replayed(t) == stored(t)


def test_without_a_choice_the_rules_default_and_a_wrong_hex_is_refused(tiny_game, bolts, moderator, player):
    t = bolts
    mod, cn = seat(moderator, tiny_game.pk, t.pk), seat(player, tiny_game.pk, t.pk)
    for hostile in ([0, -1], [1, 0], [9, 9]):                # not behind the target, or off the board
        with nothing_saved(t), pytest.raises(ValidationError) as exc:
            services.act(t.pk, player, cn, "declare",
                         {"attacker": "cn-crossbowman-1", "target": "nm-raider-1", "push_to": hostile})
        assert "отбросить" in exc.value.messages[0] and "O21" in exc.value.messages[0]
    with nothing_saved(t), pytest.raises(ValidationError):   # only an Арбалетчик pushes
        services.act(t.pk, player, cn, "declare",
                     {"attacker": "cn-sapper-1", "target": "nm-thief-1", "push_to": [-2, -1]})
    table = services.act(t.pk, moderator, mod, "declare", {"attacker": "cn-crossbowman-1", "target": "nm-raider-1"})
    assert table.state["pending"]["push_to"] == [1, -2]
    declared = Step.objects.get(table=t, kind="declare")
    assert declared.payload.get("push_to") is None and declared.outcome["push_to"] == [1, -2]
    assert "по умолчанию" in AuditEntry.objects.get(action="table_step", detail__seq=declared.seq).detail["summary"]
    assert replayed(t) == stored(t)


# ---------------------------------------------------------------- paired attacks (O15, O21)

def test_the_sappers_two_targets_are_two_units_next_to_him(tiny_game, bolts):
    case = stored(bolts)["case"]
    assert sit.second_targets(case, "cn-sapper-1", "nm-thief-1") == ["nm-raider-2", "nm-thief-2"]
    assert sit.second_targets(case, "cn-crossbowman-1", "nm-raider-1") == []     # one target at a time


def test_a_paired_attack_is_declared_in_one_act_and_each_target_answers_for_itself(
        tiny_game, bolts, moderator, player, other_player):
    t = bolts
    mod, cn, nm = (seat(u, tiny_game.pk, t.pk) for u in (moderator, player, other_player))
    for hostile in ("nm-raider-1", "nm-thief-1", "cn-crossbowman-1", "nope"):   # far, itself, an ally, no unit
        with nothing_saved(t), pytest.raises(ValidationError) as exc:
            services.act(t.pk, player, cn, "declare",
                         {"attacker": "cn-sapper-1", "target": "nm-thief-1", "second": hostile})
        assert "вторая цель" in exc.value.messages[0].lower()
    with nothing_saved(t), pytest.raises(ValidationError):
        services.act(t.pk, player, cn, "declare",
                     {"attacker": "cn-crossbowman-1", "target": "nm-raider-1", "second": "nm-raider-2"})
    table = services.act(t.pk, player, cn, "declare",
                         {"attacker": "cn-sapper-1", "target": "nm-thief-1", "second": "nm-raider-2"})
    assert table.state["pending"]["second"] == "nm-raider-2"
    services.act(t.pk, other_player, nm, "counter", {"counter": "defence"})
    table = services.act(t.pk, moderator, mod, "attack", {}, hand=[6, 1])
    first = Step.objects.get(table=t, kind="attack")
    assert first.outcome["target"]["id"] == "nm-thief-1" and first.outcome["hit"] is True
    assert first.outcome["second"] == {"target": "nm-raider-2", "declared": True, "code": None}
    p = table.state["pending"]
    assert (p["attacker"], p["target"], p["counter"], p["second"]) == ("cn-sapper-1", "nm-raider-2", None, None)
    services.act(t.pk, other_player, nm, "counter", {"counter": "retreat", "retreat_to": [-1, -1]})
    table = services.act(t.pk, moderator, mod, "attack", {}, hand=[1, 6])
    assert unit(t, "nm-raider-2")["hex"] == [-1, -1] and table.state["pending"] is None
    assert table.state["case"]["activations"] == {"cn-sapper-1": ["attack", "attack"]}
    summary = AuditEntry.objects.get(action="table_step", detail__seq=first.seq).detail["summary"]
    assert "Следом вторая атака: на юнита «Налётчик 2»" in summary
    with pytest.raises(ValidationError):                     # the key action is spent: no third target
        services.act(t.pk, player, cn, "declare", {"attacker": "cn-sapper-1", "target": "nm-thief-2"})
    # undo takes back the second attack, then the first with its second declaration
    services.undo(t.pk, moderator, mod, "проверка отмены")
    assert stored(t)["pending"]["target"] == "nm-raider-2"
    services.undo(t.pk, moderator, mod, "проверка отмены")
    services.undo(t.pk, moderator, mod, "проверка отмены")
    assert stored(t)["pending"]["target"] == "nm-thief-1" and stored(t)["pending"]["counter"] == "defence"
    assert replayed(t) == stored(t)


@pytest.fixture
def serpent(tiny_game, moderator, player):
    t = make_table(tiny_game, moderator, ["rus", "north_mongolia"], SERPENT_LINE, damage={"nm-raider-1": 1})
    services.act(t.pk, player, seat(player, tiny_game.pk, t.pk), "turn_start", {})
    return t


def test_the_serpents_pair_is_a_line_of_two_in_either_order(serpent):
    case = stored(serpent)["case"]
    assert sit.second_targets(case, "rus-zmey_gorynych", "nm-raider-1") == ["nm-raider-2"]
    assert sit.second_targets(case, "rus-zmey_gorynych", "nm-raider-2") == ["nm-raider-1"]
    assert sit.second_targets(case, "rus-zmey_gorynych", "nm-thief-1") == []    # nobody behind it
    targets = {t["target"] for t in sit.legal_targets(case, "rus-zmey_gorynych")}
    assert targets == {"nm-raider-1", "nm-raider-2", "nm-thief-1"}


def test_the_far_one_first_then_the_near_one(tiny_game, serpent, moderator, player, other_player):
    t = serpent
    mod, rus, nm = (seat(u, tiny_game.pk, t.pk) for u in (moderator, player, other_player))
    with nothing_saved(t), pytest.raises(ValidationError):   # next to him but not on the line
        services.act(t.pk, player, rus, "declare",
                     {"attacker": "rus-zmey_gorynych", "target": "nm-raider-1", "second": "nm-thief-1"})
    services.act(t.pk, player, rus, "declare",
                 {"attacker": "rus-zmey_gorynych", "target": "nm-raider-2", "second": "nm-raider-1"})
    services.act(t.pk, other_player, nm, "counter", {"counter": "defence"})
    table = services.act(t.pk, moderator, mod, "attack", {}, hand=[6, 1])
    assert table.state["pending"]["target"] == "nm-raider-1"
    services.act(t.pk, other_player, nm, "counter", {"counter": "defence"})
    services.act(t.pk, moderator, mod, "attack", {}, hand=[6, 1])
    assert unit(t, "nm-raider-2")["damage"] == 1 and unit(t, "nm-raider-1")["where"] == "dead"
    assert replayed(t) == stored(t)


def test_the_near_one_killed_first_breaks_the_line_and_the_second_attack_lapses(
        tiny_game, serpent, moderator, player, other_player):
    t = serpent
    mod, rus, nm = (seat(u, tiny_game.pk, t.pk) for u in (moderator, player, other_player))
    services.act(t.pk, player, rus, "declare",
                 {"attacker": "rus-zmey_gorynych", "target": "nm-raider-1", "second": "nm-raider-2"})
    services.act(t.pk, other_player, nm, "counter", {"counter": "defence"})
    table = services.act(t.pk, moderator, mod, "attack", {}, hand=[6, 1])
    step = Step.objects.get(table=t, kind="attack")
    assert step.outcome["target"]["killed"] is True
    assert step.outcome["second"] == {"target": "nm-raider-2", "declared": False, "code": "bad_line"}
    assert table.state["pending"] is None
    summary = AuditEntry.objects.get(action="table_step", detail__seq=step.seq).detail["summary"]
    assert "Вторая атака, на юнита «Налётчик 2», не состоялась" in summary and "O21" in summary
    assert replayed(t) == stored(t)


# ---------------------------------------------------------------- the order of activations survives the database

def test_the_unit_that_acted_last_may_go_on_after_the_state_is_stored(tiny_game, orda_table, player):
    """O12: a unit's activation goes on only while no other unit has acted since. The stored JSON keeps no key order
    (PostgreSQL's jsonb sorts keys), so the table keeps the order of activations itself: the Лучник, moved after the
    Дружинник, still shoots (a shot the «activation_order» refusal wrongly stopped when the order was lost)."""
    t = orda_table
    rus = seat(player, tiny_game.pk, t.pk)
    services.act(t.pk, player, rus, "turn_start", {})
    services.act(t.pk, player, rus, "move", {"unit": "rus-axe_retainer-1", "path": [[-1, 0]]})
    services.act(t.pk, player, rus, "move", {"unit": "rus-archer-1", "path": [[-1, 1]]})
    # Whatever key order the database keeps (PostgreSQL's jsonb sorts, SQLite keeps insertion), both units are there
    assert set(Table.objects.get(pk=t.pk).state["case"]["activations"]) == {"rus-archer-1", "rus-axe_retainer-1"}
    assert list(services.current(Table.objects.get(pk=t.pk))["case"]["activations"]) == \
        ["rus-axe_retainer-1", "rus-archer-1"]
    with nothing_saved(t), pytest.raises(ValidationError) as exc:   # the Дружинник's activation is over (O12)
        services.act(t.pk, player, rus, "declare", {"attacker": "rus-axe_retainer-1", "target": "nm-long_bow_raider-1"})
    assert "O12" in exc.value.messages[0]
    table = services.act(t.pk, player, rus, "declare", {"attacker": "rus-archer-1", "target": "nm-long_bow_raider-1"})
    assert table.state["pending"]["attacker"] == "rus-archer-1"
    assert replayed(t) == stored(t)
