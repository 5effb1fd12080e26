"""Issue 35: a storm the garrison wins on the dice but is wiped out by its own losses, played through the pages.

R7 / R12 ruling: a storm that destroys the last defender takes the fortress whatever the totals, and that is the
attacker's victory. The turn has two such storms: East storms North's capital (a faction's garrison alone behind
the walls, 14 : 17) and North storms neutral Midtown (11 : 13). The players file on their tablets, the moderator
closes Strategy, steps movement, types the dice, confirms and applies regroup. Then the console's battles page,
History's turn page, both tablets, the battle protocols and the turn results (PDFs from the worker) must tell the
engine's decision in the same words, and the stored result must be the engine's own for the turn's case.
"""
import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst

from tests.browser.conftest import PHONE, TABLET, engine_turn, press, sign_in
from tests.browser.test_whole_turn import console_step, file_on_tablet
from tests.sheets.pdf import pdf_pages, squash

pytestmark = [pytest.mark.browser, pytest.mark.worker]

DESKTOP = {"width": 1920, "height": 1080}
# Province -> (attacker's die, defender's die): the garrison wins the roll, and the winner's loss of band 2 (2 power
# points) is its whole detachment.
DICE = {"Северные Врата": (6, 4), "Серединград": (2, 6)}
TOTALS = {"Северные Врата": "14 : 17", "Серединград": "11 : 13"}
WRONG = ("ваша атака отбита", "победа обороняющегося", "Победа: нейтральный гарнизон", "Победа: Север (обороняющийся)",
         "нейтральный гарнизон (обороняющийся) побеждает")


@pytest.fixture
def storm_night(transactional_db, worker_factory):
    """The tiny map set for two storms a garrison wins on the dice and dies of: North's capital Northgate held by a
    lone detachment (North I waits in Northfield), neutral Midtown by a detachment, North II a small army and a
    detachment. A moderator, East's and North's players with join codes, the game started; a worker prints."""
    from larp.campaign.models import Province
    from larp.campaign.services.members import add_moderator, create_player
    from larp.forces.models import Army, TroopType
    from larp.forces.services import set_stack
    from larp.scenarios.loader import load_scenario
    from larp.tablet import services as tablet
    from larp.turns import services as turns

    game = load_scenario("tiny", title="Ночь штурмов", seed=35)
    kinds = {t.code: t for t in TroopType.objects.filter(game=game)}
    for code in ("northgate", "midtown"):
        set_stack(Province.objects.get(game=game, code=code), [kinds["detachment"]])
    north_1 = Army.objects.get(faction__game=game, faction__code="north", number=1)
    north_1.province = Province.objects.get(game=game, code="northfield")
    north_1.save(update_fields=["province"])
    north_2 = Army.objects.get(faction__game=game, faction__code="north", number=2)
    set_stack(north_2, [kinds["small"], kinds["detachment"]])
    mod, _ = add_moderator(game, "storm-mod", password="storm-mod-123")
    joins = {}
    for code in ("east", "north"):
        player, _ = create_player(game.factions.get(code=code), f"storm-{code}")
        joins[code] = reverse("tablet:join", args=[tablet.link(tablet.issue_code(mod, game, player))])
    turns.start_game(game, mod)
    worker_factory("storm")
    return game, joins


def words():
    """The engine's decision in the game's words (labels), in Russian as the pages speak."""
    from larp.campaign import labels

    taken = {"decision": "fortress_taken"}
    with translation.override("ru"):
        return {"all": labels.decision(taken), "attacker": labels.decision_for(taken, "attacker"),
                "defender": labels.decision_for(taken, "defender")}


def printed(page, history, kind, title, keep) -> str:
    """Press a print button on History's turn page, open the worker's PDF from the job's link (kept in `keep`),
    return its text on one line."""
    page.goto(history)
    page.click(f".print-buttons button[value={kind}]")
    job = page.locator(".print-jobs .print-job", has=page.locator("strong", has_text=title))
    job.get_by_role("link", name="Открыть PDF").wait_for(timeout=90000)
    response = page.request.get(job.get_by_role("link", name="Открыть PDF").get_attribute("href"))
    assert response.status == 200, response.status
    (keep / f"{kind}.pdf").write_bytes(response.body())
    return squash(" ".join(pdf_pages(response.body())))


