"""The dice pages: the fingerprint everywhere from the start, the seed nowhere before the reveal (pages and
paper), the reveal (moderators only, audited), and the check any member of the game can open."""
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from larp.campaign.models import AuditEntry
from larp.campaign.services.members import create_player
from larp.dice.models import Roll, Stream, fingerprint
from larp.engine.dice import turn_seed
from larp.rules.dice import die
from larp.sheets import selectors as sheets
from larp.sheets.renderers.battle_sheet import BattleSheetRenderer
from larp.sheets.renderers.order_form import OrderFormRenderer
from larp.sheets.renderers.protocol import ProtocolRenderer
from larp.sheets.renderers.turn_results import TurnResultsRenderer
from larp.tables import services as tables
from larp.turns.models import TurnSettings

from tests.battles.test_console_flow import played  # noqa: F401  (the fixture)
from tests.sheets.pdf import pdf_pages, squash

from .conftest import SECRET, TABLE_SECRET
from .test_war_dice import fight


@pytest.fixture
def game_at_play(played, client_for):  # noqa: F811
    """Battles fought with server dice (one re-rolled, one by hand) and a table with server dice and an undo."""
    game, mod = played
    fight(game, mod, reroll_first=True, hand_battle=2)
    table = tables.create_table(game, "orda", "Бой у брода", [("a", "Эпир", game.factions.get(code="epirus")),
                                                              ("b", "Фессалоники", None)], mod, seed=TABLE_SECRET)
    for n, undo in ((3, False), (2, True), (4, False)):
        with tables.locked(table.pk) as t:
            seq = tables.next_seq(t)
            values = tables.take_dice(t, seq, count=n, purpose="схватка", user=mod)
            tables.record(t, "melee", mod, seq=seq, payload={"dice": values}, summary="схватка")
        if undo:
            with tables.locked(table.pk) as t:
                tables.undo_last(t, mod, "не тот отряд")
    with tables.locked(table.pk) as t:
        seq = tables.next_seq(t)
        tables.take_dice(t, seq, hand=[6, 1], user=mod)
        tables.record(t, "melee", mod, seq=seq, summary="вручную")
    player, _ = create_player(game.factions.get(code="epirus"), "epirus-reader")
    return game, mod, table, player


def secrets_of(game, table):
    return [str(SECRET), str(turn_seed(SECRET, 1)), str(TABLE_SECRET)]


def pages(game, table):
    epirus = game.factions.get(code="epirus").code
    return [reverse("battles:console", args=[game.pk]), reverse("battles:battles", args=[game.pk]),
            reverse("battles:movement", args=[game.pk]), reverse("battles:regroup", args=[game.pk]),
            reverse("battles:projector", args=[game.pk]), reverse("battles:history", args=[game.pk]),
            reverse("battles:history_turn", args=[game.pk, 1]), reverse("turns:audit", args=[game.pk]),
            reverse("tables:list", args=[game.pk]), reverse("tablet:faction", args=[game.pk, epirus]),
            reverse("tablet:map", args=[game.pk]), reverse("dice:verify", args=[game.pk]),
            reverse("sheets:index", args=[game.pk]),
            f"/admin/campaign/game/{game.pk}/change/", "/admin/turns/turnsettings/",
            f"/admin/turns/turnsettings/{TurnSettings.objects.get(game=game).pk}/change/",
            "/admin/campaign/auditentry/",
            *[f"/admin/campaign/auditentry/{e.pk}/change/" for e in AuditEntry.objects.filter(game=game, action="draw")]]


def papers(game):
    docs = [ProtocolRenderer(sheets.turn_protocols(game, 1)), TurnResultsRenderer(sheets.turn_results(game, 1)),
            BattleSheetRenderer(sheets.battle_sheets(game)), OrderFormRenderer(sheets.order_forms(game))]
    return [squash(" ".join(pdf_pages(d.generate()[2]))) for d in docs]


