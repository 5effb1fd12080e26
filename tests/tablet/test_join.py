"""Join codes: a moderator's QR sign-in per player; revoked, expired and forged codes are refused."""
from datetime import timedelta

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from larp.campaign.models import Membership
from larp.tablet import services, tokens
from larp.tablet.models import JoinToken

ASK = "попросите у модератора новый код"


def join_url(token: JoinToken) -> str:
    return reverse("tablet:join", args=[services.link(token)])


@pytest.fixture
def code(tiny_game, moderator, player):
    return services.issue_code(moderator, tiny_game, player)


def test_scanning_the_code_signs_in_and_opens_the_faction_page(client, tiny_game, code, player):
    response = client.get(join_url(code))
    assert response.status_code == 302
    assert response["Location"] == reverse("tablet:faction", args=[tiny_game.pk, "north"])
    assert client.session["_auth_user_id"] == str(player.pk)
    page = client.get(response["Location"])
    assert page.status_code == 200 and "Север" in page.content.decode()
    code.refresh_from_db()
    assert code.uses == 1 and code.last_used_at is not None


def test_the_same_code_works_again_on_a_second_device(tiny_game, code, player):
    for _ in range(2):
        c = Client()
        assert c.get(join_url(code)).status_code == 302
        assert c.session["_auth_user_id"] == str(player.pk)


def test_a_revoked_code_is_refused_in_russian(client, tiny_game, moderator, code):
    services.revoke_code(moderator, code)
    response = client.get(join_url(code))
    text = response.content.decode()
    assert response.status_code == 403
    assert "отозвал" in text and ASK in text.lower()
    assert "_auth_user_id" not in client.session


def test_a_new_code_revokes_the_old_one(client, tiny_game, moderator, player, code):
    fresh = services.issue_code(moderator, tiny_game, player)
    assert client.get(join_url(code)).status_code == 403
    assert client.get(join_url(fresh)).status_code == 302


def test_an_expired_signature_is_refused(client, tiny_game, moderator, player, settings):
    settings.TABLET_JOIN_MAX_AGE = 3600
    token = services.issue_code(moderator, tiny_game, player)
    token.created_at = timezone.now() - timedelta(hours=2)
    token.save()
    response = client.get(join_url(token))  # the signature carries the issue time: two hours > one hour
    assert response.status_code == 403
    assert "истёк" in response.content.decode() and ASK in response.content.decode().lower()


def test_an_expired_row_is_refused(client, tiny_game, code):
    JoinToken.objects.filter(pk=code.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = client.get(join_url(code))
    assert response.status_code == 403 and "истёк" in response.content.decode()


def test_a_forged_or_mangled_code_is_refused(client, code):
    value = services.link(code)
    forged = signing.TimestampSigner(salt="someone-else").sign(code.key)
    for bad in (value[:-3] + "abc", forged, "nonsense", value.replace(code.key, "x" * len(code.key))):
        response = client.get(reverse("tablet:join", args=[bad]))
        assert response.status_code == 403 and ASK in response.content.decode().lower()
    assert "_auth_user_id" not in client.session


def test_a_code_for_a_removed_player_is_refused(client, code, player):
    Membership.objects.filter(user=player).delete()
    assert client.get(join_url(code)).status_code == 403


def test_the_link_is_stable_and_needs_the_secret_key(code, settings):
    assert services.link(code) == services.link(JoinToken.objects.get(pk=code.pk))
    value = services.link(code)
    assert tokens.unsign(value) == code.key
    settings.SECRET_KEY = "another-secret-key-" + "y" * 40
    with pytest.raises(tokens.TokenProblem):
        tokens.unsign(value)


# --- the moderator's page ---------------------------------------------------------------------


def test_moderator_sees_players_with_qr_codes(client_for, tiny_game, moderator, player, other_player, code):
    page = client_for(moderator).get(reverse("tablet:players", args=[tiny_game.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "north-player" in text and "south-player" in text
    assert text.count('class="segno"') == 1  # south has no code yet
    assert services.link(code) in text


def test_moderator_issues_revokes_and_adds_players(client_for, tiny_game, moderator, player, other_player):
    c = client_for(moderator)
    assert c.post(reverse("tablet:issue_missing", args=[tiny_game.pk])).status_code == 302
    assert JoinToken.objects.filter(game=tiny_game, revoked_at__isnull=True).count() == 2
    token = JoinToken.objects.get(user=player)
    assert c.post(reverse("tablet:revoke_code", args=[tiny_game.pk, token.pk])).status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_by == moderator
    assert c.post(reverse("tablet:issue_code", args=[tiny_game.pk, player.pk])).status_code == 302
    assert JoinToken.objects.filter(user=player, revoked_at__isnull=True).count() == 1
    response = c.post(reverse("tablet:add_player", args=[tiny_game.pk]),
                      {"faction": "east", "username": "east-1", "name": "Олег Сидоров"})
    assert response.status_code == 302
    member = Membership.objects.get(user__username="east-1")
    assert member.faction.code == "east" and member.role == "player"
    assert JoinToken.objects.filter(user=member.user, revoked_at__isnull=True).exists()
    page = c.get(reverse("tablet:players", args=[tiny_game.pk])).content.decode()
    assert "east-1" in page
    # A taken login is refused with a message, nothing created.
    c.post(reverse("tablet:add_player", args=[tiny_game.pk]), {"faction": "east", "username": "east-1", "name": "Другой"})
    assert Membership.objects.filter(user__username="east-1").count() == 1


@pytest.mark.parametrize("who", ["player", "other_player", "stranger"])
def test_only_moderators_manage_codes(request, client_for, tiny_game, code, who):
    c = client_for(request.getfixturevalue(who))
    assert c.get(reverse("tablet:players", args=[tiny_game.pk])).status_code == 403
    assert c.post(reverse("tablet:issue_missing", args=[tiny_game.pk])).status_code == 403
    assert c.post(reverse("tablet:revoke_code", args=[tiny_game.pk, code.pk])).status_code == 403
    assert c.post(reverse("tablet:issue_code", args=[tiny_game.pk, code.user_id])).status_code == 403
    assert c.post(reverse("tablet:add_player", args=[tiny_game.pk]), {"faction": "east", "username": "x"}).status_code == 403
    code.refresh_from_db()
    assert code.revoked_at is None
    assert JoinToken.objects.filter(game=tiny_game).count() == 1


def test_anonymous_is_sent_to_login(tiny_game, code):
    c = Client()
    response = c.get(reverse("tablet:players", args=[tiny_game.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert c.post(reverse("tablet:revoke_code", args=[tiny_game.pk, code.pk])).status_code == 302
    code.refresh_from_db()
    assert code.revoked_at is None


def test_moderator_posts_need_csrf(tiny_game, moderator, code):
    c = Client(enforce_csrf_checks=True)
    c.force_login(moderator)
    for url, data in ((reverse("tablet:issue_missing", args=[tiny_game.pk]), {}),
                      (reverse("tablet:revoke_code", args=[tiny_game.pk, code.pk]), {}),
                      (reverse("tablet:issue_code", args=[tiny_game.pk, code.user_id]), {}),
                      (reverse("tablet:add_player", args=[tiny_game.pk]), {"faction": "east", "username": "x"}),
                      (reverse("tablet:spy", args=[tiny_game.pk]), {"to_faction": "north", "stack": "x"})):
        assert c.post(url, data).status_code == 403
    code.refresh_from_db()
    assert code.revoked_at is None


def test_normal_login_still_works_for_moderators(client, moderator):
    response = client.post(reverse("login"), {"username": "mod", "password": "mod-password-1"})
    assert response.status_code == 302
