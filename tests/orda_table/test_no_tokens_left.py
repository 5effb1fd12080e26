"""A faction with no token left (every one dead, O5: the reserve is never renewed) is not asked to click through
every tour: the table plays its turn for it on the record — «Start of the turn» and «Results of the turn» as two
steps, the tour's event card drawn and discarded as always — and the stored state stays the engine's replay. Here a
battle of the war (docs/bridge.md): the attacker wipes out the defender's tokens and then besieges its capital for
many tours, each of them without a click from the defender's side. Numbers: the data set MADE UP FOR THE TESTS."""
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from larp.orda import labels, selectors
from larp.orda import services as orda
from larp.orda import situation as sit
from larp.tables import services as tables
from larp.tables.access import Seat
from larp.tables.models import Table
from tests.bridge.test_flow import played  # noqa: F401
from tests.bridge.test_orda import send
from tests.orda_table.data import complete_data
from tests.orda_table.test_past_the_deck import Play, attack_everything


@pytest.fixture(autouse=True)
def russian():
    with translation.override("ru"):
        yield


def test_a_faction_with_no_token_left_has_its_turns_played_for_it(played):  # noqa: F811
    game, mod = played
    data = complete_data()
    data["durability"]["capital"] = 8                    # a long siege: several tours after the last token fell
    orda.create_dataset(game, "Тестовый набор (выдуманные числа)", mod, data)
    tb, _rolls = send(game, mod)
    table = Table.objects.get(pk=tb.table_id)
    play = Play.__new__(Play)
    play.table = table
    play.mod = (mod, Seat(table, True, None))
    play.side = {"north_mongolia": play.mod, "rus": play.mod}
    play.until(80, fight=lambda p, f: attack_everything(p, f) if f == "north_mongolia" else None)
    table = play.table
    assert table.status == Table.FINISHED, play.state["case"]["game"]
    assert table.result["ended_by"] == "cities_destroyed" and table.result["winner"] == "north_mongolia"

    live = tables.live_steps(table)
    assert sit.replay(table.setup, [(s.kind, s.payload) for s in live]) == table.state
    last_death = max(s.seq for s in live if s.kind == "attack" and s.outcome.get("target", {}).get("killed")
                     and s.outcome["target"]["id"].startswith("rus"))
    after = [s for s in live if s.seq > last_death and s.side == "rus"]
    # Every turn of Rus's after its last token fell was played for it: no one pressed anything for Rus.
    assert after and all(s.payload.get("skipped") and s.kind in ("turn_start", "turn_end") for s in after)
    assert len([s for s in after if s.kind == "turn_start"]) >= 2
    # The log says so, in the war's names (the defender's side is the war's faction, not «Русь»).
    rus_name = table.sides.get(key="rus").name
    with labels.speaking_for(table):
        log = selectors.log(table, table.state["case"])
    said = [e["text"] for e in log if e["seq"] in {s.seq for s in after if s.kind == "turn_start"}]
    assert said and all(text.startswith(f"{rus_name}: жетонов не осталось, ход фракции в туре") for text in said), said
    c = Client()
    c.force_login(mod)
    page = c.get(reverse("orda:table", args=[game.pk, table.pk])).content.decode()
    assert "Северная Монголия" not in page and "Русь" not in page

