"""The battles page, the history and the paper for a battle fought at a table (in Russian)."""
import pytest
from django.utils import translation

from larp.battles import services as console
from larp.bridge import services as bridge
from larp.bridge.models import TableBattle
from larp.sheets import selectors as sheets
from larp.sheets.renderers import ProtocolRenderer, TurnResultsRenderer
from larp.tables import services as tables
from larp.turns.models import AuditEntry
from larp.turns.selectors import names as names_of
from larp.turns.audit_text import sentence
from tests.battles.test_console_flow import played  # noqa: F401  (the fixture)
from tests.bridge.test_flow import roll, tactics
from tests.sheets.pdf import pdf_pages, squash


@pytest.fixture(autouse=True)
def russian():
    with translation.override("ru"):
        yield


def page(client, game):
    return client.get(f"/g/{game.pk}/console/battles/").content.decode()


def test_send_over_http_shows_it_at_the_table_then_the_result_to_confirm(played, client_for):  # noqa: F811
    game, mod = played
    tactics(game, mod)
    roll(game, mod, 0)
    c = client_for(mod)
    html = page(c, game)
    assert "Сыграть за столом" in html and "Орда" in html
    r = c.post(f"/g/{game.pk}/console/battles/table/send", {"battle": 2, "system": "orda", "reason": ""})
    assert r.status_code == 400 and TableBattle.objects.count() == 0
    assert "Напишите причину" in r.content.decode()
    r = c.post(f"/g/{game.pk}/console/battles/table/send", {"battle": 3, "system": "orda", "reason": "решающее"})
    assert r.status_code == 409 and "сейчас не ждёт кубиков" in r.content.decode()
    c.post(f"/g/{game.pk}/console/battles/table/send", {"battle": 2, "system": "orda", "reason": "решающее"})
    tb = TableBattle.objects.get()
    html = page(c, game)
    assert "Идёт за столом" in html and tb.table.title in html
    assert "Подтвердить бой" not in html                 # no dice while the table plays
    with tables.locked(tb.table_id) as table:
        tables.finish(table, {"winner": tb.sides["attacker"], "ended_by": "rout",
                              "losses": {tb.sides["attacker"]: {"start": 8, "lost": 2},
                                         tb.sides["defender"]: {"start": 6, "lost": 6}}}, mod)
    html = page(c, game)
    assert "Сражение за столом закончено" in html and "Подтвердить итог" in html
    suggested = bridge.suggestion(TableBattle.objects.get())
    assert f'name="defender_losses" type="number" min="0" required value="{suggested["losses"]["defender"]}"' in html
    c.post(f"/g/{game.pk}/console/battles/table/confirm", {
        "table_battle": tb.pk, "winner": "attacker", "attacker_losses": suggested["losses"]["attacker"],
        "defender_losses": suggested["losses"]["defender"], "reason": ""})
    html = page(c, game)
    assert "сыграно за столом" in html and f"/g/{game.pk}/tables/{tb.table_id}/" in html
    names = names_of(game)
    said = [sentence(e, names) for e in AuditEntry.objects.filter(game=game).order_by("id")]
    assert any("перенесено за стол" in s for s in said) and any("сыграно за столом: победил нападающий" in s
                                                                  for s in said)
    # The history of the turn, the battle protocol and the turn results say it was fought at the table.
    turn = tb.turn
    history = c.get(f"/g/{game.pk}/history/{turn.number}/").content.decode()
    assert "сыграно за столом" in history and "потеряно за столом: 2/8 : 6/6" in history
    protocol = squash("\n".join(pdf_pages(ProtocolRenderer(sheets.turn_protocols(game, turn.number, 2))
                                          .generate()[2])))
    assert "Сражение № 2 за столом" in protocol and "Сыграно за столом" in protocol and "Орда" in protocol
    results = squash("\n".join(pdf_pages(TurnResultsRenderer(sheets.turn_results(game, turn.number))
                                         .generate()[2])))
    assert "сыграно за столом" in results and "потеряно там 2/8 : 6/6" in results


def test_the_phase_does_not_advance_past_a_battle_at_the_table(played, client_for):  # noqa: F811
    game, mod = played
    tactics(game, mod)
    roll(game, mod, 0)
    bridge.send_to_table(game, mod, 2, "tactical", "решающее")
    c = client_for(mod)
    from larp.turns.services import current_phase
    phase = current_phase(game)
    r = c.post(f"/g/{game.pk}/control/next", {"phase": phase.pk})
    assert r.status_code == 409 and "идёт за столом" in r.content.decode()
    assert current_phase(game).pk == phase.pk
    with pytest.raises(console.ConsoleError, match="идёт за столом"):
        console.server_roll(game, mod, 2)
