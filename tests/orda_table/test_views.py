"""Every «Орда» page and action against the role matrix, hostile input, and the fog (the event deck's order)."""
import re

import pytest
from django.urls import reverse

from larp.dice.models import Roll
from larp.orda import dataset
from larp.orda.models import DataSet
from larp.tables.models import Step, Table

ROLES = ("moderator", "player", "other_player", "east_player", "stranger", None)


@pytest.fixture
def users(moderator, player, other_player, east_player, stranger):
    return {"moderator": moderator, "player": player, "other_player": other_player, "east_player": east_player,
            "stranger": stranger, None: None}


def status(client, url, method="get", data=None):
    r = getattr(client, method)(url, data or {})
    return r.status_code


def test_table_pages_follow_the_seats(tiny_game, orda_table, users, client_for):
    g, t = tiny_game.pk, orda_table.pk
    pages = [reverse("orda:table", args=[g, t]), reverse("orda:projector", args=[g, t]),
             reverse("orda:print", args=[g, t, "protocol"]), reverse("orda:print", args=[g, t, "state"]),
             reverse("orda:print", args=[g, t, "factions"])]
    expected = {"moderator": 200, "player": 200, "other_player": 200, "east_player": 403, "stranger": 403}
    for role in ROLES:
        c = client_for(users[role])
        for url in pages:
            code = status(c, url)
            if role is None:
                assert code == 302, url
            else:
                assert code == expected[role], (role, url, code)


def test_moderator_pages_refuse_players(tiny_game, orda_table, orda_data, users, client_for):
    g = tiny_game.pk
    pages = [reverse("orda:new", args=[g]), reverse("orda:data", args=[g]),
             reverse("orda:data_edit", args=[g, orda_data.pk]), reverse("orda:data_board", args=[g, orda_data.pk]),
             reverse("orda:data_export", args=[g, orda_data.pk]),
             reverse("orda:data_print", args=[g, orda_data.pk, "reference"]),
             reverse("orda:data_print", args=[g, orda_data.pk, "board"])]
    for role in ROLES:
        c = client_for(users[role])
        for url in pages:
            code = status(c, url)
            want = 200 if role == "moderator" else (302 if role is None else 403)
            assert code == want, (role, url, code)


def test_actions_follow_the_seats_and_save_nothing_when_refused(tiny_game, orda_table, users, client_for):
    g, t = tiny_game.pk, orda_table.pk
    act = lambda name: reverse("orda:act", args=[g, t, name])  # noqa: E731
    before = Step.objects.count()
    for role in ("other_player", "east_player", "stranger"):
        assert status(client_for(users[role]), act("turn_start"), "post") == 403
    assert status(client_for(None), act("turn_start"), "post") == 302
    for name in ("undo", "override_unit", "override_modifier", "override_end", "cancel"):
        data = {"reason": "хочу", "unit": "nm-raider-1", "damage": 1, "param": "attack", "value": 1,
                "source": "event", "winner": "rus_china"}
        assert status(client_for(users["player"]), act(name), "post", data) == 403, name
    assert Step.objects.count() == before
    assert status(client_for(users["player"]), act("turn_start"), "post") == 302
    assert Step.objects.count() == before + 1


def test_hostile_input_is_refused_in_russian_and_nothing_is_saved(tiny_game, orda_table, users, client_for):
    g, t = tiny_game.pk, orda_table.pk
    c = client_for(users["moderator"])
    c.post(reverse("orda:act", args=[g, t, "turn_start"]))
    before = (Step.objects.count(), Roll.objects.count())
    cases = [("move", {"unit": "rus-ivan_iii", "path": "9,9"}), ("move", {"unit": "rus-ivan_iii", "path": "x"}),
             ("move", {"unit": "nope", "path": "0,-1"}), ("declare", {"attacker": "rus-ivan_iii", "target": "nm-batu_khan"}),
             ("counter", {"counter": "retreat"}), ("attack", {"how": "hand", "die_attacker": 7, "die_defender": 1}),
             ("ability", {"unit": "rus-ivan_iii", "trait": "princes_order", "target": "nm-raider-1", "param": "attack"}),
             ("override_unit", {"unit": "rus-ivan_iii", "damage": 1, "reason": "  "}),
             ("override_modifier", {"unit": "rus-ivan_iii", "param": "health", "value": 1, "source": "event",
                                    "reason": "x"})]
    for name, data in cases:
        r = c.post(reverse("orda:act", args=[g, t, name]), data)
        assert r.status_code == 400, (name, r.status_code)
        text = r.content.decode()
        errors = re.findall(r'<li class="error">(.*?)</li>', text)
        assert errors and all(re.search("[а-яА-Я]", e) for e in errors), (name, errors)
        echoed = {str(v) for v in data.values()}                  # Django quotes a bad choice back
        assert not any(w not in echoed for e in errors for w in re.findall("[a-zA-Z]{3,}", e)), (name, errors)
    assert (Step.objects.count(), Roll.objects.count()) == before
    assert c.post(reverse("orda:act", args=[g, t, "nothing"])).status_code == 404


