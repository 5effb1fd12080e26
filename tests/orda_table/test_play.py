"""Playing «Орда» at the table: zone-of-control attacks with hand dice, action traits, what the pages offer."""
import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from larp.orda import services
from larp.orda import situation as sit
from larp.tables import services as tables
from larp.tables.access import seat
from larp.dice.models import Roll
from larp.tables.models import Step, Table


@pytest.fixture(autouse=True)
def _russian():
    with translation.override("ru"):
        yield


@pytest.fixture
def after_rus_turn(tiny_game, orda_table, moderator, player, other_player):
    rus = seat(player, tiny_game.pk, orda_table.pk)
    services.act(orda_table.pk, player, rus, "turn_start", {})
    services.act(orda_table.pk, player, rus, "move", {"unit": "rus-ivan_iii", "path": [[0, -1]]})
    services.act(orda_table.pk, player, rus, "turn_end", {})
    nm = seat(other_player, tiny_game.pk, orda_table.pk)
    services.act(orda_table.pk, other_player, nm, "turn_start", {})
    return Table.objects.get(pk=orda_table.pk)


def test_legal_moves_show_the_zone_of_control_attacks_a_move_provokes(after_rus_turn):
    moves = sit.legal_moves(after_rus_turn.state["case"], "nm-raider-1")
    assert moves[(1, -2)]["provoked"] == ["rus-ivan_iii"]
    assert moves[(1, -2)]["path"] == [[0, -2], [1, -2]]
    assert moves[(-2, -1)]["provoked"] == []
    assert (0, -1) not in moves                                  # Иван III stands there


def test_a_provoking_move_needs_its_dice_and_takes_them_by_hand(tiny_game, after_rus_turn, moderator, other_player):
    mod = seat(moderator, tiny_game.pk, after_rus_turn.pk)
    nm = seat(other_player, tiny_game.pk, after_rus_turn.pk)
    with pytest.raises(ValidationError) as exc:
        services.act(after_rus_turn.pk, moderator, mod, "move", {"unit": "nm-raider-1", "path": [[0, -2], [1, -2]]},
                     hand=[6])
    assert "кубики (2 шт.)" in exc.value.messages[0]
    table = services.act(after_rus_turn.pk, moderator, mod, "move",
                         {"unit": "nm-raider-1", "path": [[0, -2], [1, -2]]}, hand=[6, 1])
    step = Step.objects.get(table=table, kind="move", payload__unit="nm-raider-1")
    assert step.payload["dice"] == [{"attacker": [6], "defender": [1]}] and step.payload["hand"] is True
    assert step.outcome["provoked"][0]["result"]["hit"] is True
    raider = next(u for u in table.state["case"]["units"] if u["id"] == "nm-raider-1")
    assert raider["damage"] == 1 and raider["hex"] == [1, -2]
    # a player's provoking move takes server dice
    services.undo(table.pk, moderator, mod, "повтор на костях сервера")
    table = services.act(table.pk, other_player, nm, "move", {"unit": "nm-raider-1", "path": [[0, -2], [1, -2]]})
    step = Step.objects.filter(table=table, kind="move", undone=False).order_by("-seq").first()
    assert step.payload["hand"] is False and len(step.payload["dice"]) == 1
    assert sit.replay(table.setup, [(s.kind, s.payload) for s in tables.live_steps(table)]) == table.state


def test_an_action_trait_changes_the_effective_value(tiny_game, orda_table, player):
    rus = seat(player, tiny_game.pk, orda_table.pk)
    services.act(orda_table.pk, player, rus, "turn_start", {})
    table = services.act(orda_table.pk, player, rus, "ability",
                         {"unit": "rus-ivan_iii", "trait": "princes_order", "target": "rus-axe_retainer-1",
                          "param": "attack"})
    values = sit.values(table.state["case"], "rus-axe_retainer-1")
    assert values["attack"]["param"] == 5
    assert [i["source"] for i in values["attack"]["items"]] == ["printed", "princes_order"]
    with pytest.raises(ValidationError) as exc:        # Иван III has used his key action
        services.act(orda_table.pk, player, rus, "ability",
                     {"unit": "rus-ivan_iii", "trait": "princes_order", "target": "rus-archer-1",
                      "param": "attack"})
    assert "O12" in exc.value.messages[0]


def test_three_activations_per_turn(tiny_game, orda_table, player):
    rus = seat(player, tiny_game.pk, orda_table.pk)
    services.act(orda_table.pk, player, rus, "turn_start", {})
    services.act(orda_table.pk, player, rus, "move", {"unit": "rus-ivan_iii", "path": [[1, -1]]})
    services.act(orda_table.pk, player, rus, "move", {"unit": "rus-axe_retainer-1", "path": [[-1, 0]]})
    services.act(orda_table.pk, player, rus, "move", {"unit": "rus-archer-1", "path": [[-2, 2]]})
    table = Table.objects.get(pk=orda_table.pk)
    with pytest.raises(ValidationError) as exc:
        services.act(orda_table.pk, player, rus, "ability",
                     {"unit": "rus-ivan_iii", "trait": "princes_order", "target": "rus-axe_retainer-1",
                      "param": "attack"})
    assert exc.value.messages


