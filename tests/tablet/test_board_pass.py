"""A phase change's boards and map SVGs answered from a session's pass (issue 36: larp.tablet.board_pass in
larp.fastlane), without weakening who may see them: only a session shown entitled to that faction a moment ago,
signed in by a join code that still works, not signed out; and what it shows is the board rendered in full."""
import re
import threading

import pytest
from django.urls import reverse

from larp.campaign.services.members import create_player
from larp.tablet import rendered, services as tablet_services
from larp.turns import services


@pytest.fixture
def shared(settings):
    from django.core.cache import cache

    settings.STATE_CACHE = True
    settings.SESSION_ENGINE = "larp.sessions"  # sessions in the cache as on a game night (before any client)
    cache.clear()  # the tests' local-memory cache culls a third of its entries when full: a pass among them


def joined(client, moderator, game, user, faction="north"):
    """A tablet signed in by its join code, its faction page open (its CSRF cookie set)."""
    code = tablet_services.issue_code(moderator, game, user)
    assert client.get(reverse("tablet:join", args=[tablet_services.link(code)])).status_code == 302
    assert client.get(reverse("tablet:faction", args=[game.pk, faction])).status_code == 200
    return code


def board(client, game, faction="north"):
    return client.get(reverse("tablet:faction", args=[game.pk, faction]), HTTP_HX_REQUEST="true")


def untokened(html: str) -> str:
    """The board without what differs per request (the CSRF token, the form's key)."""
    return re.sub(r'value="[^"]{16,}"', "", html)


def test_a_board_asked_again_is_served_from_the_pass_without_a_query(tiny_game, moderator, player, client, shared,
                                                                    django_assert_num_queries):
    services.start_game(tiny_game, moderator)
    joined(client, moderator, tiny_game, player)
    first = board(client, tiny_game)  # the full check: renders, and grants the pass
    with django_assert_num_queries(0):
        again = board(client, tiny_game)
    assert again.status_code == 200
    html = again.content.decode()
    assert "PLACEHOLDER" not in html and untokened(html) == untokened(first.content.decode())
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    assert token != re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', first.content.decode()).group(1)
    assert "no-store" in again["Cache-Control"] and again["X-Frame-Options"] == "DENY"
    assert again["Content-Language"] == first["Content-Language"]


def test_the_board_from_the_pass_equals_the_board_rendered_without_any_cache(tiny_game, moderator, player, client,
                                                                             settings, shared):
    services.start_game(tiny_game, moderator)
    joined(client, moderator, tiny_game, player)
    settings.STATE_CACHE = False
    plain = board(client, tiny_game).content.decode()
    settings.STATE_CACHE = True
    board(client, tiny_game)
    served = board(client, tiny_game).content.decode()
    assert untokened(served) == untokened(plain)


def test_its_csrf_token_is_accepted_by_the_form_it_fills(tiny_game, moderator, player, client, shared):
    from django.test import Client

    services.start_game(tiny_game, moderator)
    tablet = Client(enforce_csrf_checks=True)
    joined(tablet, moderator, tiny_game, player)
    board(tablet, tiny_game)
    html = board(tablet, tiny_game).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    ready = reverse("tablet:orders_ready", args=[tiny_game.pk, "north"])
    assert tablet.post(ready, {"ready": "1", "csrfmiddlewaretoken": token}).status_code == 302
    assert tablet.post(ready, {"ready": "1", "csrfmiddlewaretoken": "x" * 64}).status_code == 403


@pytest.mark.parametrize("how", ["revoked", "replaced"])
def test_a_revoked_join_code_loses_the_pass_at_once(tiny_game, moderator, player, client, shared, how):
    services.start_game(tiny_game, moderator)
    code = joined(client, moderator, tiny_game, player)
    board(client, tiny_game)
    assert board(client, tiny_game).status_code == 200  # served from the pass
    if how == "revoked":
        tablet_services.revoke_code(moderator, code)
    else:
        tablet_services.issue_code(moderator, tiny_game, player)
    again = board(client, tiny_game)
    assert again.status_code == 302 and "login" in again["Location"]


