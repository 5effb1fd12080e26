"""One battle of the demo game's turn sent from the console to a «Тактические правила» table and played in the
table's pages, its result confirmed back into the turn (docs/bridge.md, docs/tactical-rules.md "Table").

The demo game is the default scenario: Rum and Cilicia both march on Attalia. The moderator sends the battle
awaiting its dice to a tactical table from the battles page, with a reason, and opens the table from its link
there. The suggested armies (one unit per troop card, the commanders as generals) stand on the page in words;
Rum's player sees his own on a tablet and nothing of Cilicia's. The moderator approves both armies and starts the
battle, resolves a clash with the dice rolled at the table and typed on the dice buttons (the charge fails and
the units are locked in a melee), then the melee with the server's dice, and ends the battle by his act: the
attacker concedes the field. Back in the console the suggested losses (the power × the share of
the figures lost, rounded half up) are confirmed, the turn's other battles rolled on the page, the regroup
applied, and the state and the map equal `adjudicate turn` with the same outcome.
"""
import pytest

from tests.browser.conftest import TABLET, finish_the_turn_through_the_pages, sign_in


@pytest.fixture
def demo_turn(transactional_db):
    """The default scenario (the demo's), Rum and Cilicia ordered to attack Attalia, Movement running."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.orders.services import file_order
    from larp.scenarios import DEFAULT_SCENARIO
    from larp.scenarios.loader import load_scenario
    from larp.turns import services as turns

    game = load_scenario(DEFAULT_SCENARIO, title="Демо: Латинский Восток", seed=5)
    mod, _ = add_moderator(game, "tr-bridge-mod", password="tr-bridge-123")
    turns.start_game(game, mod)
    for code, unit in (("rum", "rum-2"), ("cilicia", "cilicia-2")):
        player, _ = create_player(game.factions.get(code=code), f"{code}-tr", password=f"{code}-tr-123")
        file_order(player, game, unit, {"type": "attack", "path": ["attalia"]})
    turns.next_phase(game, mod)                                   # Strategy closes, Movement starts
    return game, mod


def table_state(table_id):
    from larp.tables.models import Table

    return Table.objects.get(pk=table_id).state


@pytest.mark.browser
def test_a_battle_of_the_demo_game_played_in_the_tactical_pages_comes_back_into_the_turn(demo_turn, new_page,
                                                                                       artifacts):
    from larp.battles import services as console
    from larp.bridge.models import TableBattle
    from larp.campaign.models import Province
    from larp.dice.models import Roll
    from larp.tables import services as tables
    from larp.tables.models import Table
    from larp.tactical import situation as sit
    from larp.turns import services as turns
    from larp.turns.situation import case_from_game
    from tests.bridge.test_tactical import hand_dice

    game, mod_user = demo_turn
    turn = turns.current_phase(game).turn
    console.apply_movement(game, mod_user)
    turns.next_phase(game, mod_user)                              # Tactics
    awaiting = console.current_result(game)[2]["awaiting"]
    n = awaiting["n"]
    shots = artifacts / "bridge"
    shots.mkdir(exist_ok=True)
    mod = new_page(viewport={"width": 1280, "height": 1000})
    mod.on("dialog", lambda d: d.accept())
    sign_in(mod, "tr-bridge-mod", "tr-bridge-123")

    # The console: «Сыграть за столом» with the tactical rules and a reason.
    battles_url = f"/g/{game.pk}/console/battles/"
    mod.goto(battles_url)
    mod.click("text=Сыграть за столом")
    panel = mod.locator("#at-table")
    panel.locator("select[name=system]").select_option("tactical")
    panel.locator("input[name=reason]").fill("главные армии: решают командующие")
    panel.locator("button.primary").click()
    mod.wait_for_load_state()
    assert "Идёт за столом" in mod.locator(".at-table-state").inner_text()
    tb = TableBattle.objects.get()
    assert tb.battle_no == n and tb.sides == {"attacker": "a", "defender": "b"} and tb.reason
    att, dfd = awaiting["attacker"]["faction"], awaiting["defender"]["faction"]
    assert {s.key: s.faction.code for s in tb.table.sides.all()} == {"a": att, "b": dfd}
    names = {s.key: s.name for s in tb.table.sides.all()}

    # The table, from its link: the suggested armies in words, with their generals.
    mod.click(".at-table-state a")
    mod.wait_for_url(f"**/tr/{tb.table_id}/")
    url = mod.url
    setup_units = tb.table.setup["units"]
    for side in ("a", "b"):
        box = mod.locator(f"#tr-army-{side}")
        assert "предложена по сражению войны" in box.inner_text()
        for u in (u for u in setup_units if u["side"] == side):
            assert u["name"] in box.locator(".tr-suggested").inner_text()
            if u["general"]:
                assert u["general"]["name"] in box.locator(".tr-generals").inner_text()
    text = mod.inner_text("body")
    assert "_card" not in text and "{'" not in text and "None" not in text
    mod.screenshot(path=str(shots / "tactical-setup.png"), full_page=True)

    # Each side's player sees his own suggested army, nothing of the other's before the battle.
    tablet = new_page(viewport=TABLET)
    sign_in(tablet, f"{dfd}-tr", f"{dfd}-tr-123")
    tablet.goto(url)
    own = [u["name"] for u in setup_units if u["side"] == "b"]
    other = [u["name"] for u in setup_units if u["side"] == "a"]
    assert all(name in tablet.content() for name in own) and not any(name in tablet.content() for name in other)
    assert tablet.locator("form[action$='/approve/']").count() == 0
    tablet.screenshot(path=str(shots / "tactical-tablet.png"), full_page=True)

    # Approved side by side, then the battle starts.
    mod.locator("button", has_text="Начать сражение").click()
    mod.wait_for_load_state()
    assert "ещё нет утверждённой армии" in mod.content()           # not before both armies are approved
    for side in ("a", "b"):
        mod.locator("button", has_text=f"Утвердить армию: {names[side]}").click()
        mod.wait_for_load_state()
        assert "утверждена мастером" in mod.locator(f"#tr-army-{side}").inner_text()
    mod.locator("button", has_text="Начать сражение").click()
    mod.wait_for_load_state()
    assert table_state(tb.table_id)["phase"] == "battle"
    mine = [u["id"] for u in setup_units if u["side"] == "a"]
    theirs = [u["id"] for u in setup_units if u["side"] == "b"]

    # A clash with the dice rolled at the table, typed on the six dice buttons (the dice: the test's choice, as
    # many as the engine asks for; every one goes the defender's way): the charge strikes nobody down and the two
    # units are locked in a melee.
    mod.select_option("#id_kind", "clash")
    mod.select_option("#id_attacker", mine[0])
    mod.select_option("#id_defender", theirs[0])
    payload = {"clash": {"attacker": mine[0], "defender": theirs[0], "attacked_from": "front", "counter": False},
               "modifiers": []}
    dice = hand_dice(table_state(tb.table_id), "clash", payload, "b")
    mod.fill("#id_hand_dice", "")
    for die in dice:
        mod.locator(f".tr-dicepad [data-die='{die}']").click()
    assert mod.input_value("#id_hand_dice") == " ".join(map(str, dice))
    mod.locator("#tr-resolve").click()
    mod.wait_for_load_state()
    assert mod.locator(".error, .errorlist").count() == 0, mod.content()
    clash = Table.objects.get(pk=tb.table_id).steps.get(kind="clash")
    assert clash.payload["by"] == {"hand": dice, "server": []}
    assert clash.outcome["units"][mine[0]]["hits"] == 0
    state = table_state(tb.table_id)
    assert sit.unit(state, mine[0])["in_melee"] and sit.unit(state, theirs[0])["in_melee"]

    # The two units locked in the melee fight it out with the server's dice (T21).
    mod.select_option("#id_kind", "melee")
    mod.check(f"input[name=melee_units][value='{mine[0]}']")
    mod.check(f"input[name=melee_units][value='{theirs[0]}']")
    mod.fill("#id_hand_dice", "")
    mod.check("#id_server_rest")
    mod.locator("#tr-resolve").click()
    mod.wait_for_load_state()
    assert mod.locator(".error, .errorlist").count() == 0, mod.content()
    log = mod.locator("#tr-log").inner_text()
    assert "сервер:" in log and "за столом:" in log
    table = Table.objects.get(pk=tb.table_id)
    melee = table.steps.get(kind="melee")
    assert melee.payload["by"]["hand"] == [] and melee.payload["by"]["server"]
    assert Roll.objects.filter(stream=table.dice, source=Roll.SERVER, status=Roll.USED).exists()
    assert Roll.objects.filter(stream=table.dice, source=Roll.HAND).count() == len(dice)
    mod.screenshot(path=str(shots / "tactical-battle.png"), full_page=True)

    # The moderator ends the battle: the attacker concedes the field.
    mod.locator("summary", has_text="Завершить сражение").click()
    mod.select_option("#id_winner", "b")
    mod.select_option("#id_ended_by", "concession")
    mod.locator("#tr-end button").click()
    mod.wait_for_load_state()
    assert f"Победа: {names['b']}" in mod.locator("#tr-result").inner_text()
    mod.screenshot(path=str(shots / "tactical-end.png"), full_page=True)
    table = Table.objects.get(pk=tb.table_id)
    assert table.status == Table.FINISHED
    steps = tables.live_steps(table)
    final = sit.replay(table.setup, [(s.kind, s.payload, s.outcome) for s in steps])
    assert final == table.state
    assert table.result == {"winner": "b", "ended_by": "concession", "losses": sit.losses(final)}
    for i, s in enumerate(steps):
        if s.kind in sit.ACTIONS:
            before = sit.replay(table.setup, [(x.kind, x.payload, x.outcome) for x in steps[:i]])
            assert sit.rerun(before, s.kind, s.payload) == s.outcome

    # Back in the console: the suggested result confirmed as it stands.
    mod.goto(battles_url)
    assert "Сражение за столом закончено" in mod.locator(".at-table-state").inner_text()
    form = mod.locator("form.table-result")
    assert form.locator("select[name=winner]").input_value() == "defender"
    losses = {role: int(form.locator(f"input[name={role}_losses]").input_value()) for role in ("attacker",
                                                                                                "defender")}
    lost = table.result["losses"]
    for role, key in tb.sides.items():
        assert losses[role] == int(tb.power[role] * lost[key]["lost"] / lost[key]["start"] + 0.5)
    form.locator("button.primary").click()
    mod.wait_for_load_state()
    assert "сыграно за столом" in mod.locator("table.fought").inner_text()
    mod.screenshot(path=str(shots / "tactical-confirmed.png"), full_page=True)

    # The turn goes on: the other battles on the page with typed dice, the regroup, as `adjudicate turn` gives.
    expected = finish_the_turn_through_the_pages(mod, game, mod_user, battles_url, turn,
                                                 {"battle": n, "winner": "defender", "losses": losses})
    now = case_from_game(game)
    assert {a["id"]: (a["province"], sorted(a["troops"])) for a in now["armies"]} == \
        {k: (v["province"], sorted(v["troops"])) for k, v in expected["state"]["armies"].items()}
    assert {p["id"]: (p["owner"], sorted(p["garrison"])) for p in now["provinces"]} == \
        {k: (v["owner"], sorted(v["garrison"])) for k, v in expected["state"]["provinces"].items()}
    owner = expected["state"]["provinces"]["attalia"]["owner"]
    assert owner and Province.objects.get(game=game, code="attalia").owner.code == owner
    mod.goto(f"/g/{game.pk}/map/")
    fill = mod.locator("[data-province=attalia] circle.land").get_attribute("fill")
    assert fill.lower() == game.factions.get(code=owner).colour.lower()
    mod.screenshot(path=str(shots / "tactical-map.png"), full_page=True)
