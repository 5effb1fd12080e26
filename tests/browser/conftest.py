"""Browser tests: Playwright driving Debian's headless Chromium (never a downloaded browser).

The browser is Chromium's headless shell, Debian's package chromium-headless-shell: the build of Chromium that
Playwright itself runs for headless tests, the same Blink and V8 as the browser without its windowing layer.
Driven by the same tests it takes about a third of the CPU the full `chromium --headless` takes (the browser
tests are most of the suite's CPU on two cores); the full `chromium` is used when the shell is missing, or
whichever `CHROMIUM` names. `make test` installs both (scripts/services.sh chromium); without either these tests
fail with a line saying what to install (leave them out with `-m "not browser"`, as `make test-quick` does).
Screenshots go to test-artifacts/ (git-ignored).
"""
import os
import shutil
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-dev-shm-usage", "--enable-low-end-device-mode"]
TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), shutil.which("chromium-headless-shell"),
                      "/usr/bin/chromium-headless-shell", shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser(playwright_driver):
    """One Chromium per test module, launched by the process's Playwright driver (tests/conftest.py)."""
    path = chromium_path()
    if path is None:
        pytest.fail("Debian's chromium-headless-shell (or chromium) is not installed: install it "
                    "(scripts/services.sh chromium), or leave the "
                    "browser tests out with -m \"not browser\"", pytrace=False)
    browser = playwright_driver.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_page(browser, live_server):
    """new_page(viewport=TABLET, **context options) -> a page in a fresh context (own cookies), Russian."""
    contexts = []

    def make(viewport=None, **options):
        context = browser.new_context(viewport=viewport or TABLET, locale="ru-RU", base_url=live_server.url,
                                      **options)
        # Generous: a wait ends as soon as its condition holds, and the suite runs in parallel on two cores.
        context.set_default_timeout(30000)
        contexts.append(context)
        return context.new_page()

    yield make
    for c in contexts:
        c.close()


@pytest.fixture
def game_for(transactional_db):
    """game_for(strategy_seconds) -> (game, moderator, north player, join path): tiny scenario, Strategy running."""
    from django.urls import reverse

    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario
    from larp.tablet import services as tablet
    from larp.turns import services as turns

    made = []

    def make(strategy_seconds=300, start=True):
        n = len(made) + 1
        game = load_scenario("tiny", title=f"Browser game {n}", seed=7)
        game.rules = {**game.rules, "phase_seconds": {**game.rules.get("phase_seconds", {}),
                                                      "strategy": strategy_seconds}}
        game.save(update_fields=["rules"])
        mod, _ = add_moderator(game, f"mod{n}", password="mod-password-1")
        player, _ = create_player(game.factions.get(code="north"), f"north{n}", password="north-password-1")
        token = tablet.issue_code(mod, game, player)
        if start:
            turns.start_game(game, mod)
        made.append(game)
        return game, mod, player, reverse("tablet:join", args=[tablet.link(token)])

    return make


@pytest.fixture
def tactical_hall(transactional_db):
    """The tiny game with a moderator (tr-mod) and the players of north (tr-north) and south (tr-south), for a
    «Тактические правила» table; each password is the login followed by "-password-1"."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario

    game = load_scenario("tiny", title="Турнир на столе", seed=11)
    add_moderator(game, "tr-mod", password="tr-mod-password-1")
    create_player(game.factions.get(code="north"), "tr-north", password="tr-north-password-1")
    create_player(game.factions.get(code="south"), "tr-south", password="tr-south-password-1")
    return game


@pytest.fixture
def red_plains_hall(transactional_db):
    """The tiny game with a moderator (rp-mod) and the players of north (rp-north) and south (rp-south), for a
    Red Plains table; each password is the login followed by "-password-1"."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.scenarios.loader import load_scenario

    game = load_scenario("tiny", title="Вечер на равнине", seed=9)
    add_moderator(game, "rp-mod", password="rp-mod-password-1")
    create_player(game.factions.get(code="north"), "rp-north", password="rp-north-password-1")
    create_player(game.factions.get(code="south"), "rp-south", password="rp-south-password-1")
    return game


def fill_red_plains_battle(page, game, title, armies, numbers=None, names=("Клан Журавля", "Клан Скорпиона")):
    """The Red Plains «new battle» form as the moderator fills it (not sent): the title, the two sides' names and
    factions, numbers such as `{"south_messengers": 0}`, and each side's unit rows `(type, figures)` ("" for none)."""
    page.fill("input[name=title]", title)
    for side, name in zip(("north", "south"), names):
        page.fill(f"input[name={side}_name]", name)
        page.select_option(f"select[name={side}_faction]", label=game.factions.get(code=side).name)
    for field, value in (numbers or {}).items():
        page.fill(f"input[name={field}]", str(value))
    for side, army in armies.items():
        for i, (kind, figures) in enumerate(army, start=1):
            page.select_option(f"select[name={side}_type_{i}]", kind)
            page.fill(f"input[name={side}_figures_{i}]", str(figures or ""))


