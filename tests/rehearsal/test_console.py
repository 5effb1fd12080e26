"""The console's «Репетиция»: the rehearsal copy (accounts left out, marked on every page, never listed as a
real game), one running rehearsal per game, the page's start, progress and delete; and, with a real worker,
a queued copy played to its report."""
import time

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from larp.campaign.models import Game, Membership
from larp.gamefile import services as gamefile
from larp.rehearsal import services
from larp.tablet import services as tablet
from larp.turns import services as turns


@pytest.fixture
def started(tiny_game, moderator, player, other_player):
    """The tiny game started, its players with join codes: a copy through the game file would bring them."""
    turns.start_game(tiny_game, moderator)
    tablet.issue_code(moderator, tiny_game, player)
    return tiny_game


def _start(game, by, **kw):
    options = dict(turns=1, tablets=1, tables=[], fast=True, seed=3, url="http://127.0.0.1:1/")
    return services.start(game, by, **{**options, **kw})


def test_a_copy_leaves_the_accounts_out_and_is_marked_as_the_rehearsal_of_its_game(started, moderator, player):
    before = {m: Membership.objects.filter(game=started, role=m).count() for m in (Membership.PLAYER,
                                                                                   Membership.MODERATOR)}
    copy = services.make_copy(started, "Репетиция: копия", by=moderator)
    assert copy.pk != started.pk and copy.rehearsal_of == started and copy.is_rehearsal
    assert not started.is_rehearsal and list(started.rehearsals.all()) == [copy]
    # Its world and its turn are the game's; its people are only the moderator who made it.
    assert copy.factions.count() == started.factions.count() and copy.provinces.count() == started.provinces.count()
    assert copy.armies.count() == started.armies.count() and copy.turns.count() == started.turns.count() == 1
    assert list(Membership.objects.filter(game=copy).values_list("user__username", "role")) == [
        ("mod", Membership.MODERATOR)]
    from larp.tablet.models import JoinToken

    assert JoinToken.objects.filter(game=copy).count() == 0 and JoinToken.objects.filter(game=started).count() == 1
    # The original keeps its players (a player belongs to one game) and its codes.
    assert {m: Membership.objects.filter(game=started, role=m).count() for m in before} == before
    assert Membership.objects.get(user=player).game == started


def test_without_accounts_leaves_out_the_users_and_every_row_that_must_name_one(started):
    data = gamefile.export_game(started)
    assert data["users"] and any(r["model"] == "campaign.membership" for r in data["objects"])
    bare = gamefile.without_accounts(data)
    assert bare["users"] == []
    models = {r["model"] for r in bare["objects"]}
    assert {"campaign.membership", "tablet.jointoken"} & models == set()
    assert "campaign.game" in models and "turns.phase" in models
    users = {u["pk"] for u in data["users"]}
    from larp.gamefile import graph

    fks = {gm.label: gm.fks for gm in graph.game_models()}
    for rec in bare["objects"]:
        for name, target in fks[rec["model"]].items():
            if target == graph.user_label():
                assert rec["fields"].get(name) not in users or rec["fields"].get(name) is None, (rec["model"], name)
    assert bare["counts"]["campaign.membership"] == 0 and data["counts"]["campaign.membership"] >= 2


def test_a_restored_copy_is_a_game_of_its_own(started, moderator):
    copy = services.make_copy(started, "Репетиция: к файлу", by=moderator)
    data = gamefile.loads(gamefile.dumps(gamefile.export_game(copy)))
    again = gamefile.restore(gamefile.without_accounts(data), title="Из файла копии").game
    assert again.rehearsal_of is None and again.rehearsal == {}


