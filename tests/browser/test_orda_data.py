"""The «Орда» board editor: a moderator draws the board by clicking hexes (capital, city, a line's side)."""
import pytest

pytestmark = pytest.mark.browser


@pytest.fixture
def moderator_game(transactional_db):
    from larp.campaign.services.members import add_moderator
    from larp.scenarios.loader import load_scenario

    game = load_scenario("tiny", title="Данные «Орды»", seed=3)
    add_moderator(game, "data-mod", password="data-mod-123")
    return game


def test_the_board_is_drawn_by_clicking_hexes(moderator_game, new_page, artifacts):
    from django.urls import reverse

    from larp.orda.models import DataSet
    from tests.browser.test_orda_table import sign_in

    game = moderator_game
    page = new_page(viewport={"width": 1280, "height": 900})
    sign_in(page, "data-mod", "data-mod-123")
    page.goto(reverse("orda:data", args=[game.pk]))
    page.fill("input[name=title]", "Наша коробка")
    page.click("button[name=create]")
    page.wait_for_selector("text=Числа на жетонах")
    page.fill("input[name=archer__health]", "2")
    page.click("button[name=stats]")
    page.click("text=Редактор поля")
    page.fill("input[name=radius]", "2")
    page.click("button:has-text('Добавить')")
    assert page.locator("svg.orda-board g.hex:not(.off)").count() == 19
    page.click("text=Синяя столица")
    page.locator('svg.orda-board g.hex[data-hex="0,2"]').click()
    page.wait_for_load_state()
    page.click("text=Тёмно-синий город")
    page.locator('svg.orda-board g.hex[data-hex="1,1"]').click()
    page.wait_for_load_state()
    page.click("text=Гекс поля (добавить или убрать)")
    page.locator('svg.orda-board g.hex[data-hex="3,-1"]').click()       # outside: added
    page.wait_for_load_state()
    (artifacts / "orda").mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / "orda" / "board-editor.png"), full_page=True)
    data = DataSet.objects.get(title="Наша коробка").data
    assert data["capitals"]["blue"] == [0, 2] and data["cities"]["dark_blue"] == [[1, 1]]
    assert [3, -1] in data["board"] and len(data["board"]) == 20
    assert data["stats"]["rus"]["archer"]["health"] == 2
