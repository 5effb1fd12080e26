"""The strategic manoeuvring of «Тактические правила» played by two players on their own devices (T40, T30-T32).

The moderator deals the 40 operational cards (the server shuffles them with the table's dice), places the corps and
names the first mover; north on a tablet (768×1024) and south on a phone (390 px) lay their terrain cards in turn,
each sees only their own hand and corps; north marks targets by tapping the map and rolls, ends its move; south
marches into contact and offers battle; north refuses (its corps are fresh, T32.1); both declare the night halt;
next day north offers, south accepts and north chooses the field. The moderator's page follows every act without
a reload. Then the stored state equals the engine's replay of the table's steps, and every march and offer the
engine run again on its stored dice.
"""
import pytest

from tests.browser.conftest import PHONE, TABLET, sign_in

pytestmark = pytest.mark.browser


def submit(page, selector):
    page.locator(selector).first.click()
    page.wait_for_load_state()


def follows(page, text):
    """The moderator's page shows `text` in its log without being reloaded (the table's version poll)."""
    page.locator("#tr-log", has_text=text).wait_for()


def mark(page, corps, cells):
    page.locator("#tr-target select[name=t-corps]").select_option(label=corps)
    page.locator("#tr-target [data-clear-path]").click()
    for cell in cells:
        page.locator(f"#tr-map td[data-cell={cell}]").click()
    assert page.input_value("#tr-target input[name=t-steps]") == " ".join(cells)
    submit(page, "#tr-target button[type=submit]")
    page.locator("#tr-move .tr-targets", has_text=corps).wait_for()


