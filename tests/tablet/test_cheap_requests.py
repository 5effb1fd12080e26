"""What makes a tablet's request cheap at a phase change (issue 36) keeps its promises: a revoked join code
signs its tablet out at the next request though working codes are kept in the cache; sessions keep working
while the cache is down; the Redis cache reuses its client."""
import pytest
from django.urls import reverse

from larp.tablet import services


@pytest.fixture
def code(tiny_game, moderator, player):
    return services.issue_code(moderator, tiny_game, player)


def signed_in_tablet(client, code, tiny_game):
    assert client.get(reverse("tablet:join", args=[services.link(code)])).status_code == 302
    page = reverse("tablet:faction", args=[tiny_game.pk, "north"])
    assert client.get(page).status_code == 200  # the working code is now in the cache
    return page


@pytest.mark.parametrize("how", ["revoked", "replaced"])
def test_a_code_revoked_after_it_was_cached_signs_the_tablet_out(client, tiny_game, moderator, player, code, how,
                                                                  django_assert_max_num_queries):
    page = signed_in_tablet(client, code, tiny_game)
    if how == "revoked":
        services.revoke_code(moderator, code)
    else:
        services.issue_code(moderator, tiny_game, player)  # a new printed code: the old one is void (an update())
    assert client.get(page).status_code == 302  # to the sign-in page


def test_a_working_code_is_not_looked_up_on_every_request(client, tiny_game, code, django_assert_max_num_queries):
    from larp.tablet.models import JoinToken

    page = signed_in_tablet(client, code, tiny_game)
    with django_assert_max_num_queries(30) as captured:
        assert client.get(page).status_code == 200
    assert not any(JoinToken._meta.db_table in q["sql"] for q in captured.captured_queries)


def test_sessions_are_read_from_the_database_while_the_cache_is_down(player):
    from django.contrib.auth import SESSION_KEY

    from larp.sessions import SessionStore

    class Down:
        def __getattr__(self, name):
            def fail(*args, **kwargs):
                raise ConnectionError("Redis is down")
            return fail

        def __contains__(self, key):
            raise ConnectionError("Redis is down")

    store = SessionStore()
    store[SESSION_KEY] = str(player.pk)
    store.create()
    again = SessionStore(store.session_key)
    again._cache = Down()
    assert again[SESSION_KEY] == str(player.pk)
    assert again.exists(store.session_key)
    again.delete()  # a sign-out meanwhile: gone from the database (the cache's copy expires by itself)
    from django.contrib.sessions.models import Session

    assert not Session.objects.filter(session_key=store.session_key).exists()


def test_the_redis_cache_reuses_one_client_and_works(settings):
    from django.conf import settings as live
    from larp.cache import SharedClientRedisCache

    cache = SharedClientRedisCache(live.TEST_REDIS_URL, {"KEY_PREFIX": "test-shared-client", "TIMEOUT": 5})
    assert cache._cache.get_client(write=True) is cache._cache.get_client(write=False)
    cache.set("answer", {"n": 42})
    assert cache.get("answer") == {"n": 42}
    cache.delete("answer")
