"""One battle of the demo game's turn sent from the console to an «Орда» table and played in the Orda pages, its
result confirmed back into the turn (docs/bridge.md, docs/orda.md "Table").

The demo game is the default scenario: Rum and Cilicia both march on Attalia. The moderator sends the battle
awaiting its dice to an Orda table from the battles page and opens the table from its link there. The converted
tokens lack printed values the source lost: the table's page names them, the moderator enters the one the game's
data set (MADE UP FOR THE TESTS) lacks in its editor, and takes the values. Then the attacker's player on a tablet
begins the turns and advances, the moderator plays the defender, and the first attack is declared, countered and
resolved with the moderator's hand dice. A whole Orda game is long: the moderator then ends the battle by the
table's own ruling («Завершить бой решением ведущего», with a reason). Back in the console the suggested result
is confirmed, the turn's other battles are rolled on the page, the regroup is applied, and the state equals
`adjudicate turn` with the same outcome entered.
"""
import pytest

from tests.browser.conftest import TABLET, finish_the_turn_through_the_pages, press, sign_in


@pytest.fixture
def demo_turn(transactional_db):
    """The default scenario (the demo's), Rum and Cilicia ordered to attack Attalia, Movement running, and an
    Orda data set made up for the tests in which Batu Khan's speed is not entered yet."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.orda import services as orda
    from larp.orders.services import file_order
    from larp.scenarios import DEFAULT_SCENARIO
    from larp.scenarios.loader import load_scenario
    from larp.turns import services as turns
    from tests.orda_table.data import complete_data

    game = load_scenario(DEFAULT_SCENARIO, title="Демо: Латинский Восток", seed=5)
    mod, _ = add_moderator(game, "orda-bridge-mod", password="orda-bridge-123")
    turns.start_game(game, mod)
    for code, unit in (("rum", "rum-2"), ("cilicia", "cilicia-2")):
        player, _ = create_player(game.factions.get(code=code), f"{code}-orda", password=f"{code}-orda-123")
        file_order(player, game, unit, {"type": "attack", "path": ["attalia"]})
    turns.next_phase(game, mod)                                   # Strategy closes, Movement starts
    data = complete_data("Тестовый набор (выдуманные числа)")
    data["stats"]["north_mongolia"]["batu_khan"]["speed"] = None
    orda.create_dataset(game, data["title"], mod, data)
    return game, mod


def current(table_id):
    from larp.orda import services as orda
    from larp.tables.models import Table

    return orda.current(Table.objects.get(pk=table_id))


def nearest_move(case, uid):
    """The legal move that ends nearest an enemy, fewest zone-of-control attacks first (the test's choice; the
    click is the page's)."""
    from larp.orda import situation as sit
    from larp.orda.engine.hexes import distance

    me = next(u for u in case["units"] if u["id"] == uid)
    enemies = [tuple(u["hex"]) for u in case["units"] if u["where"] == "board" and u["faction"] != me["faction"]]
    moves = sit.legal_moves(case, uid)
    if not moves:
        return None
    h, _m = min(moves.items(), key=lambda kv: (len(kv[1]["provoked"]), min(distance(kv[0], e) for e in enemies),
                                               kv[0]))
    return f"{h[0]},{h[1]}"


@pytest.mark.browser
def test_a_battle_of_the_demo_game_played_in_the_orda_pages_comes_back_into_the_turn(demo_turn, new_page,
                                                                                   artifacts):
    from larp.battles import services as console
    from larp.bridge.models import TableBattle
    from larp.orda import situation as sit
    from larp.tables import services as tables
    from larp.tables.models import Table
    from larp.turns import services as turns

    game, mod_user = demo_turn
    turn = turns.current_phase(game).turn
    console.apply_movement(game, mod_user)
    turns.next_phase(game, mod_user)                              # Tactics
    awaiting = console.current_result(game)[2]["awaiting"]
    n = awaiting["n"]
    (artifacts / "bridge").mkdir(exist_ok=True)
    mod = new_page(viewport={"width": 1280, "height": 1000})
    mod.on("dialog", lambda d: d.accept())
    sign_in(mod, "orda-bridge-mod", "orda-bridge-123")

    # The console: «Сыграть за столом» with Orda and a reason.
    battles_url = f"/g/{game.pk}/console/battles/"
    mod.goto(battles_url)
    mod.click("text=Сыграть за столом")
    panel = mod.locator("#at-table")
    panel.locator("select[name=system]").select_option("orda")
    panel.locator("input[name=reason]").fill("главные армии: решают командующие")
    panel.locator("button.primary").click()
    mod.wait_for_load_state()
    assert "Идёт за столом" in mod.locator(".at-table-state").inner_text()
    tb = TableBattle.objects.get()
    assert tb.battle_no == n and tb.sides == {"attacker": "north_mongolia", "defender": "rus"}
    attacker_code = awaiting["attacker"]["faction"]
    assert tb.table.sides.get(key="north_mongolia").faction.code == attacker_code

    # The table, from its link: what the source lost is named, entered in the data set, and taken.
    mod.click(".at-table-state a")
    mod.wait_for_url(f"**/orda/{tb.table_id}/")
    url = mod.url
    missing = mod.locator(".missing-values").inner_text()
    assert "Без этих печатных значений движок не играет" in missing
    # the set lacks his speed, so none of his values is taken from it (never a token half-filled)
    # A battle of the war speaks of the war's factions: Rum attacks (the Mongol side), Cilicia defends.
    attacker = tb.table.sides.get(key="north_mongolia").name
    defender = tb.table.sides.get(key="rus").name
    assert {attacker, defender} == {"Рум", "Киликия"}
    assert f"Хан Батый ({attacker}): атака, защита, скорость, время призыва." in missing
    assert missing.count(f"({attacker})") + missing.count(f"({defender})") == 1 and "Монголия" not in missing
    assert "правила начала новой партии" in mod.content() and "не её двенадцать жетонов" not in mod.content()
    mod.screenshot(path=str(artifacts / "bridge" / "orda-missing-values.png"), full_page=True)
    mod.click(".missing-values a:has-text('Тестовый набор')")
    mod.wait_for_url("**faction=north_mongolia")
    mod.fill("input[name=batu_khan__speed]", "2")
    mod.click("button[name=stats]")
    mod.wait_for_load_state()
    mod.goto(url)
    mod.click("button:has-text('Взять значения из набора данных')")
    mod.wait_for_load_state()
    assert mod.locator(".missing-values").count() == 0
    assert "Печатные значения взяты из набора данных «Тестовый набор (выдуманные числа)»" in \
        mod.locator("#orda-log").inner_text()
    assert sit.missing_values(current(tb.table_id)["case"]) == {"units": {}, "cities": []}

    # The attacker's player on a tablet and the moderator (for the defender) play until the first attack.
    tablet = new_page(viewport=TABLET)
    sign_in(tablet, f"{attacker_code}-orda", f"{attacker_code}-orda-123")
    tablet.goto(url)
    assert attacker in tablet.locator(".orda-status").inner_text()       # the attacker moves first
    assert tablet.locator("button:has-text('Начало хода')").count() == 1
    assert tablet.locator("form.tool").count() == 0                                 # no moderator's tools
    pages = {"north_mongolia": tablet, "rus": mod}
    attacked = None
    for _turn in range(12):
        active = current(tb.table_id)["case"]["game"]["active"]
        page = pages[active]
        page.goto(url)
        page.click("button:has-text('Начало хода')")
        page.wait_for_load_state()
        mine = [u["id"] for u in current(tb.table_id)["case"]["units"]
                if u["faction"] == active and u["where"] == "board"][:3]
        for uid in mine:
            case = current(tb.table_id)["case"]
            if not sit.legal_targets(case, uid):
                key = nearest_move(case, uid)
                if key is None:
                    continue
                page.goto(f"{url}?unit={uid}")
                page.click(f'.moves button[data-hex="{key}"]')
                page.wait_for_load_state()
                assert page.locator(".orda-errors").count() == 0, page.locator(".orda-errors").inner_text()
            targets = sit.legal_targets(current(tb.table_id)["case"], uid)
            if targets:
                target = targets[0]
                page.goto(f"{url}?unit={uid}")
                page.click(f'.targets button[data-hex="{target["hex"][0]},{target["hex"][1]}"]')
                page.wait_for_load_state()
                attacked = (uid, target["target"])
                break
        if attacked:
            break
        page.goto(url)
        page.click("button:has-text('Итоги')")
        page.wait_for_load_state()
    assert attacked, "the armies never met"
    # The target's side chooses its counter-measure (the tablet for the Mongols, the moderator for Rus).
    target_faction = next(u["faction"] for u in current(tb.table_id)["case"]["units"] if u["id"] == attacked[1])
    defender_page = pages[target_faction]
    defender_page.goto(url)
    assert "Выберите контрмеру" in defender_page.content()
    defender_page.click("button:has-text('Оборона')")
    defender_page.wait_for_load_state()
    mod.goto(url)
    mod.fill("input[name=die_attacker]", "6")
    mod.fill("input[name=die_defender]", "1")
    mod.click("button:has-text('Ввести кубики')")
    mod.wait_for_load_state()
    assert "попадание" in mod.locator("#orda-log").inner_text()
    tablet.goto(url)
    tablet.screenshot(path=str(artifacts / "bridge" / "orda-tablet.png"), full_page=True)

    # A whole Orda game is long: the moderator ends the battle by the table's ruling, with a reason.
    tool = mod.locator("form.tool:has(button:has-text('Завершить бой решением ведущего'))")
    tool.locator("select[name=winner]").select_option("rus_china")
    tool.locator("input[name=reason]").fill("время вечера вышло: поле за Русью")
    tool.locator("button").click()
    mod.wait_for_load_state()
    assert f"Победа: {defender}" in mod.locator(".victory").inner_text()        # the war's faction, not «Русь»
    assert "Итог боя" in mod.locator("section.result").inner_text()
    mod.screenshot(path=str(artifacts / "bridge" / "orda-table-end.png"), full_page=True)
    table = Table.objects.get(pk=tb.table_id)
    assert table.status == Table.FINISHED and table.result["winner"] == "rus"
    assert table.result["ended_by"] == "moderator"
    assert table.state == sit.replay(table.setup, [(s.kind, s.payload) for s in tables.live_steps(table)])
    assert table.steps.filter(kind="attack", payload__hand=True, undone=False).count() == 1
    assert table.steps.filter(kind="values", undone=False).count() == 2        # the bridge's, then the page's

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
    press(mod, form.locator("button.primary"))          # the console swaps its part in place: wait for it
    assert "сыграно за столом" in mod.locator("table.fought").inner_text()
    mod.screenshot(path=str(artifacts / "bridge" / "orda-confirmed.png"), full_page=True)

    # The turn goes on: the other battles on the page with typed dice, the regroup, as `adjudicate turn` gives.
    finish_the_turn_through_the_pages(mod, game, mod_user, battles_url, turn,
                                      {"battle": n, "winner": "defender", "losses": losses})
