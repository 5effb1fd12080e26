"""Every URL of the project (from the resolver, so new ones are covered automatically) against every role.

Each named pattern gets a policy. A pattern not listed is taken to be for the
game's moderators only, so a new page that forgets its access check fails
here until someone decides who may use it. For each URL, GET and POST:
- anonymous: 302 to the login page (or 403/404/405), never the page;
- a user with no part in the game, another faction's player, and a tablet
  whose join code was revoked: refused (403/404/405, or signed out: 302 to
  login) wherever they have no right, and where they may look, never a
  word of the north faction's secrets;
- and nothing is written by a refused request.
Every POST without a CSRF token is refused (403), whoever sends it.
"""
import json

import pytest
from django.conf import settings
from django.contrib.admin.sites import site as admin_site
from django.test import Client
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, resolve, reverse

from larp.campaign.models import Membership
from larp.campaign.services.members import create_player
from larp.forces.models import Commander, TroopCard, TroopType
from larp.orders.models import Order, OrderEvent
from larp.orders.services import file_order
from larp.dice.models import Roll
from larp.tables import services as tables
from larp.tables.models import Step
from larp.tablet import services as tablet
from larp.tablet.models import JoinToken, SpyReport
from larp.turns import services as turns
from larp.turns.models import AuditEntry

PUBLIC = {"healthz", "login", "logout", "set_language", "turns:clock", "turns:clock_stream", "tablet:join"}
AUTHENTICATED = {"home"}                       # any signed-in user: their own list of games
MEMBER = {"tablet:map", "tablet:map_svg",   # anyone with a role in the game (positions, no stack contents)
          "tablet:history", "tablet:replay",  # ... finished turns replayed as the hall saw them (no contents)
          "tables:list",                     # ... the tables they sit at (a moderator: all)
          "dice:verify",                     # ... the dice check: the war and the tables they may open
          "dice:contribute"}                 # ... the dice's contributions (adding one: a player at those dice)
FACTION = {"tablet:faction", "tablet:file_order", "orders:file", "orders:withdraw", "orders:faction_orders"}
# Everything else: the game's moderators only. A table's pages (a `table_id` in the URL) also let the
# players of its sides in: the world's table is north against east, so the other faction (south) is refused.

NORTH_SECRET_TROOP = "Северная тайная гвардия"
NORTH_SECRET_COMMANDER = "Ярополк Тайный"
ACTIONS = {"battles:control": "pause", "battles:battle_action": "confirm", "battles:regroup_action": "apply",
           "bridge:act": "send",
           "sheets:request_kind": "battle_sheet"}


def patterns(resolver=None, prefix="", namespace=""):
    """(name with namespaces, kwarg names) of every named pattern, admin excluded."""
    resolver = resolver or get_resolver()
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            if p.app_name == admin_site.name or (p.namespace or "") == "admin":
                continue
            ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
            yield from patterns(p, prefix + str(p.pattern), ns)
        elif isinstance(p, URLPattern) and p.name:
            yield namespace + p.name, tuple(_kwargs_of(prefix + str(p.pattern)))


def _kwargs_of(route: str) -> list[str]:
    import re

    return re.findall(r"<(?:\w+:)?(\w+)>", route)


ALL = sorted(set(patterns()))


def policy(name: str) -> str:
    if name in PUBLIC:
        return "public"
    if name in AUTHENTICATED:
        return "authenticated"
    if name in MEMBER:
        return "member"
    if name in FACTION:
        return "faction"
    return "moderator"


