"""A storm (the defender holds walls) is not sent to Red Plains: its rules have no walls and no measure for the
war's wall bonuses (docs/bridge.md «Walls», convert.refusal); the send form says so and the service refuses.
A field battle still goes."""
import pytest

from larp.battles import services as console
from larp.bridge import services as bridge
from larp.bridge.models import TableBattle

pytestmark = pytest.mark.django_db


def _game(walls: bool):
    """North I attacks neutral Midtown: a storm of its walls, or (without its fortress) a battle in the field."""
    from larp.campaign.models import Province
    from larp.campaign.services.members import add_moderator, create_player
    from larp.orders.services import file_order
    from larp.scenarios.loader import load_scenario
    from larp.turns import services as turns

    game = load_scenario("tiny", title="Storm", seed=3)
    if not walls:
        Province.objects.filter(game=game, code="midtown").update(fortress=False)
    mod, _ = add_moderator(game, "storm-mod", password="storm-pass-123")
    turns.start_game(game, mod)
    player, _ = create_player(game.factions.get(code="north"), "storm-north")
    file_order(player, game, "north-1", {"type": "attack", "path": ["midtown"]})
    turns.next_phase(game, mod)
    return game, mod


@pytest.fixture
def storm(db):
    return _game(walls=True)


@pytest.fixture
def field_battle(db):
    return _game(walls=False)


def _to_tactics(game, mod):
    from larp.turns import services as turns
    console.apply_movement(game, mod)
    turns.next_phase(game, mod)
    return console.current_result(game)[2]["awaiting"]


def test_a_storm_is_refused_for_red_plains_with_the_walls_named(storm, client):
    from django.utils import translation

    game, mod = storm
    awaiting = _to_tactics(game, mod)
    assert awaiting["storm"]
    with translation.override("ru"):
        why = bridge.refusals(game, awaiting)
        assert set(why) == {"red-plains"}                         # the tactical rules and Orda have walls
        assert "оборона +5" in why["red-plains"] and "стен" in why["red-plains"]
        with pytest.raises(bridge.BridgeError) as refused:
            bridge.send_to_table(game, mod, awaiting["n"], "red-plains", "штурм решают командующие")
    assert "оборона +5" in " ".join(refused.value.messages)
    assert not TableBattle.objects.exists()
    client.force_login(mod)
    page = client.get(f"/g/{game.pk}/console/battles/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'value="red-plains" disabled' in page and 'data-refused-system="red-plains"' in page
    tb = bridge.send_to_table(game, mod, awaiting["n"], "tactical", "штурм решают командующие")
    assert tb.table.system == "tactical"                          # a system with walls still takes it


def test_a_field_battle_goes_to_red_plains(field_battle):
    game, mod = field_battle
    awaiting = _to_tactics(game, mod)
    assert not awaiting["storm"] and bridge.refusals(game, awaiting) == {}
    tb = bridge.send_to_table(game, mod, awaiting["n"], "red-plains", "бой в поле")
    assert tb.table.system == "red-plains"


def test_a_war_battles_table_gets_its_river_before_the_first_stake(field_battle):
    """The bridge's table starts placed, at turn 1's command phase, with no terrain: the moderator sets the river
    and the bridge before the first stake; after it the terrain stays as it is."""
    from larp.redplains import services as rp
    from larp.redplains import situation as sit

    game, mod = field_battle
    awaiting = _to_tactics(game, mod)
    tb = bridge.send_to_table(game, mod, awaiting["n"], "red-plains", "бой в поле")
    table = tb.table
    assert rp.current(table)["phase"] == sit.COMMAND and sit.terrain_open(rp.current(table))
    rp.edit_roster(table.pk, mod, {"terrain": {"river": True, "bridge": ["A11", "C11"], "hills": [], "forests": []}})
    table.refresh_from_db()
    assert sit.turn_case(table.setup, table.state)["field"]["bridge"] == ["A11", "C11"]
    rp.stake(table.pk, mod, "north", "low")
    with pytest.raises(sit.StepRefused):
        rp.edit_roster(table.pk, mod, {"terrain": {"river": False, "bridge": None, "hills": [], "forests": []}})
