"""The admin for moderators: scoped to their games, stacks validated as a whole (R1)."""
from django.urls import reverse

from larp.campaign.services.members import add_moderator
from larp.forces.models import Army, TroopCard, TroopType


def army_form(army, cards, commanders=()):
    """POST data for the army change page with its two inlines (cards, commanders)."""
    data = {
        "game": army.game_id, "faction": army.faction_id, "number": army.number, "province": army.province_id,
        "cards-TOTAL_FORMS": len(cards), "cards-INITIAL_FORMS": sum(1 for c in cards if c.get("id")),
        "cards-MIN_NUM_FORMS": 0, "cards-MAX_NUM_FORMS": 1000,
        "commanders-TOTAL_FORMS": 0, "commanders-INITIAL_FORMS": 0,
        "commanders-MIN_NUM_FORMS": 0, "commanders-MAX_NUM_FORMS": 1000,
    }
    for i, card in enumerate(cards):
        data[f"cards-{i}-id"] = card.get("id", "")
        data[f"cards-{i}-army"] = army.pk
        data[f"cards-{i}-troop_type"] = card["troop_type"]
        if card.get("DELETE"):
            data[f"cards-{i}-DELETE"] = "on"
    return data


def test_moderator_sees_only_own_games_armies(client_for, tiny_game, latin_game, moderator):
    c = client_for(moderator)
    page = c.get(reverse("admin:forces_army_changelist"))
    assert page.status_code == 200
    assert b"North" in page.content or "Север".encode() in page.content
    latin_army = Army.objects.filter(game=latin_game).first()
    assert c.get(reverse("admin:forces_army_change", args=[latin_army.pk])).status_code in (302, 403, 404)
    own_army = Army.objects.filter(game=tiny_game).first()
    assert c.get(reverse("admin:forces_army_change", args=[own_army.pk])).status_code == 200


def test_players_and_strangers_have_no_admin(client_for, tiny_game, player, stranger):
    for user in (player, stranger, None):
        response = client_for(user).get(reverse("admin:forces_army_changelist"))
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_admin_refuses_an_army_over_the_limit_and_saves_nothing(client_for, tiny_game, moderator):
    army = Army.objects.get(faction__game=tiny_game, faction__code="south", number=1)
    huge = TroopType.objects.get(game=tiny_game, code="huge")
    existing = [{"id": c.pk, "troop_type": c.troop_type_id} for c in army.cards.all()]
    data = army_form(army, existing + [{"troop_type": huge.pk}, {"troop_type": huge.pk}])  # 14 000 + 40 000 ok
    c = client_for(moderator)
    c.cookies.load({"django_language": "en"})
    ok = c.post(reverse("admin:forces_army_change", args=[army.pk]), data)
    assert ok.status_code == 302, ok.content.decode()[:2000]
    assert army.cards.count() == 4
    medium = TroopType.objects.get(game=tiny_game, code="medium")
    existing = [{"id": c.pk, "troop_type": c.troop_type_id} for c in army.cards.all()]
    refused = c.post(reverse("admin:forces_army_change", args=[army.pk]), army_form(army, existing + [{"troop_type": medium.pk}]))
    assert refused.status_code == 200
    assert "61 000 men" in refused.content.decode()
    assert army.cards.count() == 4


def test_admin_refuses_a_naval_card_in_an_army(client_for, tiny_game, moderator):
    army = Army.objects.get(faction__game=tiny_game, faction__code="east", number=1)
    squadron = TroopType.objects.get(game=tiny_game, code="squadron")
    existing = [{"id": c.pk, "troop_type": c.troop_type_id} for c in army.cards.all()]
    response = client_for(moderator).post(
        reverse("admin:forces_army_change", args=[army.pk]), army_form(army, existing + [{"troop_type": squadron.pk}])
    )
    assert response.status_code == 200
    assert "морское войско" in response.content.decode()
    assert not TroopCard.objects.filter(army=army, troop_type=squadron).exists()


def test_faction_colours_are_shown(client_for, tiny_game, moderator):
    page = client_for(moderator).get(reverse("admin:campaign_faction_changelist"))
    assert page.status_code == 200 and "background:#1565c0" in page.content.decode()


def test_moderator_of_other_game_cannot_edit_here(client_for, tiny_game, latin_game):
    other, _ = add_moderator(latin_game, "latin-mod", password="x-password-123")
    army = Army.objects.filter(game=tiny_game).first()
    c = client_for(other)
    assert c.get(reverse("admin:forces_army_change", args=[army.pk])).status_code in (302, 403, 404)
    listing = c.get(reverse("admin:forces_army_changelist")).content.decode()
    assert "Северные Врата" not in listing


def test_admin_edits_are_audited(client_for, tiny_game, moderator):
    from larp.turns.models import AuditEntry

    army = Army.objects.get(faction__game=tiny_game, faction__code="east", number=1)
    small = TroopType.objects.get(game=tiny_game, code="small")
    existing = [{"id": c.pk, "troop_type": c.troop_type_id} for c in army.cards.all()]
    response = client_for(moderator).post(reverse("admin:forces_army_change", args=[army.pk]),
                                          army_form(army, existing + [{"troop_type": small.pk}]))
    assert response.status_code == 302
    entries = AuditEntry.objects.filter(game=tiny_game, user=moderator)
    assert set(entries.values_list("action", flat=True)) >= {"admin_changed", "admin_stack_changed"}


def test_the_province_page_edits_its_garrison_inline_from_forces_admin(client_for, tiny_game, moderator):
    from django.contrib import admin

    from larp.campaign.models import Province
    from larp.forces.admin import GarrisonCardInline

    assert GarrisonCardInline in admin.site._registry[Province].inlines
    fortress = Province.objects.get(game=tiny_game, code="northgate")
    page = client_for(moderator).get(reverse("admin:campaign_province_change", args=[fortress.pk]))
    assert page.status_code == 200
    assert 'name="garrison_cards-TOTAL_FORMS"' in page.content.decode()
    assert "гарнизон" in page.content.decode().lower()
