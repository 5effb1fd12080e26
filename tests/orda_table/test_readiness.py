"""Whether the game's «Орда» data set is ready for the night, said before the hall waits for it (O23, docs/bridge.md):
on the console's «Столы» page (with the way to prepare it) and on the form that sends a battle of the war to a table
(a plain warning naming what is missing). The numbers are the data set MADE UP FOR THE TESTS."""
import pytest
from django.urls import reverse
from django.utils import translation

from larp.orda import readiness
from larp.orda import services as orda
from larp.bridge import services as bridge
from tests.battles.test_console_flow import played  # noqa: F401  (the fixture)
from tests.bridge.test_flow import roll, tactics
from tests.orda_table.data import complete_data


@pytest.fixture(autouse=True)
def russian():
    with translation.override("ru"):
        yield


def test_the_tables_page_says_what_the_data_set_lacks_and_links_to_its_editor(tiny_game, moderator, client_for,
                                                                              player):
    c = client_for(moderator)
    url = reverse("tables:list", args=[tiny_game.pk])
    html = c.get(url).content.decode()
    assert "В игре нет набора данных «Орды»" in html and reverse("orda:data", args=[tiny_game.pk]) in html

    data = complete_data("Наша коробка")
    data["stats"]["north_mongolia"]["batu_khan"]["speed"] = None
    data["stats"]["north_mongolia"]["raider"]["attack"] = None
    data["stats"]["china"]["wanyan_xun"]["attack"] = None      # not a token of the war's battles: a new game's
    ds = orda.create_dataset(tiny_game, "Наша коробка", moderator, data)
    html = c.get(url).content.decode()
    assert "В наборе данных «Наша коробка» не хватает значений, нужных сражению войны: 2." in html
    assert "Для целой новой партии не хватает ещё значений: 3." in html
    assert "Северная Монголия, «Хан Батый»: скорость." in html
    assert f'{reverse("orda:data_edit", args=[tiny_game.pk, ds.pk])}?faction=north_mongolia' in html
    assert "Подготовить набор данных" in html

    orda.save_dataset(ds, complete_data("Наша коробка"), moderator, what="test")
    html = c.get(url).content.decode()
    assert "В наборе данных «Наша коробка» есть все значения, нужные сражению войны." in html
    assert 'data-readiness="orda"' in html and "Подготовить набор данных" not in html
    # Players do not see the moderators' preparation.
    assert "Готово ли к вечеру" not in client_for(player).get(url).content.decode()


def test_the_war_tokens_are_the_conversions(tiny_game):
    conv = bridge.conversions(tiny_game)["orda"]
    tokens = readiness.war_tokens(conv)
    assert ("north_mongolia", "batu_khan") in tokens and ("rus", "ivan_iii") in tokens
    assert ("rus", "archer") in tokens and ("china", "wanyan_xun") not in tokens


def test_the_send_form_warns_plainly_of_what_orda_lacks(played, client_for):  # noqa: F811
    game, mod = played
    tactics(game, mod)
    roll(game, mod, 0)
    c = client_for(mod)
    battles = f"/g/{game.pk}/console/battles/"
    html = c.get(battles).content.decode()
    assert "Орда — данные неполны, см. ниже" in html
    assert "В игре нет набора данных «Орды»" in html and "Стол не начнётся, пока их не внесут" in html
    orda.create_dataset(game, "Тестовый набор", mod, complete_data())
    html = c.get(battles).content.decode()
    assert "данные неполны" not in html and "Стол не начнётся" not in html