def test_no_page_or_paper_shows_a_seed_before_the_reveal(game_at_play, client_for):
    game, mod, table, player = game_at_play
    admin = get_user_model().objects.create_superuser("root", password="root-password-1")
    secrets = secrets_of(game, table)
    seen = set()
    for user in (mod, admin, player):
        c = client_for(user)
        for url in pages(game, table):
            response = c.get(url)
            if response.status_code != 200:
                continue
            seen.add(url)
            body = response.content.decode()
            for secret in secrets:
                assert secret not in body, (url, user.username)
    assert seen == set(pages(game, table))  # every page was read by someone
    c = client_for(mod)
    for url in (reverse("battles:console", args=[game.pk]), reverse("battles:projector", args=[game.pk])):
        assert fingerprint(SECRET) in c.get(url).content.decode(), url
    protocols, results, *others = papers(game)
    for text in (protocols, results, *others):
        assert not any(secret in text for secret in secrets)
    # The first printed protocol and the turn results carry the commitment, and say where each battle's dice came from.
    assert fingerprint(SECRET) in protocols and fingerprint(SECRET) in results
    assert "Кубики: бросил сервер, кубики хода №" in protocols and "Кубики: брошены вручную за столом" in protocols
    assert "Кубики: бросил сервер, кубики хода №" in results and "Кубики: брошены вручную за столом" in results
    # The positive control: after the reveal the check page shows the seed (so the test above can fail).
    Stream.objects.filter(game=game).update(revealed_at="2026-11-23T23:00:00Z")
    assert str(SECRET) in client_for(player).get(reverse("dice:verify", args=[game.pk])).content.decode()


def test_the_protocol_prints_each_server_battles_counters(game_at_play):
    game, _mod, _table, _player = game_at_play
    protocols = sheets.turn_protocols(game, 1)
    first = protocols[0]["dice_note"]
    roll = game.turns.get(number=1).resolution.rolls.filter(battle_no=1).order_by("id").last()
    assert first == f"Кубики: бросил сервер, кубики хода № {roll.counters[0] + 1}–{roll.counters[1] + 1} в записи бросков"
    assert protocols[1]["dice_note"] == "Кубики: брошены вручную за столом"


def test_only_a_moderator_reveals_and_the_reveal_is_audited(game_at_play, client_for, stranger):
    game, mod, table, player = game_at_play
    url = reverse("dice:reveal", args=[game.pk])
    assert client_for(player).post(url, {"stream": "game"}).status_code == 403
    assert client_for(stranger).get(reverse("dice:verify", args=[game.pk])).status_code == 403
    assert not Stream.objects.filter(game=game, revealed_at__isnull=False).exists()
    c = client_for(mod)
    assert c.post(url, {"stream": "turn-1"}).status_code == 404  # a turn's stream is revealed with the war
    assert c.post(url, {}).status_code == 400
    assert c.post(url, {"stream": f"table-{table.pk}"}).status_code == 302
    assert AuditEntry.objects.filter(game=game, action="dice_revealed", detail__stream=f"table-{table.pk}").exists()
    assert Stream.objects.get(pk=table.dice_id).revealed and not Stream.objects.get(game=game, label="game").revealed
    assert c.post(url, {"stream": "game"}).status_code == 302
    assert c.post(url, {"stream": "game"}).status_code == 302  # a second press reveals nothing more
    assert AuditEntry.objects.filter(game=game, action="dice_revealed").count() == 2
    assert Stream.objects.get(game=game, label="turn-1").revealed


def test_a_player_checks_every_stream_after_the_reveal(game_at_play, client_for):
    game, mod, table, player = game_at_play
    page = reverse("dice:verify", args=[game.pk])
    before = client_for(player).get(page).content.decode()
    assert "проверить можно после раскрытия" in before and fingerprint(TABLE_SECRET) in before
    assert "Раскрыть зерно" not in before  # the button is the moderators'
    c = client_for(mod)
    assert "Раскрыть зерно" in c.get(page).content.decode()
    c.post(reverse("dice:reveal", args=[game.pk]), {"stream": "game"})
    c.post(reverse("dice:reveal", args=[game.pk]), {"stream": f"table-{table.pk}"})
    body = client_for(player).get(page).content.decode()
    assert body.count("всё сходится") == 3  # the war, the draw, the table
    assert "не сходится" not in body
    # The table's undone step: its dice are on the record, discarded, and still checked.
    discarded = Roll.objects.filter(stream=table.dice, status=Roll.DISCARDED)
    assert discarded.count() == 2 and all("не тот отряд" in r.reason for r in discarded)
    # Tampering with one of them is named with its step and counter.
    r = discarded.order_by("counter").first()
    Roll.objects.filter(pk=r.pk).update(value=r.value % 6 + 1)
    body = client_for(player).get(page).content.decode()
    assert f"шаг 2, счётчик {r.counter}: в записи {r.value % 6 + 1}, пересчёт даёт {die(TABLE_SECRET, r.counter)}" \
        in body
