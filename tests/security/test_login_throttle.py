"""Login throttling (django-axes): repeated failures from one client are blocked with a Russian message."""
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
    # Even the right password is refused while blocked, and other logins from this client too.
    assert attempt(c, "mod-password-1").status_code == 429
    assert attempt(c, "whatever", username="someone-else").status_code == 429
    assert "_auth_user_id" not in c.session
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
