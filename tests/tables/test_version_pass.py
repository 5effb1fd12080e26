"""A table's version, polled by its pages about once a second (issue 36): the first poll of a session is checked
in full (sign-in, join code, seat), the next ones are answered before sessions and queries for a few seconds,
and show a change as soon as it is committed. A session without a seat never gets the version."""
import json

import pytest
from django.urls import reverse

from larp.tables import services, version_pass


@pytest.fixture
def shared(settings):
    settings.STATE_CACHE = True  # as with Redis: one cache every web process shares


def url(table):
    return reverse("tables:version", args=[table.game_id, table.pk])


def test_after_the_full_check_polls_cost_no_query(table, player, client_for, shared, django_assert_num_queries):
    tablet = client_for(player)
    first = tablet.get(url(table))
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = tablet.get(url(table))
    assert again.status_code == 200 and json.loads(again.content) == json.loads(first.content)
    assert again["X-Content-Type-Options"] == "nosniff"  # the security headers are still set
    assert again["Content-Length"] == str(len(again.content))  # not sent chunked by the web server


def test_an_act_shows_at_the_next_poll(table, player, moderator, client_for, shared, django_assert_num_queries,
                                       django_capture_on_commit_callbacks):
    tablet = client_for(player)
    before = json.loads(tablet.get(url(table)).content)["version"]
    with django_capture_on_commit_callbacks(execute=True):
        with services.locked(table.pk) as locked:
            services.record(locked, "ruling", moderator, reason="test")
    with django_assert_num_queries(0):
        after = json.loads(tablet.get(url(table)).content)
    assert after["version"] == before + 1 and after["status"] == "playing"


def test_no_seat_no_version(table, player, east_player, client_for, shared):
    client_for(player).get(url(table))  # the seated player's pass is not anyone else's
    stranger = client_for(east_player)
    assert stranger.get(url(table)).status_code == 403
    assert stranger.get(url(table)).status_code == 403
    other_game = reverse("tables:version", args=[table.game_id + 1000, table.pk])
    assert client_for(player).get(other_game).status_code in (403, 404)


def test_signing_out_ends_the_pass(table, player, client_for, shared):
    tablet = client_for(player)
    assert tablet.get(url(table)).status_code == 200
    old_cookie = tablet.cookies["sessionid"].value
    tablet.post(reverse("logout"))
    from django.test import Client

    thief = Client()
    thief.cookies["sessionid"] = old_cookie
    assert thief.get(url(table)).status_code == 302  # to the sign-in page, not the version


def test_a_lapsed_pass_is_checked_in_full_again(table, player, client_for, shared, django_assert_max_num_queries):
    tablet = client_for(player)
    tablet.get(url(table))
    version_pass.revoke_session(tablet.cookies["sessionid"].value)  # as when PASS_SECONDS have passed
    with django_assert_max_num_queries(20) as captured:
        assert tablet.get(url(table)).status_code == 200
    assert len(captured) > 0


def test_without_a_shared_cache_every_poll_is_checked(table, player, client_for, settings,
                                                      django_assert_max_num_queries):
    settings.STATE_CACHE = False
    tablet = client_for(player)
    tablet.get(url(table))
    with django_assert_max_num_queries(20) as captured:
        assert tablet.get(url(table)).status_code == 200
    assert len(captured) > 0


def test_the_full_check_reads_neither_the_tables_state_nor_its_setup(table, player, client_for,
                                                                      django_assert_max_num_queries):
    """An Orda table's state is tens of kilobytes of JSON: the poll that checks the seat needs none of it."""
    tablet = client_for(player)
    with django_assert_max_num_queries(10) as captured:
        assert json.loads(tablet.get(url(table)).content)["version"] >= 0
    table_reads = [q["sql"] for q in captured.captured_queries if 'FROM "tables_table"' in q["sql"]]
    assert table_reads and not any('"tables_table"."state"' in sql or '"tables_table"."setup"' in sql
                                   for sql in table_reads), table_reads
