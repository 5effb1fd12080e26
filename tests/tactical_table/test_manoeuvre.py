"""Strategic manoeuvring (T30–T32) through the pages: cards, corps, marches with hand and server dice, the night
halt, the battle offer and the chosen field whose terrain and weather become the battle's; fog on the map."""
import pytest

from larp.dice.models import Roll
from larp.tables.models import Step
from larp.tactical import services

from .conftest import url

ROLES = {"moderator": 200, "player": 200, "other_player": 200, "east_player": 403, "stranger": 403, None: 302}


@pytest.mark.parametrize("role", list(ROLES))
def test_the_map_page_role_matrix(request, table, client_for, role):
    user = None if role is None else request.getfixturevalue(role)
    assert client_for(user).get(url(table, "manoeuvre")).status_code == ROLES[role]
    r = client_for(user).post(url(table, "manoeuvre_act", "corps"), {"name": "X", "side": "north", "cell": "A1"})
    assert r.status_code == (302 if role in ("moderator", None) else 403)
    assert Step.objects.filter(table=table).count() == (1 if role == "moderator" else 0)


def test_a_manoeuvre_to_the_battlefield(table, moderator, player, other_player, client_for):
    mod = client_for(moderator)
    go = lambda op, data: mod.post(url(table, "manoeuvre_act", op), data)  # noqa: E731
    assert go("cell", {"cell": "A3", "card": "forest"}).status_code == 302
    assert go("cell", {"cell": "B3", "card": "hill"}).status_code == 302
    assert go("weather", {"weather": ["rain"]}).status_code == 302
    assert go("corps", {"name": "Парменион", "side": "north", "cell": ""}).status_code == 302
    assert go("corps", {"name": "Бодуэн", "side": "south", "cell": "B3"}).status_code == 302
    table.refresh_from_db()
    corps = {c["name"]: c["id"] for c in table.state["strategic"]["corps"]}
    # rain: +1 per card; A5 then A4 cost 2 + 2 = 4; a 6 typed in arrives
    r = go("march", {"corps": corps["Парменион"], "steps": "A5 A4", "hand_dice": "6"})
    assert r.status_code == 302
    table.refresh_from_db()
    north = next(c for c in table.state["strategic"]["corps"] if c["name"] == "Парменион")
    assert north["cell"] == [3, 0] and not north["tired"]
    # fog: south sees only its own corps on the map while the two are not in contact
    page = client_for(other_player).get(url(table, "manoeuvre")).content.decode()
    assert "Бодуэн" in page and "Парменион" not in page
    # no die and no server: the page asks for it, nothing saved
    r = go("march", {"corps": corps["Парменион"], "steps": "A3"})
    assert r.status_code == 400 and "Переходу нужен свой кубик" in r.content.decode()
    # into the forest with the server's die
    assert go("march", {"corps": corps["Парменион"], "steps": "A3", "server_rest": "on"}).status_code == 302
    step = table.steps.filter(kind="march").order_by("-seq").first()
    assert Roll.objects.filter(stream=table.dice, ref=step.ref, source=Roll.SERVER).count() == 1
    table.refresh_from_db()
    north = next(c for c in table.state["strategic"]["corps"] if c["name"] == "Парменион")
    if north["tired"]:
        assert go("halt", {}).status_code == 302
        table.refresh_from_db()
        assert not any(c["tired"] for c in table.state["strategic"]["corps"])
        assert go("march", {"corps": corps["Парменион"], "steps": "A3", "hand_dice": "6"}).status_code == 302
    # on A3, next to B3: in contact (T32.1), so south sees the corps, not whether it is tired
    page = client_for(other_player).get(url(table, "manoeuvre")).content.decode()
    assert "Парменион (Север) — в соприкосновении" in page
    assert go("offer", {"side": "north"}).status_code == 302
    table.refresh_from_db()
    assert table.state["strategic"]["offer"]["contacts"]
    assert go("field", {"index": "0"}).status_code == 302
    assert go("field", {"index": "9"}).status_code == 400
    table.refresh_from_db()
    assert "forest" in table.state["terrain"] and table.state["conditions"]["rain"] is True
    assert table.state == services.replay_table(table)


def test_hostile_map_input(table, moderator, client_for):
    mod = client_for(moderator)
    for op, data in (("cell", {"cell": "Z9", "card": "forest"}), ("cell", {"cell": "A1", "card": "dragon"}),
                     ("march", {"corps": "nope", "steps": "A1"}), ("offer", {"side": "north"}),
                     ("field", {"index": "0"})):
        r = mod.post(url(table, "manoeuvre_act", op), data)
        assert r.status_code == 400, (op, data)
    assert mod.post(url(table, "manoeuvre_act", "bogus"), {}).status_code == 400
    assert not Step.objects.filter(table=table).exists()
