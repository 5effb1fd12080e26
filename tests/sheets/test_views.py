"""Print views against the role matrix; the htmx status fragment polls until the document is ready."""
import pytest
from django.urls import reverse

from larp.sheets import services
from larp.sheets.models import PrintJob
from tests.sheets.pdf import pdf_pages

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def job(tiny_game, moderator):
    job, _ = services.request_print(tiny_game, "battle-sheets", {}, moderator)
    return job


def urls(game, job):
    return {
        "index": ("get", reverse("sheets:index", args=[game.pk])),
        "request": ("post", reverse("sheets:request", args=[game.pk])),
        "request_kind": ("post", reverse("sheets:request_kind", args=[game.pk, "order-forms"])),
        "job": ("get", reverse("sheets:job", args=[game.pk, job.pk])),
        "download": ("get", reverse("sheets:download", args=[game.pk, job.pk])),
    }


def test_moderator_may_use_every_print_view(tiny_game, moderator, job, client_for):
    services.run_job(job.pk)
    c = client_for(moderator)
    for name, (method, url) in urls(tiny_game, job).items():
        response = getattr(c, method)(url, {"kind": "battle-sheets"} if method == "post" else None)
        assert response.status_code in (200, 302), name


@pytest.mark.parametrize("who", ["player", "other_player", "stranger"])
def test_players_and_strangers_may_not(tiny_game, job, client_for, who, request):
    services.run_job(job.pk)
    c = client_for(request.getfixturevalue(who))
    for name, (method, url) in urls(tiny_game, job).items():
        response = getattr(c, method)(url, {"kind": "battle-sheets"} if method == "post" else None)
        assert response.status_code == 403, (who, name)
    assert PrintJob.objects.count() == 1


def test_anonymous_is_sent_to_sign_in(tiny_game, job, client_for):
    for name, (method, url) in urls(tiny_game, job).items():
        response = getattr(client_for(None), method)(url)
        assert response.status_code == 302 and "/login/" in response["Location"], name


def test_a_job_of_another_game_is_not_found(tiny_game, latin_game, job, client_for):
    from larp.campaign.services.members import add_moderator

    other_mod, _ = add_moderator(latin_game, "latin-only-mod")
    response = client_for(other_mod).get(reverse("sheets:job", args=[latin_game.pk, job.pk]))
    assert response.status_code == 404


def test_double_post_creates_one_job(tiny_game, moderator, client_for):
    c = client_for(moderator)
    url = reverse("sheets:request", args=[tiny_game.pk])
    first = c.post(url, {"kind": "battle-sheets", "paper": "a4"})
    second = c.post(url, {"kind": "battle-sheets", "paper": "a4"})
    assert PrintJob.objects.count() == 1
    job = PrintJob.objects.get()
    assert first["Location"] == second["Location"] == reverse("sheets:job", args=[tiny_game.pk, job.pk])
    assert job.requested_by == moderator and job.kind == "battle-sheets"


def test_htmx_post_returns_the_polling_list(tiny_game, moderator, client_for):
    c = client_for(moderator)
    response = c.post(reverse("sheets:request", args=[tiny_game.pk]), {"kind": "order-forms", "paper": "a5"}, **HTMX)
    html = response.content.decode()
    job = PrintJob.objects.get()
    assert response.status_code == 200 and job.params == {"paper": "a5"}
    assert f'id="print-job-{job.pk}"' in html and 'hx-trigger="every 1s"' in html
    assert reverse("sheets:job", args=[tiny_game.pk, job.pk]) in html


def test_the_status_names_the_faction_asked_for(tiny_game, moderator, client_for):
    job, _ = services.request_print(tiny_game, "order-forms", {"faction": "south", "turn": 2}, moderator)
    html = client_for(moderator).get(reverse("sheets:job", args=[tiny_game.pk, job.pk]), **HTMX).content.decode()
    assert "Юг" in html and "ход 2" in html


