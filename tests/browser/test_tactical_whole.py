"""A whole «Тактические правила» battle to the engine's own end (T29: every unit of one side fled or destroyed),
through the pages only: the moderator on a laptop, the north's player on a tablet, the south's on a phone.

The armies are tiny so the end comes soon: a phalanx against a unit of knights. The knights' charge is rolled at
the table and typed in (the dice fixed here, so the battle ends the same way every run): first one die short — the
door refuses, the page stays at the table's address — then all of them. The knights are destroyed by the engine's
own result, not by a ruling; the page then offers the end with the winner it says, the moderator confirms it. The
stored state equals the engine's replay of the stored log and every action equals the engine run again.
"""
import pytest

from tests.browser.conftest import PHONE, TABLET, sign_in
from tests.browser.test_tactical_table import add_general, add_unit

pytestmark = pytest.mark.browser

# The knights' charge on the phalanx, rolled at the table: the knights destroyed, one pikeman killed.
CHARGE = "6 5 1 5 6 6 6 5 1 6 3 4 5 1 6 4 5 3 4 6"
SIZES = {"390": {"width": 390, "height": 844}, "768": {"width": 768, "height": 1024},
         "1920": {"width": 1920, "height": 1080}}


def shots_of(page, shots, seat):
    """The seat's page at 390, 768 and 1920 px: nothing wider than the screen."""
    for label, size in SIZES.items():
        page.set_viewport_size(size)
        page.reload()
        page.wait_for_load_state()
        wide = page.evaluate("""w => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w + 2)
            .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""", size["width"])
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"] + 2, (seat, label, wide)
        page.screenshot(path=str(shots / f"whole-{seat}-{label}.png"), full_page=label != "1920")


def test_a_tactical_battle_played_to_the_engines_end(tactical_hall, new_page, artifacts):
    from larp.tables.models import Table
    from larp.tactical import services
    from larp.tactical import situation as sit

    game = tactical_hall
    shots = artifacts / "tactical"
    shots.mkdir(exist_ok=True)
    mod = new_page(viewport={"width": 1280, "height": 1000})
    sign_in(mod, "tr-mod", "tr-mod-password-1")
    mod.goto(f"/g/{game.pk}/tr/new/")
    mod.fill("#id_title", "Бой у брода")
    mod.select_option("#id_side_a", str(game.factions.get(code="north").pk))
    mod.select_option("#id_side_b", str(game.factions.get(code="south").pk))
    mod.select_option("#id_list_a", "macedonian_sample")
    mod.select_option("#id_list_b", "feudal_sample")
    mod.click("button[type=submit].button")
    mod.wait_for_load_state()
    table = Table.objects.get(game=game, system="tactical")
    url = f"/g/{game.pk}/tr/{table.pk}/"

    tablet = new_page(viewport=TABLET)
    sign_in(tablet, "tr-north", "tr-north-password-1")
    tablet.goto(url)
    add_unit(tablet, "north", "Фаланга", "phalangite", "infantry_pike", "light_armour", "", "very_dense", 12)
    add_general(tablet, "north", "Парменион", "phalangite", "Фаланга", "points")
    phone = new_page(viewport=PHONE)
    sign_in(phone, "tr-south", "tr-south-password-1")
    phone.goto(url)
    add_unit(phone, "south", "Рыцари", "knight", "cavalry_lance", "heavy_armour", "shield", "dense", 6)
    add_general(phone, "south", "Бодуэн", "knight", "Рыцари", "points")
    assert "- Select an option -" not in phone.content() + tablet.content()

    mod.reload()
    for side in ("Север", "Юг"):
        mod.locator("button", has_text=f"Утвердить армию: {side}").click()
        mod.wait_for_load_state()
    mod.locator("button", has_text="Начать сражение").click()
    mod.wait_for_load_state()
    table.refresh_from_db()
    units = {u["name"]: u["id"] for u in table.state["units"]}

    # the Initiative (T14.1) rolled by the server, then the first turn: the south moves first
    mod.select_option("#id_kind", "test")
    mod.select_option("#id_test_kind", "initiative")
    mod.check("#id_server_rest")
    mod.locator("#tr-resolve").click()
    mod.wait_for_load_state()
    assert "Инициатива" in mod.locator("#tr-log").inner_text()
    mod.select_option("#id_first", "south")
    mod.locator("#tr-turn button").click()
    mod.wait_for_load_state()
    for _step in range(2):                                     # to «movement and clashes»
        mod.locator("#tr-turn button", has_text="Следующий этап").click()
        mod.wait_for_load_state()
    assert "Ходит: Юг" in mod.locator("[data-table-frame]").inner_text()

    # the charge, one die short and the server not allowed to roll: refused, the page at the table's address
    def charge(dice):
        mod.select_option("#id_kind", "clash")
        mod.select_option("#id_attacker", units["Рыцари"])
        mod.select_option("#id_defender", units["Фаланга"])
        mod.uncheck("#id_server_rest")
        mod.fill("#id_hand_dice", dice)
        mod.locator("#tr-resolve").click()
        mod.wait_for_load_state()
    charge(CHARGE.rsplit(" ", 1)[0])
    assert "Нужен ещё один кубик" in mod.locator("#flash").inner_text()
    assert mod.url.endswith(url), mod.url
    table.refresh_from_db()
    assert not sit.routed(table.state)
    # the next act: all the dice
    charge(CHARGE)
    assert "Столкновение" in mod.locator("#tr-log").inner_text()
    table.refresh_from_db()
    assert sit.routed(table.state) == ["south"]               # the engine's own end: no ruling made it
    assert not table.steps.filter(kind="override").exists()
    assert units["Рыцари"] in table.state["destroyed"]
    assert "Юг" in mod.locator(".tr-routed").inner_text()
    frame = mod.locator("[data-table-frame]")
    assert "Завершить сражение" in frame.inner_text()
    assert mod.locator("#tr-end-box").get_attribute("open") is not None
    assert mod.input_value("#id_winner") == "north" and mod.input_value("#id_ended_by") == "rout"

    # each seat at 390, 768 and 1920 px, in the battle's last moment
    shots_of(tablet, shots, "tablet")
    assert "Рыцари" in tablet.content()
    shots_of(phone, shots, "phone")
    shots_of(mod, shots, "moderator")

    mod.set_viewport_size({"width": 1280, "height": 1000})
    frame.locator("[data-frame-next]").click()
    mod.locator("#tr-end button").click()
    mod.wait_for_load_state()
    assert "Победа: Север" in mod.content()
    table.refresh_from_db()
    assert table.status == Table.FINISHED
    assert table.result["winner"] == "north" and table.result["ended_by"] == "rout"
    steps = [s for s in table.steps.order_by("seq") if not s.undone]
    replayed = sit.replay(table.setup, [(s.kind, s.payload, s.outcome) for s in steps])
    assert replayed == table.state == services.replay_table(table)
    assert table.result == {"winner": "north", "ended_by": "rout", "losses": sit.losses(replayed)}
    assert table.result["losses"]["south"] == {"start": 6, "lost": 6}
    acted = 0
    for i, s in enumerate(steps):
        if s.kind in sit.ACTIONS:
            before = sit.replay(table.setup, [(x.kind, x.payload, x.outcome) for x in steps[:i]])
            assert sit.rerun(before, s.kind, s.payload) == s.outcome
            acted += 1
    assert acted == 2                                          # the Initiative and the charge; the refusal left none
    phone.goto(url)
    assert "Север" in phone.content()
    shots_of(phone, shots, "phone-end")
