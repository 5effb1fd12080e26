"""Login throttling (django-axes): repeated failures for one account from one client are blocked with a Russian
message; other accounts on the same address (the hall's Wi-Fi, a reverse proxy) are not, and signing in by join
code never wipes the count."""
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

LOCKED = "Слишком много неудачных попыток входа"


@pytest.fixture
def limits(settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = timedelta(minutes=5)
    return settings


def attempt(client, password, username="mod", url="login", **extra):
    return client.post(reverse(url), {"username": username, "password": password}, **extra)


def test_repeated_failures_from_one_client_are_blocked_in_russian(limits, moderator):
    c = Client()
    for _ in range(2):
        response = attempt(c, "wrong")
        assert response.status_code == 200 and LOCKED not in response.content.decode()
    blocked = attempt(c, "wrong")  # the third failure reaches the limit
    assert blocked.status_code == 429 and LOCKED in blocked.content.decode()
    # Even the right password is refused while blocked; another account from this client is not.
    assert attempt(c, "mod-password-1").status_code == 429
    assert "_auth_user_id" not in c.session
    assert attempt(c, "whatever", username="someone-else").status_code == 200
    # Another device in the hall is not affected.
    other = Client(REMOTE_ADDR="192.0.2.7")
    assert attempt(other, "mod-password-1").status_code == 302


def test_the_block_ends_after_the_cool_off(limits, moderator, settings):
    c = Client()
    for _ in range(3):
        attempt(c, "wrong")
    assert attempt(c, "mod-password-1").status_code == 429
    settings.AXES_COOLOFF_TIME = timedelta(seconds=0)  # as if the minutes had passed
    assert attempt(c, "mod-password-1").status_code == 302


def test_a_successful_sign_in_resets_the_count(limits, moderator):
    c = Client()
    attempt(c, "wrong")
    attempt(c, "wrong")
    assert attempt(c, "mod-password-1").status_code == 302
    c.logout()
    attempt(c, "wrong")
    assert attempt(c, "wrong").status_code == 200  # counting from zero again: not blocked yet


def test_the_admin_login_is_throttled_too(limits, moderator):
    c = Client()
    for _ in range(3):
        attempt(c, "wrong", url="admin:login")
    assert attempt(c, "mod-password-1", url="admin:login").status_code == 429


def test_join_codes_are_not_counted_as_failed_logins(limits, tiny_game, moderator, player):
    """A tablet scanning its code signs in without a password: nothing for the throttle to count."""
    from larp.tablet import services

    c = Client()
    for _ in range(5):
        code = services.issue_code(moderator, tiny_game, player)
        assert c.get(reverse("tablet:join", args=[services.link(code)])).status_code == 302


def _join(client, game, moderator, player):
    from larp.tablet import services

    return client.get(reverse("tablet:join", args=[services.link(services.issue_code(moderator, game, player))]))


def test_a_join_code_does_not_reset_failed_passwords(limits, tiny_game, moderator, player):
    """Four wrong passwords, one's own join link, repeat: the count goes on, for one's own account and others'."""
    c = Client()
    attempt(c, "wrong")
    attempt(c, "wrong", username="north-player")
    attempt(c, "wrong", username="north-player")
    assert _join(c, tiny_game, moderator, player).status_code == 302
    c.logout()
    assert attempt(c, "wrong").status_code == 200
    assert attempt(c, "wrong").status_code == 429  # the moderator account's third failure: blocked
    assert attempt(c, "wrong", username="north-player").status_code == 429
    assert _join(c, tiny_game, moderator, player).status_code == 302  # the tablet still signs in by its code
    from axes.models import AccessAttempt

    assert AccessAttempt.objects.filter(username="mod", failures_since_start=3).exists()


def test_one_player_s_guesses_do_not_lock_the_moderators_out_of_the_shared_wifi(limits, moderator, player):
    hall = "192.0.2.50"
    for _ in range(3):
        attempt(Client(REMOTE_ADDR=hall), "wrong", username="north-player")
    assert attempt(Client(REMOTE_ADDR=hall), "north-password-1", username="north-player").status_code == 429
    assert attempt(Client(REMOTE_ADDR=hall), "mod-password-1").status_code == 302


def _via_proxy(forwarded_for):
    return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded_for)


def test_behind_a_reverse_proxy_each_client_is_counted_apart(limits, moderator, settings):
    settings.TRUSTED_PROXIES = 1
    for _ in range(3):
        attempt(_via_proxy("198.51.100.7"), "wrong")
    assert attempt(_via_proxy("198.51.100.7"), "mod-password-1").status_code == 429
    assert attempt(_via_proxy("198.51.100.8"), "mod-password-1").status_code == 302
    # A client cannot pose as another by sending the header itself: the proxy appends the real address.
    assert attempt(_via_proxy("198.51.100.99, 198.51.100.7"), "mod-password-1").status_code == 429


def test_without_a_trusted_proxy_the_forwarded_header_is_ignored(limits, moderator, settings):
    settings.TRUSTED_PROXIES = 0
    for _ in range(3):
        attempt(_via_proxy("198.51.100.7"), "wrong")
    assert attempt(_via_proxy("198.51.100.8"), "mod-password-1").status_code == 429  # spoofing changes nothing
    assert attempt(Client(REMOTE_ADDR="192.0.2.1"), "mod-password-1").status_code == 302
