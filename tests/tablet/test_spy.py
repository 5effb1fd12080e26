"""Spy reports (R13): a moderator grants one faction a dated snapshot of one enemy stack."""
import pytest
from django.urls import reverse

from larp.forces.models import Army, Commander
from larp.tablet.models import SpyReport
from tests.tablet.conftest import SOUTH_SECRET_COMMANDER, SOUTH_SECRET_TROOP


def spy_url(game):
    return reverse("tablet:spy", args=[game.pk])


def faction_url(game, code):
    return reverse("tablet:faction", args=[game.pk, code])


@pytest.fixture
def south_army(tiny_game, started):
    return Army.objects.get(faction__code="south", number=1)


def test_granted_report_shows_the_snapshot_to_that_faction_only(client_for, tiny_game, moderator, player,
                                                                  other_player, south_army):
    c = client_for(moderator)
    page = c.get(spy_url(tiny_game)).content.decode()
    assert f'value="army:{south_army.pk}"' in page
    response = c.post(spy_url(tiny_game), {"to_faction": "north", "stack": f"army:{south_army.pk}"})
    assert response.status_code == 302
    report = SpyReport.objects.get()
    assert report.granted_by == moderator and report.subject_faction.code == "south"
    assert {t["name_ru"] for t in report.content["troops"]} >= {SOUTH_SECRET_TROOP, "Среднее войско"}
    north = client_for(player).get(faction_url(tiny_game, "north")).content.decode()
    assert SOUTH_SECRET_COMMANDER in north and SOUTH_SECRET_TROOP in north and "Так видел лазутчик" in north
    # East has no report and no page access to it anyway; South's own page lists no report.
    south = client_for(other_player).get(faction_url(tiny_game, "south")).content.decode()
    assert "Так видел лазутчик" not in south


def test_snapshot_does_not_follow_later_changes(client_for, tiny_game, moderator, player, south_army):
    client_for(moderator).post(spy_url(tiny_game), {"to_faction": "north", "stack": f"army:{south_army.pk}"})
    Commander.objects.create(game=tiny_game, faction=south_army.faction, army=south_army, name_ru="Ярослав",
                             name_en="Yaroslav", power=4)
    north = client_for(player).get(faction_url(tiny_game, "north")).content.decode()
    assert SOUTH_SECRET_COMMANDER in north and "Ярослав" not in north


def test_garrison_and_fleet_reports(client_for, tiny_game, moderator, other_player, started):
    from larp.forces.models import Fleet

    fleet = Fleet.objects.get(faction__code="north")
    c = client_for(moderator)
    c.post(spy_url(tiny_game), {"to_faction": "south", "stack": f"fleet:{fleet.pk}"})
    c.post(spy_url(tiny_game), {"to_faction": "south", "stack": "garrison:midtown"})
    south = client_for(other_player).get(faction_url(tiny_game, "south")).content.decode()
    assert "Эскадра" in south and "Нейтральный гарнизон" in south and SpyReport.objects.count() == 2


def test_own_stack_or_garbage_is_refused(client_for, tiny_game, moderator, south_army):
    c = client_for(moderator)
    c.post(spy_url(tiny_game), {"to_faction": "south", "stack": f"army:{south_army.pk}"})
    c.post(spy_url(tiny_game), {"to_faction": "north", "stack": "army:999999"})
    c.post(spy_url(tiny_game), {"to_faction": "nowhere", "stack": f"army:{south_army.pk}"})
    assert not SpyReport.objects.exists()


@pytest.mark.parametrize("who", ["player", "other_player", "stranger"])
def test_only_moderators_grant(request, client_for, tiny_game, south_army, who):
    c = client_for(request.getfixturevalue(who))
    assert c.get(spy_url(tiny_game)).status_code == 403
    assert c.post(spy_url(tiny_game), {"to_faction": "north", "stack": f"army:{south_army.pk}"}).status_code == 403
    assert not SpyReport.objects.exists()


@pytest.mark.parametrize("stack", ["army:²", "army:٢", "fleet:１", "army:" + "9" * 30, "army:", "garrison:"])
def test_a_stack_reference_that_is_not_a_plain_number_is_refused_not_a_500(tiny_game, moderator, client_for, stack):
    response = client_for(moderator).post(spy_url(tiny_game), {"to_faction": "north", "stack": stack})
    assert response.status_code < 500
    assert not SpyReport.objects.filter(game=tiny_game).exists()