@pytest.fixture
def world(tiny_game, moderator, player, other_player, stranger):
    """A started game; north has secrets (a troop type, a commander) and an order; a revoked tablet."""
    game = tiny_game
    army = game.armies.get(faction__code="north", number=1)
    guard = TroopType.objects.create(game=game, code="north_guard", name_ru=NORTH_SECRET_TROOP,
                                     name_en="North Secret Guard", domain="land", power=6, men=2000)
    TroopCard.objects.create(game=game, troop_type=guard, army=army)
    Commander.objects.create(game=game, faction=army.faction, army=army, name_ru=NORTH_SECRET_COMMANDER,
                             name_en="Yaropolk", power=1)
    turns.start_game(game, moderator)
    file_order(player, game, "north-1", {"type": "march", "path": ["northfield"]})
    # A table of a further system where north plays east (south, the other faction, is not at it).
    from larp.ordonnance import services as ordonnance

    deck = ordonnance.save_deck(game, moderator, "Колода для тестов", [{"symbols": ["flag"], "count": 12}],
                                made_for_tests=True)
    ord_table = ordonnance.create(game, moderator, title="Спор", sides=[
        ("p1", "Север", game.factions.get(code="north")), ("p2", "Восток", game.factions.get(code="east"))],
        mode="virtual", deck=deck, territory_names=None, announce="territories")

    lost, _ = create_player(game.factions.get(code="north"), "north-lost-tablet")
    code = tablet.issue_code(moderator, game, lost)
    revoked = Client()
    assert revoked.get(reverse("tablet:join", args=[tablet.link(code)])).status_code == 302
    assert revoked.get(reverse("tablet:faction", args=[game.pk, "north"])).status_code == 200
    tablet.revoke_code(moderator, code)
    own_code = tablet.issue_code(moderator, game, player)
    # Each system's pages get a table of their own system (a table of another system is a 404 there).
    north_east = [("north", "Север", game.factions.get(code="north")), ("east", "Восток", game.factions.get(code="east"))]
    table = tables.create_table(game, "red-plains", "Стол севера", north_east, moderator)
    by_system = {"redplains": table.pk, "ordonnance": ord_table.pk,
                 "tactical": tables.create_table(game, "tactical", "Стол севера 2", north_east, moderator).pk,
                 "orda": tables.create_table(game, "orda", "Стол севера 3", north_east, moderator).pk}

    def signed_in(user):
        c = Client()
        c.force_login(user)
        return c

    return {
        "game": game, "code": own_code,
        "sample": {"game_id": game.pk, "faction": "north", "unit": "north-1", "user_id": player.pk,
                   "token_id": own_code.pk, "token": tablet.link(own_code), "number": 1, "job_id": 1,
                   "table_id": table.pk, "deck_id": deck.pk, "tables": by_system},
        "clients": {"anonymous": Client(), "stranger": signed_in(stranger), "other_faction": signed_in(other_player),
                    "revoked_tablet": revoked},
        "moderator": signed_in(moderator),
    }


def url_for(name, kwargs, sample):
    """The URL with the world's sample values; a parameter the world has no sample for gets 1, else "x"."""
    known = {k: ACTIONS.get(name, "x") if k in ("action", "kind") else sample[k] for k in kwargs
             if k in ("action", "kind") or k in sample}
    if "table_id" in known:
        known["table_id"] = sample["tables"].get(name.split(":")[0], sample["table_id"])
    unknown = [k for k in kwargs if k not in known]
    for filler in (1, "x"):
        try:
            return reverse(name, kwargs={**known, **{k: filler for k in unknown}})
        except NoReverseMatch:
            if not unknown:
                raise
    raise NoReverseMatch(name)


def state():
    return (Order.objects.count(), OrderEvent.objects.count(), AuditEntry.objects.count(),
            JoinToken.objects.filter(revoked_at__isnull=True).count(), Membership.objects.count(),
            SpyReport.objects.count(), Step.objects.count(), Roll.objects.count(), list(Order.objects.values_list("payload", flat=True).order_by("id")))


def test_every_url_is_covered():
    names = {n for n, _k in ALL}
    assert {"orders:file", "battles:console", "tablet:faction", "battles:regroup_action"} <= names
    assert not any(n.startswith("admin:") for n in names)


@pytest.mark.parametrize("who", ["anonymous", "stranger", "other_faction", "revoked_tablet"])
def test_roles_without_rights_are_refused_everywhere(world, who):
    client, sample = world["clients"][who], world["sample"]
    before = state()
    login = reverse(settings.LOGIN_URL)
    checked = 0
    for name, kwargs in ALL:
        rule = policy(name)
        if rule == "public":
            continue
        allowed = (rule == "authenticated" and who in ("stranger", "other_faction")) or \
                  (rule == "member" and who == "other_faction")
        url = url_for(name, kwargs, sample)
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            status = response.status_code
            assert status < 500, f"{who} {method.upper()} {url}: {status}"
            if allowed:
                if status == 200:
                    text = response.content.decode()
                    assert NORTH_SECRET_TROOP not in text and NORTH_SECRET_COMMANDER not in text, \
                        f"{who} sees north's secrets at {url}"
                continue
            if status == 302:
                assert response["Location"].startswith(login), \
                    f"{who} {method.upper()} {url}: redirected to {response['Location']}, not to login"
                assert who in ("anonymous", "revoked_tablet"), f"{who} {method.upper()} {url}: 302"
            else:
                assert status in (403, 404, 405), f"{who} {method.upper()} {url}: {status} ({rule})"
            checked += 1
    assert checked > 40
    assert state() == before, f"{who}: a refused request changed something"


def test_other_faction_gets_nothing_of_north_through_json(world):
    spy = world["clients"]["other_faction"]
    game = world["game"]
    assert spy.get(reverse("orders:faction_orders", args=[game.pk, "north"])).status_code == 403
    own = spy.get(reverse("orders:faction_orders", args=[game.pk, "south"])).json()
    assert all(o["unit"].startswith("south-") for o in own["orders"])  # north's march stays secret (R3)
    response = spy.post(reverse("orders:file", args=[game.pk, "north-1"]), json.dumps({"type": "hold"}),
                        content_type="application/json")
    assert response.status_code == 403 and "фракци" in response.json()["message"]