def test_the_summoned_unit_goes_where_the_player_chooses(tiny_game, orda_table, player, other_player, client_for):
    from django.urls import reverse

    rus = seat(player, tiny_game.pk, orda_table.pk)
    nm = seat(other_player, tiny_game.pk, orda_table.pk)
    for _tour in range(2):
        services.act(orda_table.pk, player, rus, "turn_start", {})
        services.act(orda_table.pk, player, rus, "turn_end", {})
        services.act(orda_table.pk, other_player, nm, "turn_start", {})
        services.act(orda_table.pk, other_player, nm, "turn_end", {})
    page = client_for(player).get(reverse("orda:table", args=[tiny_game.pk, orda_table.pk])).content.decode()
    assert "Куда призвать: Лучник 2" in page and 'value="1,1"' in page
    with pytest.raises(ValidationError) as exc:
        services.act(orda_table.pk, player, rus, "turn_start", {"choices": {"summon_hex": [3, -3]}})
    assert "O11" in exc.value.messages[0]
    table = services.act(orda_table.pk, player, rus, "turn_start",
                         {"choices": {"summon_hex": [1, 1], "summon_next": "rus-dobrynya"}})
    archer = next(u for u in table.state["case"]["units"] if u["id"] == "rus-archer-2")
    assert archer["where"] == "board" and archer["hex"] == [1, 1]
    assert table.state["case"]["summon_track"]["rus"] == {"unit": "rus-dobrynya", "cell": 2}


def test_setup_before_the_first_turn_is_checked_by_the_rules(tiny_game, orda_table, player, other_player,
                                                             client_for):
    from django.urls import reverse

    rus = seat(player, tiny_game.pk, orda_table.pk)
    nm = seat(other_player, tiny_game.pk, orda_table.pk)
    with pytest.raises(Exception):                      # a player places only their own faction's units
        services.act(orda_table.pk, other_player, nm, "deploy", {"unit": "rus-ivan_iii", "hex": [1, 0]})
    # Swap the Дружинник с топором for the Дружинник с копьем: two steps, invalid in between.
    table = services.act(orda_table.pk, player, rus, "deploy", {"unit": "rus-axe_retainer-1", "hex": None})
    assert [p["code"] for p in table.state and sit.setup_problems(table.state["case"])] == ["start_classes"]
    page = client_for(player).get(reverse("orda:table", args=[tiny_game.pk, table.pk])).content.decode()
    assert "стартовые юниты не тех классов" in page
    with pytest.raises(ValidationError) as exc:
        services.act(table.pk, player, rus, "turn_start", {})
    assert "стартовые юниты не тех классов" in exc.value.messages[0]
    table = services.act(table.pk, player, rus, "deploy", {"unit": "rus-spear_retainer-1", "hex": [-1, 1]})
    assert sit.setup_problems(table.state["case"]) == []
    assert table.status == Table.SETUP
    table = services.act(table.pk, player, rus, "turn_start", {})
    assert table.status == Table.PLAYING
    with pytest.raises(ValidationError):
        services.act(table.pk, player, rus, "deploy", {"unit": "rus-axe_retainer-1", "hex": [1, 0]})


@pytest.fixture
def khan_blessed(tiny_game, moderator, player, other_player):
    """A table made as the bridge makes it: Иван III carries Чингисхан's second chance (a made-up situation)."""
    from tests.orda_table.data import complete_data

    setup = sit.build_setup(complete_data(), "border", ["rus", "north_mongolia"])
    ivan = next(u for u in setup["units"] if u["id"] == "rus-ivan_iii")
    ivan["effects"] = [{"kind": "golden_horde", "from": "rus-ivan_iii", "expires": None}]
    table = tables.create_table(tiny_game, "orda", "Второй шанс",
                                [("rus", "Русь", tiny_game.factions.get(code="north")),
                                 ("north_mongolia", "Монголия", tiny_game.factions.get(code="south"))],
                                moderator, setup=setup, seed=5)
    rus, nm = seat(player, tiny_game.pk, table.pk), seat(other_player, tiny_game.pk, table.pk)
    services.act(table.pk, player, rus, "turn_start", {})
    services.act(table.pk, player, rus, "move", {"unit": "rus-ivan_iii", "path": [[0, -1]]})
    services.act(table.pk, player, rus, "declare", {"attacker": "rus-ivan_iii", "target": "nm-long_bow_raider-1"})
    services.act(table.pk, other_player, nm, "counter", {"counter": "defence"})
    return table


def test_a_second_chance_typed_in_by_hand_counts(tiny_game, khan_blessed, moderator):
    mod = seat(moderator, tiny_game.pk, khan_blessed.pk)
    table = services.act(khan_blessed.pk, moderator, mod, "attack", {"rerolls": {"attacker": 6}}, hand=[1, 6])
    step = Step.objects.get(table=table, kind="attack")
    assert step.payload["dice"] == {"attacker": [1, 6], "defender": [6]}
    assert step.outcome["hit"] is True and step.outcome["attacker"]["total"] == 8


def test_server_dice_reroll_the_losing_second_chance(tiny_game, khan_blessed, player):
    rus = seat(player, tiny_game.pk, khan_blessed.pk)
    table = services.act(khan_blessed.pk, player, rus, "attack", {})
    step = Step.objects.get(table=table, kind="attack")
    first_attack, defence = step.payload["dice"]["attacker"][0], step.payload["dice"]["defender"][0]
    lost_first = not first_attack + 2 > defence + 1          # Иван III's attack 2 against defence 1
    assert len(step.payload["dice"]["attacker"]) == (2 if lost_first else 1)
    assert Roll.objects.filter(ref=step.ref).count() == (3 if lost_first else 2)
