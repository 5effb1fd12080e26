"""What the tests of kept boards share: a faction's board fragment as a tablet asks for it, and a board without
what differs per request (its CSRF token and form key)."""
import re

from django.urls import reverse

HTMX = {"HTTP_HX_REQUEST": "true"}


def untokened(html: str) -> str:
    return re.sub(r'value="[^"]{16,}"', "", html)


def board(client, game, faction: str) -> str:
    response = client.get(reverse("tablet:faction", args=[game.pk, faction]), **HTMX)
    assert response.status_code == 200
    return response.content.decode()