def test_public_urls_leak_nothing(world):
    anon = Client()
    game = world["game"]
    clock = anon.get(reverse("turns:clock", args=[game.pk]))
    assert clock.status_code == 200 and set(clock.json()) >= {"phase", "remaining"}
    assert NORTH_SECRET_COMMANDER not in clock.content.decode()
    stream = anon.get(reverse("turns:clock_stream", args=[game.pk]))   # the same clock, pushed
    try:
        events = iter(stream.streaming_content)
        first = next(events).decode() + next(events).decode()          # the retry line, then the clock now
    finally:
        stream.close()                                                   # its slot back to the web worker
    assert stream.status_code == 200 and '"phase"' in first and NORTH_SECRET_COMMANDER not in first
    assert anon.get(reverse("healthz")).json() == {"ok": True}


def test_revoked_tablet_is_signed_out_and_the_moderator_keeps_everything(world):
    revoked = world["clients"]["revoked_tablet"]
    game = world["game"]
    response = revoked.get(reverse("tablet:faction", args=[game.pk, "north"]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert "_auth_user_id" not in revoked.session
    assert world["moderator"].get(reverse("battles:console", args=[game.pk])).status_code == 200


def test_a_new_code_signs_out_the_tablet_that_used_the_old_one(world, moderator, player):
    game = world["game"]
    c = Client()
    assert c.get(reverse("tablet:join", args=[tablet.link(world["code"])])).status_code == 302
    assert c.get(reverse("tablet:faction", args=[game.pk, "north"])).status_code == 200
    tablet.issue_code(moderator, game, player)  # the printed code was lost: a new one revokes the old
    assert c.get(reverse("tablet:faction", args=[game.pk, "north"])).status_code == 302


@pytest.mark.parametrize("who", ["moderator", "player", "anonymous"])
def test_every_post_is_refused_without_a_csrf_token(world, who, player, moderator):
    client = Client(enforce_csrf_checks=True)
    if who == "moderator":
        client.force_login(moderator)
    elif who == "player":
        client.force_login(player)
    before = state()
    for name, kwargs in ALL:
        url = url_for(name, kwargs, world["sample"])
        response = client.post(url, {"type": "hold", "reason": "csrf", "battle": 1})
        assert response.status_code == 403, f"{who}: POST {url} without CSRF: {response.status_code}"
        assert resolve(url)  # the URL exists: the refusal is the CSRF check, not a missing page
        # In the user's language, saying that nothing was saved (Django's own page is English only).
        assert "Ничего не сохранено" in response.content.decode(), f"{who}: POST {url}: not the game's page"
    assert state() == before


def test_csrf_refusal_speaks_english_to_an_english_tablet(world):
    client = Client(enforce_csrf_checks=True)
    client.cookies["django_language"] = "en"
    name, kwargs = next((n, k) for n, k in ALL if n.startswith("orders:"))
    response = client.post(url_for(name, kwargs, world["sample"]), {"type": "hold"})
    assert response.status_code == 403
    assert "Nothing was saved" in response.content.decode()


def test_the_dice_page_shows_a_player_only_the_tables_they_sit_at(world, player):
    """South sits at no table: the dice check names none (a title tells who fights whom), and the contributions
    of a table are not theirs to read; north, at all four, sees each."""
    game = world["game"]
    titles = ["Стол севера", "Спор"]
    south = world["clients"]["other_faction"]
    page = reverse("dice:verify", args=[game.pk])
    body = south.get(page).content.decode()
    assert 'data-stream="game"' in body
    assert not any(title in body for title in titles) and 'data-stream="table-' not in body
    assert "Орда" not in body and "Ордонанс" not in body
    label = f"table-{world['sample']['table_id']}"
    contribute = reverse("dice:contribute", args=[game.pk])
    assert south.get(contribute, {"stream": label}).status_code == 404
    assert south.post(contribute, {"stream": label, "value": "ab" * 32}).status_code == 404
    north = Client()
    north.force_login(player)
    seen = north.get(page).content.decode()
    assert all(title in seen for title in titles) and seen.count('data-stream="table-') == 4
    assert world["moderator"].get(page).content.decode().count('data-stream="table-') == 4


def test_each_systems_seat_page_carries_the_dice_widget_for_its_player(world, player):
    """A seat's tablet adds its randomness to the table's dice (docs/dice.md): one include on each system's page."""
    north = Client()
    north.force_login(player)
    game, by_system = world["game"], world["sample"]["tables"]
    shown = []
    for system in ("ordonnance", "tactical"):  # the world's other tables are bare (no armies): not shown yet
        table_id = by_system[system]
        response = north.get(reverse(f"{system}:table", args=[game.pk, table_id]))
        assert response.status_code == 200, system
        assert f'data-stream="table-{table_id}"' in response.content.decode(), system
        shown.append(system)
        moderator_page = world["moderator"].get(reverse(f"{system}:table", args=[game.pk, table_id]))
        assert "data-dice-contribute" not in moderator_page.content.decode(), system
    assert len(shown) >= 2, shown