def test_signing_out_loses_the_pass(tiny_game, moderator, player, client, shared):
    services.start_game(tiny_game, moderator)
    joined(client, moderator, tiny_game, player)
    board(client, tiny_game)
    cookies = {k: m.value for k, m in client.cookies.items()}
    client.post(reverse("logout"))
    from django.test import Client

    stolen = Client()  # the signed-out session's cookies kept by someone
    for k, v in cookies.items():
        stolen.cookies[k] = v
    assert board(stolen, tiny_game).status_code == 302
    assert board(client, tiny_game).status_code == 302


def test_a_pass_shows_no_other_factions_board(tiny_game, moderator, player, client, shared):
    services.start_game(tiny_game, moderator)
    joined(client, moderator, tiny_game, player)
    board(client, tiny_game)
    assert board(client, tiny_game, "south").status_code == 403  # the ordinary way: R13


def test_a_pass_is_bound_to_its_session(tiny_game, moderator, player, client, shared):
    """Another session (another tablet of the faction, or one that never signed in) has no pass of its own."""
    from django.test import Client

    services.start_game(tiny_game, moderator)
    joined(client, moderator, tiny_game, player)
    board(client, tiny_game)
    stranger = Client()
    stranger.cookies["csrftoken"] = client.cookies["csrftoken"].value
    assert board(stranger, tiny_game).status_code == 302


def test_the_map_svg_of_a_version_is_served_from_the_pass(tiny_game, moderator, player, client, shared,
                                                           django_assert_num_queries):
    services.start_game(tiny_game, moderator)
    joined(client, moderator, tiny_game, player)
    page = client.get(reverse("tablet:faction", args=[tiny_game.pk, "north"])).content.decode()
    src = re.search(r'data-map-src="([^"]+)"', page).group(1).replace("&amp;", "&")
    first = client.get(src, HTTP_ACCEPT_ENCODING="gzip")
    with django_assert_num_queries(0):
        again = client.get(src, HTTP_ACCEPT_ENCODING="gzip")
    assert again.content == first.content and again["Content-Encoding"] == "gzip"
    assert "immutable" in again["Cache-Control"]
    client.post(reverse("logout"))
    assert client.get(src).status_code == 302


@pytest.mark.parametrize("where", ["local memory", "redis"])
def test_tablets_of_a_faction_asking_at_once_wait_for_one_render(shared, monkeypatch, where):
    """One render per faction and state: the others asking meanwhile (through the pass too) get the same text,
    woken when it is kept (in Redis, blocked on its list rather than asking every few milliseconds)."""
    import os
    import time

    from django.conf import settings

    cache = rendered.cache
    if where == "redis":
        from larp.cache import SharedClientRedisCache

        cache = SharedClientRedisCache(settings.TEST_REDIS_URL, {"KEY_PREFIX": f"test-rendered-{os.getpid()}"})
        monkeypatch.setattr(rendered, "cache", cache)
        assert rendered._redis_and_key("k")[0] is not None

    key = "board-test-key"
    cache.delete_many([key, f"{key}:making"])
    release, got, made = threading.Event(), [], []

    def render():
        made.append(1)
        release.wait(5)
        return "the board"

    renderer = threading.Thread(target=lambda: got.append(rendered._once(key, render)))
    renderer.start()
    while not made:
        time.sleep(0.005)
    others = [threading.Thread(target=lambda: got.append(rendered._kept_or_coming(key))) for _ in range(3)]
    others.append(threading.Thread(target=lambda: got.append(rendered._once(key, render))))
    for t in others:
        t.start()
    time.sleep(0.05)
    release.set()
    for t in [renderer, *others]:
        t.join(5)
    assert got == ["the board"] * 5 and len(made) == 1
    cache.delete_many([key, f"{key}:done"])
    assert rendered._kept_or_coming(key) is None  # neither kept nor being made: the ordinary way renders