def test_every_page_of_a_copy_says_rehearsal_and_the_real_game_is_listed_alone(started, moderator, client_for):
    copy = services.make_copy(started, "Репетиция: страницы", by=moderator)
    c = client_for(moderator)
    for name, args in (("battles:console", []), ("battles:projector", []), ("tablet:faction", ["north"]),
                       ("rehearsal:page", []), ("battles:battles", [])):
        real = c.get(reverse(name, args=[started.pk, *args]))
        rehearsal = c.get(reverse(name, args=[copy.pk, *args]))
        assert real.status_code == rehearsal.status_code == 200, name
        assert b"data-rehearsal>" in rehearsal.content and "Репетиция".encode() in rehearsal.content, name
        assert b"data-rehearsal>" not in real.content, name
    home = c.get(reverse("home")).content.decode()
    games, _, copies = home.partition("data-rehearsal-copies")
    assert started.title in games and copy.title not in games and copy.title in copies
    assert reverse("rehearsal:page", args=[started.pk]) in c.get(reverse("battles:console", args=[started.pk])
                                                                 ).content.decode()
    from larp.gamefile.backups import running_game_ids

    assert started.pk in running_game_ids() and copy.pk not in running_game_ids()


def test_one_rehearsal_of_a_game_runs_at_a_time_and_a_double_press_shows_the_running_one(started, moderator,
                                                                                        client_for):
    c = client_for(moderator)
    form = {"turns": "1", "tablets": "1", "tables": ["tactical"], "fast": "on", "seed": "5"}
    first = c.post(reverse("rehearsal:start", args=[started.pk]), form)
    copy = Game.objects.get(rehearsal_of=started)
    assert first.status_code == 302 and first["Location"] == reverse("rehearsal:page", args=[copy.pk])
    assert copy.rehearsal["state"] == services.QUEUED and copy.rehearsal["options"] == {
        "turns": 1, "tablets": 1, "tables": ["tactical"], "fast": True, "seed": 5}
    second = c.post(reverse("rehearsal:start", args=[started.pk]), form)
    assert second["Location"] == first["Location"] and Game.objects.filter(rehearsal_of=started).count() == 1
    with pytest.raises(services.AlreadyRunning):
        _start(started, moderator)
    page = c.get(reverse("rehearsal:page", args=[started.pk])).content.decode()
    assert "data-running" in page and copy.title in page
    # A rehearsal of a copy is refused; a wrong form is shown again with its errors.
    with pytest.raises(services.RehearsalError):
        _start(copy, moderator)
    Game.objects.filter(pk=copy.pk).update(rehearsal={**copy.rehearsal, "state": services.DONE})
    bad = c.post(reverse("rehearsal:start", args=[started.pk]), {**form, "turns": "0", "tables": ["chess"]})
    assert bad.status_code == 422 and Game.objects.filter(rehearsal_of=started).count() == 1


def test_a_run_with_no_news_for_ten_minutes_is_stopped_and_another_may_start(started, moderator):
    copy = _start(started, moderator)
    assert services.state(copy) == services.QUEUED and services.running_copy(started) == copy
    copy.rehearsal = {**copy.rehearsal, "heartbeat": time.time() - services.STALE_SECONDS - 1}
    copy.save(update_fields=["rehearsal"])
    assert services.state(copy) == services.FAILED and services.running_copy(started) is None
    assert _start(started, moderator).pk != copy.pk


def test_the_progress_part_polls_while_it_runs_and_shows_the_report_when_done(started, moderator, client_for):
    copy = _start(started, moderator)
    c = client_for(moderator)
    url = reverse("rehearsal:progress", args=[copy.pk])
    Game.objects.filter(pk=copy.pk).update(rehearsal={**copy.rehearsal, "state": services.RUNNING, "progress": {
        "turn": 1, "turns": 2, "done": 0, "acts": 41, "failing": 1, "checks": ["fog"]}})
    running = c.get(url).content.decode()
    assert 'hx-trigger="every 2s"' in running and "Ход 1 из 2" in running and "41" in running
    assert "data-failing" in running and "fog" in running
    report = {"passed": False, "turns": 2, "acts": 90, "seconds": 12.5, "checks": {"fog": 30, "http": 90},
              "violations": [{"check": "fog", "act": 17, "message": "north sees south-1", "seed": 3}]}
    Game.objects.filter(pk=copy.pk).update(rehearsal={**copy.rehearsal, "state": services.DONE, "report": report,
                                                      "text": "Rehearsal, seed 3\nFAILED: 1 violation(s)\n"})
    done = c.get(url).content.decode()
    assert "hx-trigger" not in done and "data-report-checks" in done and "north sees south-1" in done
    assert "FAILED: 1 violation(s)" in done and "<td>30</td>" in done


