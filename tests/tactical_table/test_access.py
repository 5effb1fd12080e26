"""Every URL against the role matrix, hostile input (4xx in Russian, nothing saved) and the fog before the battle."""
import pytest

from larp.tables.models import Step

from .conftest import PHALANX, add_unit, url

ROLES = ["moderator", "player", "other_player", "east_player", "stranger", None]


def who(request, role):
    return None if role is None else request.getfixturevalue(role)


@pytest.mark.parametrize("role,expected", [("moderator", 200), ("player", 200), ("other_player", 200),
                                           ("east_player", 403), ("stranger", 403), (None, 302)])
def test_table_page(request, table, client_for, role, expected):
    assert client_for(who(request, role)).get(url(table, "table")).status_code == expected


@pytest.mark.parametrize("role,expected", [("moderator", 200), ("player", 403), ("other_player", 403),
                                           ("east_player", 403), ("stranger", 403), (None, 302)])
def test_projector_is_the_moderators(request, table, client_for, role, expected):
    assert client_for(who(request, role)).get(url(table, "projector")).status_code == expected


@pytest.mark.parametrize("role,expected", [("moderator", 302), ("player", 302), ("other_player", 403),
                                           ("east_player", 403), ("stranger", 403), (None, 302)])
def test_building_the_north_army(request, table, client_for, role, expected):
    r = add_unit(client_for(who(request, role)), table, "north", PHALANX)
    assert r.status_code == expected
    saved = Step.objects.filter(table=table, kind="roster").count()
    assert saved == (1 if role in ("moderator", "player") else 0)


@pytest.mark.parametrize("role,expected", [("moderator", 200), ("player", 200), ("other_player", 403),
                                           ("east_player", 403), ("stranger", 403), (None, 302)])
def test_printing_the_north_roster(request, table, client_for, role, expected):
    r = client_for(who(request, role)).get(url(table, "print_army", "north", "roster"))
    assert r.status_code == expected


@pytest.mark.parametrize("name,data", [("approve", {"side": "north", "approve": "on"}), ("start", {}),
                                       ("act", {"kind": "test", "test_kind": "initiative", "server_rest": "on"}),
                                       ("override", {"unit": "x", "state": "fleeing", "reason": "x"}),
                                       ("undo", {"reason": "x"}), ("end", {"winner": "", "ended_by": "time"}),
                                       ("conditions", {"rain": "on"}), ("turn", {"first": "north"}),
                                       ("manoeuvre_act", {})])
@pytest.mark.parametrize("role", ["player", "other_player", "east_player", "stranger", None])
def test_moderator_only_posts(request, table, client_for, name, data, role):
    r = client_for(who(request, role)).post(url(table, name, *(["halt"] if name == "manoeuvre_act" else [])), data)
    assert r.status_code in (302, 403) and (r.status_code == 403 or role is None)
    assert not Step.objects.filter(table=table).exists()


def test_new_table_is_the_moderators(tiny_game, moderator, player, client_for):
    from django.urls import reverse
    path = reverse("tactical:new", args=[tiny_game.pk])
    assert client_for(player).get(path).status_code == 403
    assert client_for(moderator).get(path).status_code == 200
    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    r = client_for(moderator).post(path, {"title": "Бой", "side_a": north.pk, "side_b": north.pk,
                                          "list_a": "feudal_sample", "list_b": "feudal_sample", "points_limit": 600})
    assert r.status_code == 400 and "Стороны должны быть разными" in r.content.decode()
    r = client_for(moderator).post(path, {"title": "Бой", "side_a": north.pk, "side_b": south.pk,
                                          "list_a": "feudal_sample", "list_b": "macedonian_sample",
                                          "points_limit": 600})
    assert r.status_code == 302


