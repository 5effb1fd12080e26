"""A refused request is one line in the log; browsers' /favicon.ico finds the game's icon."""
import logging

from django.test import Client
from django.urls import reverse


def test_a_403_logs_one_line_without_a_traceback(tiny_game, player, caplog):
    c = Client()
    c.force_login(player)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = c.get(reverse("battles:movement", args=[tiny_game.pk]))
    assert response.status_code == 403
    refused = [r for r in caplog.records if getattr(r, "status_code", None) == 403]
    assert len(refused) == 1
    record = refused[0]
    assert record.exc_info is None and record.exc_text is None
    line = logging.Formatter().format(record)
    assert "\n" not in line and "Traceback" not in line
    assert f"/g/{tiny_game.pk}/console/movement/" in line


def test_favicon_is_not_a_404(db):
    from django.contrib.staticfiles import finders

    response = Client().get("/favicon.ico")
    assert response.status_code == 302 and response["Location"].endswith("img/favicon.svg")
    icon = finders.find("img/favicon.svg")
    assert icon and "<svg" in open(icon, encoding="utf-8").read()
