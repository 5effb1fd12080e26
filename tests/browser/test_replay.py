"""History's replay played in the browser: the moderator steps a past turn from its start to the map after
regroup (buttons and the → key), puts it on the projector, which follows, and gives the projector back; a
player replays the finished turn on a phone. The replay's last frame is the next turn's start (the live map).
"""
import pytest
from django.urls import reverse

from larp.battles import replay, services as console
from larp.campaign.services.members import create_player
from larp.tablet import services as tablet
from larp.turns import services as turns
from tests.battles.test_console_flow import fight_all
from tests.browser.conftest import PHONE, TABLET, latin_turn_one, sign_in

pytestmark = pytest.mark.browser
LAPTOP = {"width": 1920, "height": 1080}


@pytest.fixture
def past_turn(transactional_db):
    """The default scenario with its first turn played to its end (a modifier on the first battle) and the
    second turn begun; a moderator (replay-mod) and Nicaea's player (a join code)."""
    game, mod = latin_turn_one("Повтор хода", "replay-mod", "replay-mod-123")
    nicaea, _ = create_player(game.factions.get(code="nicaea"), "p-nicaea")
    turns.next_phase(game, mod)
    console.apply_movement(game, mod)
    turns.next_phase(game, mod)
    console.add_modifier(game, mod, 1, "attacker", 2, "засада в ущелье")
    assert fight_all(game, mod)
    turns.next_phase(game, mod)
    console.apply_regroup(game, mod)
    turns.next_phase(game, mod)
    join = reverse("tablet:join", args=[tablet.link(tablet.issue_code(mod, game, nicaea))])
    return game, join


def flags(page) -> list[str]:
    """Every army's and fleet's flag on the shown map, as its tooltip reads (faction — unit, place)."""
    page.locator("svg[data-pan] g.flags").first.wait_for(state="attached")
    return sorted(page.locator("svg[data-pan] g.flag > title, svg[data-pan] g.ship > title")
                  .evaluate_all("titles => titles.map(t => t.textContent)"))


def test_the_replay_is_stepped_to_the_next_turns_start_and_shown_in_the_hall(past_turn, new_page, artifacts):
    game, join = past_turn
    _turn, frames = replay.turn_frames(game, 1)
    mod = new_page(viewport=LAPTOP)
    sign_in(mod, "replay-mod", "replay-mod-123")
    mod.goto(f"/g/{game.pk}/console/")
    mod.get_by_role("link", name="История").first.click()
    mod.get_by_role("link", name="Ход 1", exact=True).click()
    mod.get_by_role("link", name="Повторить этот ход на карте").click()
    assert mod.locator("[data-replay]").get_attribute("data-frame") == "0"
    assert "Ход 1: карта в начале хода" in mod.locator(".replay-card").inner_text()
    start_flags = flags(mod)
    mod.screenshot(path=str(artifacts / "replay-console-1920.png"))

    hall = new_page(viewport=LAPTOP)
    sign_in(hall, "replay-mod", "replay-mod-123")
    hall.goto(f"/g/{game.pk}/projector/")
    mod.get_by_role("button", name="Показать этот повтор на проекторе").click()
    mod.wait_for_load_state()
    hall.locator("[data-projector-replay]").wait_for()
    assert "Повтор хода 1" in hall.locator(".projector-panel").inner_text()

    seen = []
    for n in range(1, len(frames)):
        if n % 2:
            mod.get_by_role("link", name="Дальше →").click()
        else:
            mod.keyboard.press("ArrowRight")
        mod.locator(f'[data-replay][data-frame="{n}"]').wait_for()
        text = mod.locator(".replay-card").inner_text()
        assert frames[n]["title"] in text
        if frames[n]["kind"] == "battle":
            assert frames[n]["decision"][:1].upper() + frames[n]["decision"][1:] in text
            if n == next(f["n"] for f in frames if f["kind"] == "battle"):
                assert "засада в ущелье" in text  # the moderators see the modifier's reason
                mod.screenshot(path=str(artifacts / "replay-console-battle-1920.png"))
        seen.append(frames[n]["kind"])
    assert seen.count("move") >= 1 and seen.count("battle") >= 1 and seen[-1] == "end"
    assert mod.get_by_role("link", name="Дальше →").count() == 0  # the last frame: nothing after it
    assert f"?frame={len(frames) - 1}" in mod.url  # the address names the frame: a reload keeps it
    end_flags = flags(mod)
    assert end_flags != start_flags

    # The projector follows the console's frame and says it is a replay; then it is given back to the game.
    hall.locator(f'[data-projector-replay="1-{len(frames) - 1}"]').wait_for()
    hall.screenshot(path=str(artifacts / "replay-projector-1920.png"))
    mod.get_by_role("button", name="Вернуть проектор игре").click()
    mod.wait_for_load_state()
    hall.locator("[data-projector-replay]").wait_for(state="detached")

    # The last frame is the next turn's start: the same flags in the same places as the live map now.
    mod.goto(f"/g/{game.pk}/map/")
    assert flags(mod) == end_flags

    # A player replays the finished turn on a phone, without the moderators' reasons.
    phone = new_page(viewport=PHONE)
    phone.goto(join)
    phone.get_by_role("link", name="Прошлые ходы").first.click()
    phone.get_by_role("link", name="Ход 1: повтор на карте").click()
    battle = next(f for f in frames if f["kind"] == "battle")
    for n in range(1, battle["n"] + 1):
        phone.get_by_role("link", name="Дальше →").click()
        phone.locator(f'[data-replay][data-frame="{n}"]').wait_for()
    card = phone.locator(".replay-card").inner_text()
    assert battle["title"] in card and "засада в ущелье" not in card
    phone.screenshot(path=str(artifacts / "replay-phone-390.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the phone's replay is {width} px wide"
    tab = new_page(viewport=TABLET)
    tab.goto(join)
    tab.goto(phone.url)
    tab.screenshot(path=str(artifacts / "replay-tablet-768.png"), full_page=True)
    assert battle["title"] in tab.locator(".replay-card").inner_text()