def test_delete_takes_the_copy_and_everything_of_it_and_a_second_press_is_harmless(started, moderator, client_for):
    from larp.campaign.services.members import create_player

    copy = services.make_copy(started, "Репетиция: удалить", by=moderator)
    factions, members = started.factions.count(), Membership.objects.filter(game=started).count()
    User = get_user_model()
    bot, _ = create_player(copy.factions.get(code="north"), f"rehearsal-{copy.pk}-north-1")
    create_player(copy.factions.get(code="south"), "someone-else")  # not a bot's: kept
    c = client_for(moderator)
    refused = c.post(reverse("rehearsal:delete", args=[started.pk]))
    assert refused.status_code == 302 and Game.objects.filter(pk=started.pk).exists()
    answer = c.post(reverse("rehearsal:delete", args=[copy.pk]))
    assert answer["Location"] == reverse("rehearsal:page", args=[started.pk])
    assert not Game.objects.filter(pk=copy.pk).exists() and not User.objects.filter(pk=bot.pk).exists()
    assert User.objects.filter(username="someone-else").exists() and User.objects.filter(username="mod").exists()
    assert started.factions.count() == factions and Membership.objects.filter(game=started).count() == members
    again = c.post(reverse("rehearsal:delete", args=[copy.pk]))
    assert again.status_code == 302 and again["Location"] == reverse("home")


@pytest.mark.worker
def test_a_queued_copy_is_played_by_the_worker_to_its_report(live_server, worker_factory, fast_game):
    """The whole way but the browser: the start queues the task after its commit, a real worker plays the copy
    against the live server, the copy keeps the progress and then the report."""
    from larp.campaign.services.members import add_moderator

    game = fast_game(title="Ночь для репетиции")
    mod, _ = add_moderator(game, "rh-mod", password="rh-mod-password-1")
    worker_factory("rehearsal-runner")
    worker_factory("rehearsal-helper")  # the deadlines close while the first plays the night
    copy = _start(game, mod, url=live_server.url + "/")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        copy.refresh_from_db()
        if services.state(copy) in (services.DONE, services.FAILED):
            break
        time.sleep(1)
    run = copy.rehearsal
    assert run["state"] == services.DONE, run.get("error") or run
    assert run["report"]["passed"], run["text"]
    assert run["report"]["turns"] == 1 and run["progress"]["done"] == 1 and run["progress"]["acts"] > 10
    assert "log" not in run["report"] and "PASSED" in run["text"]
    assert services.bot_accounts(copy).count() == 1 + copy.factions.count()
    game.refresh_from_db()
    assert game.turns.count() == 0 and not game.rehearsal


def test_the_command_s_game_option_copies_a_game_whose_players_are_members_of_it(started, player):
    """`manage.py rehearse --game` copies through the same service: the copy used to be refused while the
    original's players were its members."""
    from larp.rehearsal.runner import SetupError, copy_game

    copy = copy_game(str(started.pk), "Репетиция из командной строки")
    assert copy.rehearsal_of == started and Membership.objects.filter(game=copy).count() == 0
    assert copy_game(started.title, "Репетиция по названию").rehearsal_of == started
    with pytest.raises(SetupError):
        copy_game("no such game", "x")


def test_a_copy_paused_in_its_strategy_phase_runs_a_short_one_when_played_fast(started, moderator):
    from larp.rehearsal.services import _short_open_strategy
    from larp.turns.models import Phase

    turns.pause(started, moderator, "обед")
    copy = services.make_copy(started, "Репетиция: на паузе", by=moderator)
    phase = Phase.objects.get(turn__game=copy, kind=Phase.STRATEGY)
    assert phase.state == Phase.PAUSED
    _short_open_strategy(copy.pk, tablets=2)
    phase.refresh_from_db()
    from django.utils import timezone

    left = (phase.deadline - timezone.now()).total_seconds()
    units = copy.armies.count() + copy.fleets.count()
    assert phase.state == Phase.RUNNING and 0 < left <= 20 + 0.5 * units * 2
    assert Phase.objects.get(turn__game=started, kind=Phase.STRATEGY).state == Phase.PAUSED