def test_two_players_manoeuvre_on_their_tablets(tactical_hall, new_page, artifacts):
    from larp.tables.models import Step
    from larp.tactical import services
    from larp.tactical import situation as sit

    game = tactical_hall
    shots = artifacts / "tactical"
    shots.mkdir(exist_ok=True)
    from django.contrib.auth import get_user_model
    mod_user = get_user_model().objects.get(username="tr-mod")
    table = services.create(game, "Манёвры у реки", [("north", "Север", game.factions.get(code="north")),
                                                      ("south", "Юг", game.factions.get(code="south"))], mod_user)
    where = f"/g/{game.pk}/tr/{table.pk}/manoeuvre/"

    mod = new_page(viewport={"width": 1280, "height": 1000})
    sign_in(mod, "tr-mod", "tr-mod-password-1")
    mod.goto(where)
    submit(mod, "#tr-deal button")
    for name, side, cell in (("Парменион", "north", "C4"), ("Кратер", "north", "A5"), ("Бодуэн", "south", "C1")):
        mod.fill("#tr-corps input[name=name]", name)
        mod.select_option("#tr-corps select[name=side]", side)
        mod.fill("#tr-corps input[name=cell]", cell)
        submit(mod, "#tr-corps button[type=submit]")

    tablet = new_page(viewport=TABLET)
    sign_in(tablet, "tr-north", "tr-north-password-1")
    tablet.goto(where)
    phone = new_page(viewport=PHONE)
    sign_in(phone, "tr-south", "tr-south-password-1")
    phone.goto(where)
    # the fog: each sees their own hand (the other's only counted) and their own corps
    table.refresh_from_db()
    hands = table.state["strategic"]["hands"]
    own = phone.locator("#tr-move .tr-hand", has_text="Мои карты").inner_text()
    russian = {c["id"]: c["ru"] for c in sit.RULES["cards"]}
    assert all(russian[c] in own for c in hands["south"])
    assert "Карты на руках: Север (6)" in phone.content() and "Парменион" not in phone.content()

    # the terrain cards laid in turn (T30.2): whoever's turn it is taps a free place on the map
    devices = {"north": tablet, "south": phone}
    free = [f"{col}{row}" for col in "DEB" for row in range(1, 6)]
    while True:
        table.refresh_from_db()
        layer = sit.next_layer(table.state["strategic"])
        if layer is None:
            break
        page = devices[layer]
        page.goto(where)
        page.locator(f"#tr-map td[data-cell={free[0]}]").click()
        assert page.input_value("#tr-lay input[name=l-cell]") == free.pop(0)
        submit(page, "#tr-lay button[type=submit]")
    follows(mod, "выкладывает карту")

    mod.reload()
    mod.select_option("#tr-first select[name=side]", "north")
    submit(mod, "#tr-first button[type=submit]")

    # day 1, north's move: targets marked by tapping the map, then one roll for both (T31.1)
    tablet.goto(where)
    assert "ваш ход" in tablet.locator("#tr-move").inner_text()
    mark(tablet, "Парменион", ["C3"])
    mark(tablet, "Кратер", ["A4"])
    assert "C3, цена 1" in tablet.locator("#tr-move").inner_text()
    tablet.screenshot(path=str(shots / "manoeuvre-tablet-targets.png"), full_page=True)
    submit(tablet, "#tr-roll button")
    follows(mod, "Переход корпуса «Кратер»")
    submit(tablet, "#tr-pass button")
    follows(mod, "Сторона «Север» заканчивает ход")

    # south's move on the phone: into contact, then the offer
    phone.goto(where)
    assert "Парменион" not in phone.content() and "Кратер" not in phone.content()
    mark(phone, "Бодуэн", ["C2"])
    submit(phone, "#tr-roll button")
    assert "Парменион (Север) — в соприкосновении" in phone.locator("#tr-map").inner_text()
    assert "Кратер" not in phone.content()
    submit(phone, "#tr-offer-battle button")
    mod.locator("#tr-offer", has_text="Сторона «Юг» предлагает сражение").wait_for()

    # north's tablet follows too: its corps are fresh, it may refuse (T32.1) — and does
    tablet.locator("#tr-answer button[value=refuse]:not([disabled])").wait_for()
    assert "может отказаться" in tablet.locator("#tr-offer").inner_text()
    submit(tablet, "#tr-answer button[value=refuse]")
    follows(mod, "Сторона «Север» отказывается от сражения")

    # the night: both declare the halt
    tablet.goto(where)
    assert "День 1: ночь" in tablet.content()
    submit(tablet, "#tr-halt button")
    phone.goto(where)
    submit(phone, "#tr-halt button")
    follows(mod, "Сторона «Юг» объявляет ночной привал")

    # day 2: north offers, south accepts, north (the attacker) chooses the field (T32.2)
    tablet.goto(where)
    assert "День 2, ходит: Север" in tablet.content()
    submit(tablet, "#tr-offer-battle button")
    phone.locator("#tr-answer button[value=accept]").wait_for()
    phone.screenshot(path=str(shots / "manoeuvre-phone-offer.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 2
    submit(phone, "#tr-answer button[value=accept]")
    tablet.locator("#tr-offer button", has_text="Сражаться здесь").first.wait_for()
    submit(tablet, "#tr-offer button:has-text('Сражаться здесь')")
    assert "Сражение идёт на картах" in tablet.content()
    mod.locator("#tr-map", has_text="Сражение идёт на картах").wait_for()
    follows(mod, "Поле сражения выбрано")
    tablet.screenshot(path=str(shots / "manoeuvre-tablet.png"), full_page=True)
    mod.screenshot(path=str(shots / "manoeuvre-moderator.png"), full_page=True)

    # the stored state is the engine's replay of the live steps; each march and offer is the engine's again
    table.refresh_from_db()
    steps = [s for s in Step.objects.filter(table=table).order_by("seq") if not s.undone]
    replayed = sit.replay(table.setup, [(s.kind, s.payload, s.outcome) for s in steps])
    assert replayed == table.state == services.replay_table(table)
    kinds = [s.kind for s in steps]
    assert kinds.count("march") == 3 and kinds.count("offer") == 2 and "answer" in kinds and kinds[-1] == "field"
    for i, s in enumerate(steps):
        before = sit.replay(table.setup, [(x.kind, x.payload, x.outcome) for x in steps[:i]])
        if s.kind == "march":
            assert sit.resolve_march(before, s.payload["march"], s.payload["dice"], None)[0] == s.outcome
            assert s.payload["by"]["server"] == s.payload["dice"]
        if s.kind == "offer":
            assert sit.offer(before, s.payload["side"]) == s.outcome
    m = table.state["strategic"]
    assert m["offer"]["answer"] == "accepted" and m["field"] is not None and m["move"]["day"] == 2
