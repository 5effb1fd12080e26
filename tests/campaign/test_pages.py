"""Plain pages: sign-in, home, language switch, health check."""
from django.urls import reverse


def test_home_needs_sign_in(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_login_page_is_russian_by_default(client, db):
    page = client.get(reverse("login")).content.decode()
    assert "Войти" in page and 'lang="ru"' in page


def test_language_switch_to_english(client, db):
    response = client.post(reverse("set_language"), {"language": "en", "next": reverse("login")})
    assert response.status_code == 302
    page = client.get(reverse("login")).content.decode()
    assert "Sign in" in page and 'lang="en"' in page


def test_wrong_password_says_so_in_russian(client, player):
    page = client.post(reverse("login"), {"username": "north-player", "password": "nope"}).content.decode()
    assert "Неверный логин или пароль" in page


def test_home_leads_each_role_to_its_pages(client_for, tiny_game, player, moderator):
    page = client_for(player).get(reverse("home")).content.decode()
    assert "Север" in page and reverse("tablet:faction", args=[tiny_game.pk, "north"]) in page
    assert reverse("battles:console", args=[tiny_game.pk]) not in page
    page = client_for(moderator).get(reverse("home")).content.decode()
    assert "Править в админке" in page and reverse("battles:console", args=[tiny_game.pk]) in page


def test_logout_needs_post_and_csrf(client, player):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post(reverse("logout")).status_code == 403


def test_healthz(client, db):
    assert client.get(reverse("healthz")).json() == {"ok": True}