def shoot(page, path, name):
    """Full-page screenshots at 390 px, 768 px and 1920 x 1080; none may scroll sideways."""
    for label, size in (("390", PHONE), ("768", TABLET), ("1920", DESKTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=str(path / f"{name}-{label}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], (name, label, width)


def test_a_storm_won_by_the_garrisons_destruction_reads_the_same_everywhere(storm_night, new_page, artifacts):
    game, joins = storm_night
    said = words()
    shots = artifacts / "storm-decision"
    shots.mkdir(exist_ok=True)

    # --- Strategy: each side files its storm on its tablet ---------------------------------------------------------
    tablets = {}
    for faction, unit, target in (("east", "east-1", "northgate"), ("north", "north-2", "midtown")):
        tablets[faction] = new_page(viewport=TABLET)
        tablets[faction].goto(joins[faction])
        tablets[faction].locator("[data-order-form]").first.wait_for()
        file_on_tablet(tablets[faction], unit, "attack", [target])

    mod = new_page(viewport={"width": 1280, "height": 900})
    asked = []
    mod.on("dialog", lambda d: (asked.append(d.message), d.accept()))
    sign_in(mod, "storm-mod", "storm-mod-123")
    mod.goto(f"/g/{game.pk}/console/")
    mod.fill("form[action$='control/end'] input[name=reason]", "все приказы сданы")
    press(mod, "form[action$='control/end'] button")
    assert asked and "Закончить фазу сейчас?" in asked[-1]

    # --- Movement and the two storms, dice typed so that each garrison wins the roll ------------------------------
    console_step(mod, game, "Перейти к передвижению")
    console_step(mod, game, "Провести передвижение")
    press(mod, "form[action$='movement/apply'] button")
    console_step(mod, game, "Перейти к сражениям")
    console_step(mod, game, "Провести сражение 1")
    for _battle in range(2):
        heading = mod.locator(".awaiting h2").inner_text()
        province = next(p for p in DICE if p in heading)
        assert "штурм" in heading, heading
        attacker, defender = DICE[province]
        mod.fill(".dice-form input[name=attacker]", str(attacker))
        mod.fill(".dice-form input[name=defender]", str(defender))
        press(mod, ".dice-form button.primary")
        # The confirmation's message says the decision too.
        assert said["all"] in mod.locator(".messages").inner_text()
    assert "Все сражения проведены" in mod.content()

    rows = mod.locator("table.fought tbody tr")
    assert rows.count() == 2
    for row in rows.all():
        text = row.inner_text()
        province = next(p for p in DICE if p in text)
        assert TOTALS[province] in text, text
        assert row.locator("td.outcome").inner_text() == said["all"], text
    queue = mod.locator(".battle-queue").inner_text()
    assert queue.count(said["all"]) == 2, queue
    for wrong in WRONG:
        assert wrong not in mod.locator("main").inner_text()
    shoot(mod, shots, "console-battles")
    mod.set_viewport_size({"width": 1280, "height": 900})
    # The hall's projector and the action log say it in the same words.
    mod.goto(reverse("battles:projector", args=[game.pk]))
    board = mod.locator(".battle-list").inner_text()
    assert board.count(said["all"]) == 2, board
    mod.goto(reverse("turns:audit", args=[game.pk]))
    log = mod.locator("main").inner_text()
    assert log.count(said["all"]) == 2, log

    # --- Regroup ------------------------------------------------------------------------------------------------------
    console_step(mod, game, "Перейти к перегруппировке")
    console_step(mod, game, "Применить перегруппировку")
    press(mod, "form[action$='regroup/apply'] button")
    assert "Перегруппировка применена" in mod.content()

    # --- History's turn page ----------------------------------------------------------------------------------------
    history = f"/g/{game.pk}/history/1/"
    mod.goto(history)
    section = mod.locator("details", has=mod.locator("h2", has_text="Сражения"))
    lines = section.locator("ol").first.locator("> li").all_inner_texts()
    assert len(lines) == 2 and all(line.endswith(said["all"]) for line in lines), lines
    for wrong in WRONG:
        assert wrong not in section.inner_text()

    # --- the tablets: the attacker won, the defender lost its capital ---------------------------------------------
    for faction, page in tablets.items():
        page.goto(joins[faction])
        page.locator("#turn-result").wait_for()
    east = tablets["east"].locator("#turn-result").inner_text()
    assert capfirst(said["attacker"]) in east, east
    north = tablets["north"].locator("#turn-result").inner_text()
    assert capfirst(said["defender"]) in north and capfirst(said["attacker"]) in north, north
    for text in (east, north):
        for wrong in (*WRONG, "Вы проиграли: ваша атака отбита"):
            assert wrong not in text, text
    outcomes = tablets["north"].locator("#turn-result .outcome").all_inner_texts()
    assert sorted(outcomes) == sorted([capfirst(said["attacker"]), capfirst(said["defender"])]), outcomes
    tablets["east"].locator("#turn-result").scroll_into_view_if_needed()
    shoot(tablets["east"], shots, "tablet-east")
    shoot(tablets["north"], shots, "tablet-north")

    # --- paper: the battle protocols and the turn results --------------------------------------------------------
    protocols = printed(mod, history, "protocols", "Протоколы автобоя", shots)
    assert protocols.count(capfirst(said["all"])) == 2, protocols
    assert "Победа: Восток (нападающий). " + capfirst(said["all"]) in protocols, protocols
    assert "Победа: Север (нападающий). " + capfirst(said["all"]) in protocols, protocols
    assert protocols.count("гарнизон уничтожен") == 2, protocols       # what next, for each garrison
    results = printed(mod, history, "turn-results", "Итоги хода", shots)
    assert results.count(said["all"]) == 2, results
    for text in (protocols, results):
        for wrong in WRONG:
            assert wrong not in text, text

    # --- the stored result is the engine's own for the turn's case ---------------------------------------------------
    stored, expected = engine_turn(game, 1, shots)
    assert [(f["province"], f["outcome"], f["decision"], f["winner"], f["loser"]) for f in stored["fought"]] == \
        [(f["province"], f["outcome"], f["decision"], f["winner"], f["loser"]) for f in expected["fought"]]
    assert sorted((f["province"], f["outcome"], f["decision"], f["winner"]) for f in expected["fought"]) == [
        ("midtown", "defender_won", "fortress_taken", "attacker"),
        ("northgate", "defender_won", "fortress_taken", "attacker")]
    assert stored["fought"] == expected["fought"]
    assert stored["state"] == expected["state"] and stored["recoloured"] == expected["recoloured"]
    assert {r["province"]: r["to"] for r in expected["recoloured"]} == {"northgate": "east", "midtown": "north"}