def test_hostile_input_is_refused_in_russian_and_nothing_saved(battle, moderator, client_for):
    mod = client_for(moderator)
    before = Step.objects.filter(table=battle).count()
    for data in ({"kind": "clash", "attacker": "nope", "defender": "nope2"},
                 {"kind": "clash", "hand_dice": "7 8 9"},
                 {"kind": "volley"},
                 {"kind": "<script>"}):
        r = mod.post(url(battle, "act"), data)
        assert r.status_code == 400
        assert any(word in r.content.decode() for word in ("Выберите", "Кубики", "Укажите", "допустим"))
    r = mod.post(url(battle, "undo"), {"reason": "   "})
    assert r.status_code == 400
    r = mod.post(url(battle, "army", "north", "unit"), {"u-north-name": "x"})
    assert r.status_code == 400 and "Сражение уже началось" in r.content.decode()
    r = mod.post(url(battle, "army", "north", "bogus"))
    assert r.status_code == 400
    assert Step.objects.filter(table=battle).count() == before


def test_fog_the_other_sides_army_never_shown_before_the_battle(table, player, other_player, client_for):
    add_unit(client_for(player), table, "north", {**PHALANX, "name": "Тайная фаланга"})
    south = client_for(other_player)
    table.refresh_from_db()
    secret_id = table.state["armies"]["north"]["units"][0]["id"]
    page = south.get(url(table, "table"))
    assert page.status_code == 200
    assert "Тайная фаланга" not in page.content.decode()
    assert secret_id not in page.content.decode()
    page = south.get(url(table, "table"), HTTP_X_TABLE_REFRESH="1").content.decode()
    assert "Тайная фаланга" not in page
    assert "собирается" in page
    assert south.get(url(table, "print_army", "north", "cards")).status_code == 403
    assert south.get(url(table, "print_record")).status_code == 403
    assert "Тайная фаланга" in client_for(player).get(url(table, "table")).content.decode()


def test_a_table_made_from_setup_by_the_bridge_plays(tiny_game, moderator, client_for):
    """Table.setup already holding both armies in the engine's case format: start and act from it."""
    from larp.campaign.services.members import create_player
    from larp.tables import services as tables
    from larp.tactical import services
    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    prof = {"id": "hop", "name": "гоплит", "category": "line_infantry", "specialty": 3, "melee": 2, "steadiness": 3,
            "weapon": "infantry_spear", "javelin": False, "armour": None, "shield": "large_shield",
            "horse_armour": None}
    setup = {"profiles": [prof, {**prof, "id": "sw", "name": "мечник", "category": "swordsmen", "specialty": None,
                                 "weapon": None, "melee": 3}],
             "units": [{"id": "n1", "name": "Гоплиты", "side": "north", "formation": "dense", "bases": 1,
                        "figures": [{"profile": "hop", "count": 8, "disordered": 0}]},
                       {"id": "s1", "name": "Мечники", "side": "south", "formation": "dense", "bases": 1,
                        "figures": [{"profile": "sw", "count": 8, "disordered": 0}]}],
             "conditions": {}}
    table = tables.create_table(tiny_game, "tactical", "Из войны", [("north", "Север", north),
                                                                     ("south", "Юг", south)], moderator,
                                setup=setup, origin={"battle": 1, "turn": 1}, seed=5)
    mod = client_for(moderator)
    assert "Гоплиты" in mod.get(url(table, "table")).content.decode()      # the suggested armies, before play
    south_page = client_for(create_player(south, "bridge-south", password="bridge-south-1")[0]).get(
        url(table, "table")).content.decode()
    assert "Мечники" in south_page and "Гоплиты" not in south_page       # the fog before the battle
    refused = mod.post(url(table, "start"))                               # the suggestion is approved first
    assert refused.status_code == 400 and "У стороны «Север» ещё нет утверждённой армии" in refused.content.decode()
    for side in ("north", "south"):
        assert mod.post(url(table, "approve"), {"side": side, "approve": "on"}).status_code == 302
    assert mod.post(url(table, "start")).status_code == 302
    table.refresh_from_db()
    assert table.state["start"] == {"north": 8, "south": 8}
    r = mod.post(url(table, "act"), {"kind": "melee", "melee_units": ["n1", "s1"], "attacked_from": "front",
                                     "server_rest": "on"})
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.state == services.replay_table(table)
    assert "Гоплиты" in mod.get(url(table, "table")).content.decode()
