"""The admin's «add membership» form offers a moderator only the accounts of the games they moderate (and
accounts that belong to no game yet), never another game's players and moderators; a crafted POST naming such an
account is refused."""
from django.contrib.auth import get_user_model
from django.urls import reverse

from larp.campaign.models import Membership
from larp.campaign.services.members import add_moderator, create_player


def test_add_membership_lists_only_the_moderator_s_game_accounts(client_for, tiny_game, latin_game, moderator,
                                                                  player):
    other_mod, _ = add_moderator(latin_game, "latin-mod")
    other_player, _ = create_player(latin_game.factions.order_by("code").first(), "latin-player")
    newcomer = get_user_model().objects.create_user("newcomer")
    admin_user = get_user_model().objects.create_superuser("root", password="root-password-1")

    page = client_for(moderator).get(reverse("admin:campaign_membership_add"))
    assert page.status_code == 200
    form = page.context["adminform"].form
    offered = set(form.fields["user"].queryset.values_list("username", flat=True))
    assert {"mod", "north-player", "newcomer"} <= offered
    assert not offered & {other_mod.username, other_player.username, admin_user.username}
    html = page.content.decode()
    assert "latin-player" not in html and "latin-mod" not in html
    assert set(form.fields["game"].queryset.values_list("pk", flat=True)) == {tiny_game.pk}
    assert set(form.fields["faction"].queryset.values_list("game_id", flat=True)) == {tiny_game.pk}

    # Naming another game's account by hand is refused, and nothing is saved.
    crafted = client_for(moderator).post(reverse("admin:campaign_membership_add"),
                                         {"user": other_player.pk, "game": tiny_game.pk, "role": "moderator"})
    assert crafted.status_code == 200 and crafted.context["adminform"].form.errors.get("user")
    assert not Membership.objects.filter(user=other_player, game=tiny_game).exists()
    # A newcomer (no game yet) can be made a moderator of one's game.
    made = client_for(moderator).post(reverse("admin:campaign_membership_add"),
                                      {"user": newcomer.pk, "game": tiny_game.pk, "role": "moderator"})
    assert made.status_code == 302 and Membership.objects.filter(user=newcomer, game=tiny_game).exists()
    assert newcomer.pk in set(client_for(moderator).get(reverse("admin:campaign_membership_add"))
                              .context["adminform"].form.fields["user"].queryset.values_list("pk", flat=True))


def test_the_superuser_still_sees_every_account(client_for, tiny_game, latin_game, moderator):
    add_moderator(latin_game, "latin-mod")
    root = get_user_model().objects.create_superuser("root", password="root-password-1")
    form = client_for(root).get(reverse("admin:campaign_membership_add")).context["adminform"].form
    assert {"mod", "latin-mod", "root"} <= set(form.fields["user"].queryset.values_list("username", flat=True))


def test_list_filters_name_only_the_moderator_s_games(client_for, tiny_game, latin_game, moderator):
    for name in ("campaign_membership", "campaign_faction", "campaign_province", "forces_army"):
        page = client_for(moderator).get(reverse(f"admin:{name}_changelist"))
        assert page.status_code == 200
        assert latin_game.title not in page.content.decode(), name