def test_htmx_post_of_a_bad_request_says_why(tiny_game, moderator, client_for):
    response = client_for(moderator).post(reverse("sheets:request", args=[tiny_game.pk]),
                                          {"kind": "turn-results"}, **HTMX)
    assert response.status_code == 200 and "Игра ещё не началась" in response.content.decode()
    assert not PrintJob.objects.exists()


def test_status_polls_while_running_and_stops_when_done(tiny_game, moderator, job, client_for):
    c = client_for(moderator)
    url = reverse("sheets:job", args=[tiny_game.pk, job.pk])
    waiting = c.get(url, **HTMX).content.decode()
    assert 'hx-trigger="every 1s"' in waiting and "<progress" in waiting and "<html" not in waiting
    services.run_job(job.pk)
    done = c.get(url, **HTMX).content.decode()
    assert "hx-trigger" not in done and reverse("sheets:download", args=[tiny_game.pk, job.pk]) in done
    page = c.get(url).content.decode()
    assert "<html" in page and "htmx.min.js" in page


def test_download_serves_the_pdf_when_ready(tiny_game, moderator, job, client_for):
    c = client_for(moderator)
    url = reverse("sheets:download", args=[tiny_game.pk, job.pk])
    assert c.get(url).status_code == 404  # not made yet
    services.run_job(job.pk)
    response = c.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert f'filename="game{tiny_game.pk}-battle-sheets.pdf"' in response["Content-Disposition"]
    assert len(pdf_pages(response.content)) == 3


def test_print_buttons_include(tiny_game, moderator, client_for):
    from django.template.loader import render_to_string
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = moderator
    before = render_to_string("sheets/partials/print_buttons.html", {"game": tiny_game}, request=request)
    assert 'value="battle-sheets"' in before and 'value="order-forms"' in before
    assert 'value="protocols"' not in before  # no turn given: nothing to report yet
    after = render_to_string("sheets/partials/print_buttons.html", {"game": tiny_game, "turn": 2}, request=request)
    assert 'value="protocols"' in after and 'value="turn-results"' in after and 'name="turn" value="2"' in after
    assert "csrfmiddlewaretoken" in after


HOSTILE_PRINT = [
    {"kind": "zz"},
    {"kind": "x" * 5000},
    {},
    {"kind": "battle-sheets", "paper": "zz"},
    {"kind": "battle-sheets", "paper": "a" * 5000},
    {"kind": "battle-sheets", "faction": "f" * 5000},
    {"kind": "battle-sheets", "faction": "nobody"},
    {"kind": "order-forms", "turn": "abc"},
    {"kind": "order-forms", "turn": str(10**30)},
    {"kind": "order-forms", "turn": "-1"},
    {"kind": "protocols", "turn": "1", "battle": "1.5"},
    {"kind": "order-forms", "turn": "1\x00"},
]


@pytest.mark.parametrize("data", HOSTILE_PRINT, ids=range(len(HOSTILE_PRINT)))
def test_a_hostile_print_request_gets_a_clear_answer_in_russian_and_files_nothing(tiny_game, moderator, data):
    import re

    from django.test import Client

    c = Client(raise_request_exception=False)
    c.force_login(moderator)
    url = reverse("sheets:request", args=[tiny_game.pk])
    plain = c.post(url, data)
    assert plain.status_code == 400, plain.status_code
    messages = re.findall(r'<ul class="messages">(.*?)</ul>', plain.content.decode(), re.S)
    assert messages and re.search("[А-Яа-яЁё]{3,}", messages[0])
    assert not re.search(r"'zz'|'abc'|battle-sheets, |order-forms, ", messages[0])  # no ids, no Python reprs
    htmx = c.post(url, data, **HTMX)  # htmx swaps the answer into the jobs list: the error is shown there
    assert htmx.status_code == 200 and re.search("[А-Яа-яЁё]{3,}", htmx.content.decode())
    assert not PrintJob.objects.exists()
    wrong_kind = c.post(reverse("sheets:request_kind", args=[tiny_game.pk, "zz"]))
    assert wrong_kind.status_code == 400 and not PrintJob.objects.exists()