def engine_turn(game, number, folder):
    """(stored, expected): the turn's stored result, and `manage.py adjudicate turn` on the turn's case as the
    console put it together (its start, its orders, the dice and choices the console used)."""
    import json
    import subprocess
    import sys

    from larp.battles.models import TurnResolution
    from larp.turns.models import Turn

    turn = Turn.objects.get(game=game, number=number)
    resolution = TurnResolution.objects.get(turn=turn)
    case = dict(turn.start_state)
    case["orders"] = [o.payload for o in turn.orders.order_by("implicit", "filed_at", "id")]
    case["dice"], case["choices"], case["seed"] = resolution.dice, resolution.choices, None
    path = folder / f"turn-{number}.json"
    path.write_text(json.dumps(case, ensure_ascii=False), encoding="utf-8")
    run = subprocess.run([sys.executable, "manage.py", "adjudicate", "turn", str(path)],
                         cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return resolution.result, json.loads(run.stdout)


def roll_until_executed(page, limit=40):
    """Red Plains' moderator page: «Бросить на сервере» until the execution's next act («Исполнить») is offered.
    Each roll loads a new page; the next look waits for that page (one button or the other), so a page still
    loading is never taken for one without the button."""
    for _ in range(limit):
        page.locator("[data-execute], [data-exec-server]").first.wait_for()
        if page.locator("[data-execute]").count():
            return
        with page.expect_navigation():
            page.click("[data-exec-server]")
    raise AssertionError(f"no «execute» after {limit} server rolls")


def press(page, target):
    """Press something on a console page and wait for its answer: the page's part swapped in place (htmx), or a
    new page. `target`: a selector, a locator, or a function that presses (a key)."""
    page.wait_for_load_state()  # a page the last press navigated to: its own document, not the one it replaced
    swaps = page.evaluate("() => { window.__pressed = true; "
                          "return Number(document.documentElement?.dataset.swaps || 0); }")
    if callable(target):
        target()  # a key, say
    else:
        (page.locator(target) if isinstance(target, str) else target).click()
    page.wait_for_function("s => !window.__pressed || Number(document.documentElement?.dataset.swaps || 0) > s",
                           arg=swaps)
    page.wait_for_load_state()


def sign_in(page, username, password):
    """Sign in through the login page, as a person at the hall would."""
    page.goto("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    press(page, ".stack-form button.primary")


def finish_the_turn_through_the_pages(mod, game, mod_user, battles_url, turn, outcome) -> dict:
    """After a battle's table result is confirmed: the turn's other battles rolled on the battles page with typed
    dice, the regroup applied on its page; the stored result must equal `adjudicate turn` given the same dice and
    that battle's `outcome` (returned)."""
    from larp.battles import services as console
    from larp.engine import run_turn
    from larp.turns import services as turns

    rolls = []
    for _battle in range(10):
        nxt = console.current_result(game)[2].get("awaiting")
        if nxt is None:
            break
        mod.goto(battles_url)
        a = [6] * nxt["dice_count"]["attacker"]
        d = [2] * nxt["dice_count"]["defender"]
        for i, box in enumerate(mod.locator("input[name=attacker]").all()):
            box.fill(str(a[i]))
        for i, box in enumerate(mod.locator("input[name=defender]").all()):
            box.fill(str(d[i]))
        press(mod, "text=Подтвердить сражение")
        rolls.append({"attacker": a, "defender": d})
    mod.goto(battles_url)
    assert "Все сражения проведены" in mod.content()
    turns.next_phase(game, mod_user)                              # Regroup
    mod.goto(f"/g/{game.pk}/console/regroup/")
    press(mod, "form[action$='regroup/apply'] button.primary")
    assert "Перегруппировка применена" in mod.content()

    case = dict(turn.start_state)
    case["orders"] = [o.payload for o in turn.orders.order_by("implicit", "filed_at", "id")]
    case["dice"] = rolls
    case["choices"] = {"outcomes": [outcome]}
    expected = run_turn(case)
    _turn, _res, result = console.current_result(game)
    assert result["state"] == expected["state"] and result["recoloured"] == expected["recoloured"]
    assert expected["fought"][outcome["battle"] - 1]["outside"] is True
    return expected


def latin_turn_one(title: str, moderator: str, password: str):
    """The default scenario started with the console tests' draw and seven attacks filed by their factions'
    players (tests/battles/test_console_flow.py): (game, moderator user), Strategy still open."""
    from larp.campaign.services.members import add_moderator, create_player
    from larp.orders.services import file_order
    from larp.scenarios.loader import load_scenario
    from larp.turns import services as turns
    from tests.battles.test_console_flow import DRAW, ORDERS

    game = load_scenario("latin-east-1204", title=title, seed=1204)
    mod, _ = add_moderator(game, moderator, password=password)
    turns.enter_draw(game, mod, DRAW)
    turns.start_game(game, mod)
    players = {}
    for faction, unit, order in ORDERS:
        if faction not in players:
            players[faction], _ = create_player(game.factions.get(code=faction), f"p-{faction}")
        file_order(players[faction], game, unit, order)
    return game, mod