def test_a_table_of_another_game_or_system_is_404(tiny_game, orda_table, users, client_for, latin_game):
    c = client_for(users["moderator"])
    assert c.get(reverse("orda:table", args=[latin_game.pk, orda_table.pk])).status_code == 404
    Table.objects.filter(pk=orda_table.pk).update(system="tactical")
    assert c.get(reverse("orda:table", args=[tiny_game.pk, orda_table.pk])).status_code == 404


def test_the_deck_order_and_the_seed_never_reach_a_page(tiny_game, orda_table, users, client_for):
    g, t = tiny_game.pk, orda_table.pk
    client_for(users["player"]).post(reverse("orda:act", args=[g, t, "turn_start"]))
    table = Table.objects.get(pk=t)
    pile = table.state["case"]["event"]["draw_pile"]
    assert len(pile) == 23
    deck_dice = [str(v) for v in Roll.objects.filter(ref=f"table-{t}:step-1").values_list("value", flat=True)]
    secret = [" ".join(pile[:4]), "e" + pile[0][1:] + "\\\"", str(table.dice.seed)]
    for role in ("moderator", "player", "other_player"):
        for url in (reverse("orda:table", args=[g, t]), reverse("orda:projector", args=[g, t])):
            page = client_for(users[role]).get(url).content.decode()
            # As a word: a card id like e05 can turn up inside the page's random CSRF token.
            assert not any(re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", page) for card in pile[:2]), (role, url)
            assert str(table.dice.seed) not in page
            assert "draw_pile" not in page
            assert " ".join(deck_dice[:6]) not in page
    # the card in force is shown as its text, never its place in the deck
    page = client_for(users["other_player"]).get(reverse("orda:table", args=[g, t])).content.decode()
    assert "Тестовая карта" in page


def test_a_player_page_has_no_moderator_tools_and_the_fingerprint_is_on_the_moderators(
        tiny_game, orda_table, users, client_for):
    g, t = tiny_game.pk, orda_table.pk
    mod = client_for(users["moderator"]).get(reverse("orda:table", args=[g, t])).content.decode()
    assert orda_table.dice.fingerprint in mod and "Отменить последнее действие" in mod
    proj = client_for(users["moderator"]).get(reverse("orda:projector", args=[g, t])).content.decode()
    assert orda_table.dice.fingerprint in proj
    pl = client_for(users["player"]).get(reverse("orda:table", args=[g, t])).content.decode()
    start_button = 'action="%s"' % reverse("orda:act", args=[g, t, "turn_start"])
    assert "Отменить последнее действие" not in pl and start_button in pl
    other = client_for(users["other_player"]).get(reverse("orda:table", args=[g, t])).content.decode()
    assert start_button not in other and "Ходит: Русь" in other
    for page in (mod, pl, other):
        assert "axe_retainer" not in re.sub(r'(value|href|data-unit)="[^"]*"', "", page)


def test_new_table_through_the_page(tiny_game, orda_data, users, client_for):
    c = client_for(users["moderator"])
    url = reverse("orda:new", args=[tiny_game.pk])
    north, south = tiny_game.factions.get(code="north"), tiny_game.factions.get(code="south")
    data = {"title": "Бой", "data": orda_data.pk, "mode": "skirmish", "players": 2, "rus_china": "china",
            "mongolia": "south_mongolia", "first": "mongolia", "faction_china": north.pk,
            "faction_south_mongolia": south.pk}
    r = c.post(url, data)
    assert r.status_code == 302
    table = Table.objects.get()
    assert table.setup["game"]["order"] == ["south_mongolia", "china"]
    assert [(s.key, s.faction_id) for s in table.sides.all()] == [("south_mongolia", south.pk), ("china", north.pk)]
    blank = DataSet.objects.create(game=tiny_game, title="пусто", data=dataset.blank("пусто"))
    r = c.post(url, {**data, "data": blank.pk})
    assert r.status_code == 400 and "не задано" in r.content.decode()
    assert Table.objects.count() == 1


def test_data_pages_edit_import_and_export(tiny_game, orda_data, users, client_for):
    c = client_for(users["moderator"])
    g = tiny_game.pk
    r = c.post(reverse("orda:data", args=[g]), {"create": "1", "title": "Коробка"})
    ds = DataSet.objects.get(title="Коробка")
    assert r.status_code == 302 and ds.data["stats"]["rus"]["archer"]["health"] is None
    r = c.post(reverse("orda:data_edit", args=[g, ds.pk]), {"stats": "1", "faction": "rus", "archer__health": 2,
                                                            "archer__range": 3})
    ds.refresh_from_db()
    assert r.status_code == 302 and ds.data["stats"]["rus"]["archer"]["health"] == 2
    assert ds.data["stats"]["rus"]["archer"]["range"] == 3
    r = c.post(reverse("orda:data_edit", args=[g, ds.pk]), {"stats": "1", "faction": "rus", "archer__health": 9})
    assert r.status_code == 400
    ds.refresh_from_db()
    assert ds.data["stats"]["rus"]["archer"]["health"] == 2
    r = c.post(reverse("orda:data_board", args=[g, ds.pk]), {"brush": "board", "hex": "0,0"})
    assert r.status_code == 302
    r = c.post(reverse("orda:data_board", args=[g, ds.pk]), {"brush": "blue", "hex": "5,5"})
    assert r.status_code == 400 and "Сначала добавьте" in r.content.decode()
    exported = c.get(reverse("orda:data_export", args=[g, orda_data.pk])).content.decode()
    from django.core.files.uploadedfile import SimpleUploadedFile
    r = c.post(reverse("orda:data", args=[g]), {"import": "1",
                                                "file": SimpleUploadedFile("d.yaml", exported.encode())})
    assert r.status_code == 302
    imported = DataSet.objects.order_by("-pk").first()
    assert imported.data == orda_data.data
    r = c.post(reverse("orda:data", args=[g]), {"import": "1", "file": SimpleUploadedFile("d.yaml", b"board: [[1]]")})
    assert r.status_code == 400 and "гекс" in r.content.decode()


def test_every_action_refuses_those_not_at_the_table(tiny_game, orda_table, users, client_for):
    from larp.orda.acts import ACTS

    g, t = tiny_game.pk, orda_table.pk
    before = (Step.objects.count(), Roll.objects.count())
    data = {"reason": "хочу", "unit": "rus-ivan_iii", "path": "0,-1", "hex": "0,-1", "damage": 1, "param": "attack",
            "value": 1, "source": "event", "winner": "mongolia", "attacker": "rus-ivan_iii",
            "target": "nm-raider-1", "counter": "defence", "how": "server", "trait": "princes_order", "index": 0}
    for name in ACTS.by_name:
        url = reverse("orda:act", args=[g, t, name])
        assert status(client_for(None), url, "post", data) == 302, name
        for role in ("east_player", "stranger"):
            assert status(client_for(users[role]), url, "post", data) == 403, (role, name)
        if name in ("undo", "override_unit", "override_modifier", "override_unmodify", "override_end", "cancel",
                    "turn_start", "turn_end", "move", "declare", "ability"):
            assert status(client_for(users["other_player"]), url, "post", data) == 403, name
        # a GET of an act's address (a reload after a refusal) goes back to the table's page, never a 405
        assert status(client_for(users["player"]), url, "get") == 302, name
    assert (Step.objects.count(), Roll.objects.count()) == before
    assert Table.objects.get(pk=t).status == Table.SETUP