def test_a_board_render_reads_the_shared_tables_once_per_state(tiny_game, moderator, player, client_for, shared,
                                                               django_assert_max_num_queries):
    """The places' names and the phase are read once per state for every faction's board; each faction's render
    stays within its queries."""
    services.start_game(tiny_game, moderator)
    south, _ = create_player(tiny_game.factions.get(code="south"), "south-player")
    board(client_for(player), tiny_game)
    tablet = client_for(south)
    with django_assert_max_num_queries(16) as captured:  # its session's checks (3) and its faction's render
        assert board(tablet, tiny_game, "south").status_code == 200
    sql = " ".join(q["sql"] for q in captured.captured_queries)
    assert 'FROM "campaign_province"' not in sql and 'FROM "campaign_faction" WHERE' not in sql  # names: shared
    assert 'FROM "turns_turnsettings" LEFT OUTER JOIN "turns_phase"' not in sql  # the phase: shared
    assert sql.count('FROM "campaign_membership"') <= 3  # the role once; the orders' visibility (R3)
    calls = []
    rendered._scope.game_id, rendered._scope.version = tiny_game.pk, "v1"
    try:
        assert rendered.shared(tiny_game.pk, "x", lambda: calls.append(1) or "a") == "a"
        assert rendered.shared(tiny_game.pk, "x", lambda: calls.append(1) or "b") == "a"
    finally:
        rendered._scope.game_id = rendered._scope.version = None
    assert rendered.shared(tiny_game.pk, "x", lambda: calls.append(1) or "c") == "c"  # outside a render
    assert len(calls) == 2


def test_a_player_moved_or_deactivated_loses_the_pass_at_once(tiny_game, moderator, player, client, shared):
    from larp.campaign.models import Membership

    services.start_game(tiny_game, moderator)
    joined(client, moderator, tiny_game, player)
    board(client, tiny_game)
    assert board(client, tiny_game).status_code == 200
    membership = Membership.objects.get(user=player, game=tiny_game)
    membership.faction = tiny_game.factions.get(code="south")
    membership.save()
    assert board(client, tiny_game).status_code == 403  # north's board: no longer this player's (R13)
    assert board(client, tiny_game, "south").status_code == 200
    assert board(client, tiny_game, "south").status_code == 200  # the pass granted anew, for south
    player.is_active = False
    player.save()
    assert board(client, tiny_game, "south").status_code == 302


def test_a_join_code_checked_long_ago_is_looked_up_again(tiny_game, moderator, player, client, shared,
                                                         django_assert_num_queries):
    from django.core.cache import cache

    from larp.tablet.middleware import _key

    services.start_game(tiny_game, moderator)
    code = joined(client, moderator, tiny_game, player)
    board(client, tiny_game)
    cache.delete(_key(code.pk))  # its cached check lapsed (CHECK_SECONDS)
    with django_assert_num_queries(1):  # the code's row, and nothing else of the ordinary way
        assert board(client, tiny_game).status_code == 200
    code.revoked_at = code.expires_at
    code.save()
    assert board(client, tiny_game).status_code == 302


def test_a_board_from_the_pass_reads_the_cache_in_few_round_trips(tiny_game, moderator, player, client, shared):
    """At a phase change sixty tablets ask at once: the pass, the session, the versions, the user's row, the join
    code and the kept render come in two round trips, after the clock's own read."""
    from unittest import mock

    from django.core.cache import cache

    services.start_game(tiny_game, moderator)
    joined(client, moderator, tiny_game, player)
    board(client, tiny_game)  # the full check: renders, and grants the pass
    board(client, tiny_game)  # the clock's payload is kept too
    calls, inside = [], []
    real_get, real_many = cache.get, cache.get_many

    def get(*a, **k):
        if not inside:  # a get_many of some backends asks get for each key: one round trip all the same
            calls.append(("get", a[0]))
        return real_get(*a, **k)

    def get_many(*a, **k):
        calls.append("get_many")
        inside.append(1)
        try:
            return real_many(*a, **k)
        finally:
            inside.pop()

    with mock.patch.object(cache, "get", side_effect=get), mock.patch.object(cache, "get_many", side_effect=get_many):
        again = board(client, tiny_game)
    assert again.status_code == 200 and "PLACEHOLDER" not in again.content.decode()
    # Three round trips: the clock's own read (its copy and its generation) and two for the pass; 5 before, a key each.
    assert calls == ["get_many"] * 3, calls
