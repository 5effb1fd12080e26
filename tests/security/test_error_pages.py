"""Error pages speak the user's language and come from the game's own templates (DEBUG off)."""
import pytest
from django.test import Client


@pytest.mark.urls("tests.security.error_urls")
def test_a_server_error_shows_the_games_page_in_russian(settings):
    settings.DEBUG = False
    response = Client(raise_request_exception=False).get("/broken-for-test")
    assert response.status_code == 500
    text = response.content.decode()
    assert "позовите модератора" in text and 'lang="ru"' in text
    assert "a bug" not in text and "Traceback" not in text  # nothing of the code leaks to a player


@pytest.mark.urls("tests.security.error_urls")
def test_a_server_error_in_english(settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    client.cookies["django_language"] = "en"
    text = client.get("/broken-for-test").content.decode()
    assert "call a moderator" in text and 'lang="en"' in text


@pytest.mark.django_db
def test_the_not_found_page_keeps_its_text_and_way_back():
    text = Client().get("/no-such-page-here").content.decode()
    assert "Такой страницы нет" in text
    assert 'href="/"' in text and "На главную" in text
