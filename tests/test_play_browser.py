"""The page of ``dungeon-env play`` in a real headless Chromium (Debian's ``/usr/bin/chromium`` and
``/usr/bin/chromedriver``, driven by Selenium; Selenium Manager never runs).

Three heroes on one hot-seat link play ``tests/data/short_walk.toml`` to its end against the scripted
DM by clicking the board's highlighted squares and the choice buttons, with the fog checked at every
decision (room A, its orc and its trap never reach the page); the replay viewer opens a saved game
from the file input and steps through it as the heroes and as the DM; the host's page lists the
links and the saved games and loads one; Save and a refusal show their messages; a square two
choices point at asks which. Screenshots go to ``$PLAY_SCREENSHOT_DIR`` (or the test's tmp dir).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
    pytest.skip(
        "the browser tests need Debian's chromium and chromedriver: /usr/bin/chromium, /usr/bin/chromedriver",
        allow_module_level=True,
    )
webdriver = pytest.importorskip("selenium.webdriver", reason="the browser tests need selenium")
pytest.importorskip("uvicorn", reason="the browser tests need the play extra (starlette, uvicorn)")

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from play.server import BackgroundServer  # noqa: E402
from play.table import Table  # noqa: E402

ADVENTURE = str(Path(__file__).parent / "data" / "short_walk.toml")
HEROES = ["bram", "sela", "orwin"]
HUMANS = {"hero_0": "human", "hero_1": "human", "hero_2": "human"}
SEED = 7
EXIT = (6, 2)
ROOM_A = [(x, y) for x in range(1, 6) for y in range(1, 6)]
WAIT = 15  # seconds for anything the page should show

# What the page holds that the heroes must not know while room A is in the fog (one call per decision).
FOG_PROBE = """
const unknown = [];
for (const [x, y] of arguments[0]) {
  const sq = document.querySelector(`#board rect.sq[data-x="${x}"][data-y="${y}"]`);
  unknown.push(!!sq && sq.dataset.known === "false" && sq.classList.contains("fog"));
}
return {
  squares: document.querySelectorAll("#board rect.sq").length,
  unknown: unknown,
  orcs: document.querySelectorAll('[data-kind="orc"]').length,
  traps: document.querySelectorAll(".trap, [data-kind='trap']").length,
  html_has_orc: document.documentElement.outerHTML.includes("Orc"),
};
"""


@pytest.fixture
def driver(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
    ):
        options.add_argument(arg)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # an explicit driver path: Selenium Manager (which could download a driver) never runs
    chrome = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    chrome.set_page_load_timeout(30)
    yield chrome
    with contextlib.suppress(Exception):
        chrome.quit()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("PLAY_SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _table(saves: Path) -> Table:
    return Table(adventure=ADVENTURE, heroes=HEROES, seats=dict(HUMANS), seed=SEED, saves=saves)


@contextlib.contextmanager
def _serving(table: Table, driver):
    """The table served; the browser quits before the server stops (that closes the page's long
    poll, so the server stops at once: Chromium keeps a pending poll's connection open after
    navigating away)."""
    with BackgroundServer(table, delay=0.05) as url:
        try:
            yield url
        finally:
            driver.quit()


def _console_errors(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def _wait(driver, condition, message: str, timeout: float = WAIT):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(condition, message)


def _page_state(driver) -> dict:
    """The version drawn, whether this page has choices now, whether the end screen is up."""
    return driver.execute_script(
        "return {version: document.body.dataset.version,"
        " choices: document.querySelectorAll('#choices button.choice:not([disabled])').length,"
        " end: !document.getElementById('end').hidden};"
    )


def _ready(driver):
    """The page is ready for a click (its choices are drawn) or the game is over."""
    state = _page_state(driver)
    return state if state["choices"] or state["end"] else False


def _distance(square) -> int:
    return abs(square[0] - EXIT[0]) + abs(square[1] - EXIT[1])


# The page drew a new decision, or showed a refusal.
MOVED = "return document.body.dataset.version !== arguments[0] || !document.getElementById('error').hidden;"

# What the policy reads from the page in one call: the acting figure's square, the highlighted
# squares (moves) and the choice buttons' texts and actions.
PICK_PROBE = """
const acting = document.querySelector("#board g.figure[data-acting='true']");
return {
  here: acting ? [Number(acting.dataset.x), Number(acting.dataset.y)] : null,
  squares: [...document.querySelectorAll("#board rect.target[data-kind='move']")].map(
    (t) => [Number(t.dataset.x), Number(t.dataset.y)]),
  buttons: [...document.querySelectorAll("#choices button.choice")].map(
    (b) => [b.dataset.action, b.lastChild.textContent]),
};
"""


def _pick(driver):
    """The policy: the highlighted square nearest the exit if it is nearer than the acting hero, else
    the first button that ends the step ("End ...", "Done: ...", "... stays put"). Deterministic.
    Returns what to click (a board square or a button) and its CSS selector."""
    seen = driver.execute_script(PICK_PROBE)
    if seen["here"] is not None:
        nearer = [sq for sq in seen["squares"] if _distance(sq) < _distance(seen["here"])]
        if nearer:
            x, y = min(nearer, key=_distance)
            return "square", (x, y), f"#board rect.target[data-x='{x}'][data-y='{y}']"
    for wanted in (
        lambda text: text.startswith("End "),
        lambda text: text.startswith("Done"),
        lambda text: "stays put" in text,
    ):
        for action, text in seen["buttons"]:
            if wanted(text):
                return "button", text, f"#choices button.choice[data-action='{action}']"
    raise AssertionError(f"the policy has nothing to click among {seen['buttons']}")


def test_heroes_play_the_short_walk_by_clicking(driver, tmp_path, shots):
    table = _table(tmp_path / "saves")
    with _serving(table, driver) as url:
        driver.get(url + table.links()["hot seat"])
        _wait(driver, _ready, "the page never offered a choice")
        board = driver.find_element(By.ID, "board")
        assert board.get_attribute("data-width") == "24" and board.get_attribute("data-height") == "28"
        xs = {
            int(e)
            for e in driver.execute_script(
                "return [...document.querySelectorAll('#board rect.sq')].map(r => r.dataset.x)"
            )
        }
        ys = {
            int(e)
            for e in driver.execute_script(
                "return [...document.querySelectorAll('#board rect.sq')].map(r => r.dataset.y)"
            )
        }
        assert xs == set(range(24)) and ys == set(range(28))
        header = driver.find_element(By.ID, "top").text
        assert "A Short Walk" in header and "1 / 100" in header and "Bram, Sela, Orwin" in header
        assert driver.find_element(By.ID, "rules-link").get_attribute("href").endswith("/rules")

        clicks, squares, shot_taken = 0, 0, False
        while True:
            state = _wait(driver, _ready, f"the page was stuck after {clicks} clicks")
            probe = driver.execute_script(FOG_PROBE, ROOM_A)
            assert probe["squares"] == 24 * 28
            assert all(probe["unknown"]), "room A must be drawn as fog"
            assert probe["orcs"] == 0 and probe["traps"] == 0 and not probe["html_has_orc"], probe
            if state["end"]:
                break
            kind, what, selector = _pick(driver)
            if kind == "square":
                squares += 1
            driver.find_element(By.CSS_SELECTOR, selector).click()
            clicks += 1
            assert clicks < 80, "the short walk should end in well under 80 clicks"
            _wait(driver, lambda d, v=state["version"]: d.execute_script(MOVED, v), f"nothing after {what}")
            error = driver.execute_script(
                "const e = document.getElementById('error'); return e.hidden ? '' : e.textContent"
            )
            assert error == "", error
            if clicks == 12 and not shot_taken:
                driver.save_screenshot(str(shots / "play-mid-game.png"))
                shot_taken = True
                story = driver.find_element(By.ID, "story-lines")
                assert "Turn 1" in story.text and "moves to" in story.text

        assert squares >= 7, "the heroes walked by clicking highlighted squares"
        end = driver.find_element(By.ID, "end")
        assert end.is_displayed()
        assert driver.find_element(By.ID, "end-title").text == "Completed"
        assert "left the dungeon" in driver.find_element(By.ID, "end-reason").text
        objectives = driver.find_elements(By.CSS_SELECTOR, "#end-objectives li")
        assert [o.get_attribute("data-met") for o in objectives] == ["true"]
        assert "Leave by the stair" in objectives[0].text and "not met" not in objectives[0].text
        driver.save_screenshot(str(shots / "play-end.png"))
        assert table.over and table.game.outcome == "completed"
        # the story's last lines reached the page
        assert "completed" in driver.find_element(By.ID, "story-lines").text
        errors = _console_errors(driver)
    assert errors == []


def _finished_game(saves: Path) -> tuple[Table, Path]:
    """The short walk played to its end through the table (the policy of the clicking test)."""
    table = _table(saves)
    while not table.over:
        if table.step_ai():
            continue
        view = table.view(table.hot_seat)
        here = next(f["at"] for f in view["figures"] if f["acting"])
        choices = view["decision"]["choices"]
        steps = [c for c in choices if c["kind"] == "move" and _distance(c["square"]) < _distance(here)]
        ends = [c for c in choices if c["text"].startswith(("End ", "Done")) or "stays put" in c["text"]]
        table.act(table.hot_seat, view["version"], (steps or ends)[0]["action"])
    return table, table.save("short-walk.json")


def _step_shown(driver, step: int, side: str):
    return _wait(
        driver,
        lambda d: (
            d.find_element(By.ID, "layout").get_attribute("data-step") == str(step)
            and d.find_element(By.ID, "layout").get_attribute("data-side") == side
        ),
        f"step {step} ({side}) was not drawn",
    )


def test_replay_viewer_steps_through_a_saved_game(driver, tmp_path, shots):
    table, path = _finished_game(tmp_path / "saves")
    with _serving(table, driver) as url:
        driver.get(url + "/replay")
        driver.find_element(By.ID, "replay-file").send_keys(str(path.resolve()))
        _wait(
            driver,
            lambda d: d.find_element(By.ID, "replay-controls").is_displayed(),
            "the replay did not open",
        )
        _step_shown(driver, 0, "heroes")
        steps = table.version
        assert driver.find_element(By.ID, "step-label").text == f"Step 0 of {steps}"
        assert driver.find_element(By.ID, "step-slider").get_attribute("max") == str(steps)
        probe = driver.execute_script(FOG_PROBE, ROOM_A)
        assert all(probe["unknown"]) and probe["orcs"] == 0 and probe["traps"] == 0

        driver.find_element(By.ID, "step-forward").click()
        _step_shown(driver, 1, "heroes")
        driver.find_element(By.ID, "step-forward").click()
        _step_shown(driver, 2, "heroes")
        driver.find_element(By.ID, "step-back").click()
        _step_shown(driver, 1, "heroes")
        assert driver.find_element(By.ID, "step-label").text == f"Step 1 of {steps}"
        driver.find_element(By.ID, "step-back").click()
        _step_shown(driver, 0, "heroes")
        assert not driver.find_element(By.ID, "step-back").is_enabled()

        # the DM's view of step 0: room A, its orc and its undetected trap
        driver.find_element(By.ID, "side-dm").click()
        _step_shown(driver, 0, "dm")
        waiting = "#board g.figure[data-kind='orc'][data-status='waiting']"
        orcs = driver.find_elements(By.CSS_SELECTOR, waiting)
        assert [(o.get_attribute("data-x"), o.get_attribute("data-y")) for o in orcs] == [("4", "4")]
        traps = driver.find_elements(By.CSS_SELECTOR, "#board g.trap[data-detected='false']")
        assert [(t.get_attribute("data-x"), t.get_attribute("data-y")) for t in traps] == [("3", "2")]
        assert driver.find_element(By.CSS_SELECTOR, "#legend [data-kind='orc']").text.endswith("Orc Warrior")
        # and back to the heroes' view: gone again
        driver.find_element(By.ID, "side-heroes").click()
        _step_shown(driver, 0, "heroes")
        assert driver.find_elements(By.CSS_SELECTOR, "[data-kind='orc']") == []

        # jump to the last turn, then the slider's end: the outcome and the whole story
        turns = Select(driver.find_element(By.ID, "turn-select"))
        last = turns.options[-1]
        first_step = int(last.get_attribute("value"))
        turns.select_by_index(len(turns.options) - 1)
        _step_shown(driver, first_step, "heroes")
        assert "Turn" in last.text
        driver.execute_script(
            "const s = document.getElementById('step-slider'); s.value = s.max;"
            " s.dispatchEvent(new Event('input', {bubbles: true}));"
        )
        _step_shown(driver, steps, "heroes")
        assert driver.find_element(By.ID, "end").is_displayed()
        assert driver.find_element(By.ID, "end-title").text == "Completed"
        assert "adventure is completed" in driver.find_element(By.ID, "story-lines").text
        driver.save_screenshot(str(shots / "play-replay.png"))
        errors = _console_errors(driver)
    assert errors == []


def test_host_page_links_saves_load_and_refusals(driver, tmp_path):
    saves = tmp_path / "saves"
    _finished_game(saves)
    table = _table(saves)
    with _serving(table, driver) as url:
        driver.get(url + table.links()["host"])
        _wait(
            driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#saved-games button.load"), "no saved games"
        )
        # the host sees the DM's view: the orc in room A, read only (no choices)
        assert driver.find_elements(By.CSS_SELECTOR, "#board g.figure[data-kind='orc']")
        assert driver.find_elements(By.CSS_SELECTOR, "#choices button") == []
        hrefs = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#seat-links a")]
        expected = [url + path for name, path in table.links().items() if name != "host"]
        assert sorted(hrefs) == sorted(expected)
        assert "played by the AI: scripted" in driver.find_element(By.ID, "seat-links").text

        # Load continues the finished game: the page follows it to its end screen
        driver.find_element(By.CSS_SELECTOR, "#saved-games button.load[data-file='short-walk.json']").click()
        _wait(
            driver,
            lambda d: "Loaded short-walk.json" in d.find_element(By.ID, "load-msg").text,
            "no load message",
        )
        _wait(
            driver,
            lambda d: d.find_element(By.ID, "end").is_displayed(),
            "the loaded game's end was not shown",
        )
        assert driver.find_element(By.ID, "end-title").text == "Completed"
        assert _console_errors(driver) == []

        # a seat's page: Save says where the file went; a refused action is shown, not swallowed
        driver.get(url + table.links()["hero_0"])
        _wait(driver, lambda d: d.find_element(By.ID, "end").is_displayed(), "the seat page missed the end")
        driver.find_element(By.ID, "end-close").click()
        driver.find_element(By.ID, "save").click()
        _wait(driver, lambda d: d.find_element(By.ID, "save-msg").is_displayed(), "no save message")
        message = driver.find_element(By.ID, "save-msg").text
        assert message.startswith("Saved as game-") and message.endswith("on the host's disk")
        assert len(table.saved_games()) == 2
        driver.execute_script("act(5)")  # what a click on a choice does
        _wait(driver, lambda d: d.find_element(By.ID, "error").is_displayed(), "the refusal was not shown")
        assert "the adventure is over" in driver.find_element(By.ID, "error").text


def test_two_choices_on_one_square_ask_which(driver, tmp_path):
    """A highlighted square two choices point at opens a menu of both (here the page is given a
    second choice on Bram's west square: "End" with that square); the one picked is sent."""
    table = _table(tmp_path / "saves")
    with _serving(table, driver) as url:
        driver.get(url + table.links()["hot seat"])
        _wait(driver, _ready, "the page never offered a choice")
        driver.execute_script(
            "const v = structuredClone(page.view);"
            " const end = v.decision.choices.find(c => c.text.startsWith('End '));"
            " end.square = [0, 0]; drawView(v);"
        )
        target = driver.find_element(By.CSS_SELECTOR, "#board rect.target[data-x='0'][data-y='0']")
        assert target.get_attribute("data-actions") == "3,13"
        target.click()
        menu = driver.find_element(By.ID, "square-menu")
        _wait(driver, lambda d: menu.is_displayed(), "no menu for a square with two choices")
        options = [b.text for b in menu.find_elements(By.CSS_SELECTOR, "button.square-choice")]
        assert options == ["Step west (0,0)", "End Bram Ironhide's movement"]
        assert table.version == 0  # nothing sent yet
        menu.find_element(By.CSS_SELECTOR, "button.square-choice[data-action='13']").click()
        _wait(driver, lambda d: d.execute_script("return document.body.dataset.version") == "1", "not sent")
        assert table.version == 1 and table.game.decision[1] == 1  # Sela's movement now
        assert not menu.is_displayed()
        # the keyboard: "1" plays the first choice button
        driver.find_element(By.TAG_NAME, "body").send_keys("1")
        _wait(driver, lambda d: d.execute_script("return document.body.dataset.version") == "2", "no key")
        assert _console_errors(driver) == []


# ------------------------------------------------------------------------ issue 49: every choice explained
TRAP_AT = (0, 0)  # corridor a, west of Bram's start square (1, 0)


def _trap_table(tmp_path: Path, detected: bool = True) -> Table:
    """The short walk with one more trap, on (0, 0) next to Bram, detected by the heroes."""
    text = Path(ADVENTURE).read_text().replace('id = "short_walk"', 'id = "short_walk_trap"')
    text += '\n[[trap]]\nat = [0, 0]\nname = "rusty spikes"\neffect = { kind = "damage", amount = 1 }\n'
    path = tmp_path / "short_walk_trap.toml"
    path.write_text(text)
    table = Table(adventure=str(path), heroes=HEROES, seats=dict(HUMANS), seed=SEED, saves=tmp_path / "saves")
    game = table.game
    k = [tuple(t.at) for t in game.tables.adventure.traps].index(TRAP_AT)
    game.state.trap_detected[k] = detected
    game.state_edited()
    return table


def _confirm_shown(driver) -> bool:
    return driver.find_element(By.ID, "confirm").is_displayed()


def test_a_step_onto_a_known_trap_is_sent_only_after_confirming(driver, tmp_path):
    table = _trap_table(tmp_path)
    with _serving(table, driver) as url:
        driver.get(url + table.links()["hot seat"])
        _wait(driver, _ready, "the page never offered a choice")
        button = driver.find_element(By.CSS_SELECTOR, "#choices button.choice[data-warning='true']")
        assert "Step west onto the trap at (0,0)" in button.text and "rusty spikes, 1 damage" in button.text
        assert "warn" in button.get_attribute("class").split()

        # the board square: the dialog asks; Cancel sends nothing
        driver.find_element(By.CSS_SELECTOR, "#board rect.target[data-x='0'][data-y='0']").click()
        _wait(driver, _confirm_shown, "no confirmation for a step onto a known trap")
        assert "rusty spikes" in driver.find_element(By.ID, "confirm-warning").text
        assert "Step west onto the trap" in driver.find_element(By.ID, "confirm-choice").text
        driver.find_element(By.ID, "confirm-no").click()
        assert not _confirm_shown(driver)
        # the button, then Escape: still nothing sent
        button.click()
        _wait(driver, _confirm_shown, "no confirmation from the choice button")
        driver.find_element(By.TAG_NAME, "body").send_keys("\ue00c")  # Escape
        _wait(driver, lambda d: not _confirm_shown(d), "Escape did not cancel")
        assert table.version == 0 and table.game.xy(int(table.game.state.unit_pos[0])) == (1, 0)

        # confirmed: sent, and the trap springs on Bram
        button.click()
        _wait(driver, _confirm_shown, "no confirmation the third time")
        driver.find_element(By.ID, "confirm-yes").click()
        _wait(driver, lambda d: d.execute_script("return document.body.dataset.version") == "1", "not sent")
        assert table.game.xy(int(table.game.state.unit_pos[0])) == TRAP_AT
        assert "springs a trap (rusty spikes)" in driver.find_element(By.ID, "story-lines").text
        # an ordinary step asks nothing
        step = driver.find_element(
            By.CSS_SELECTOR, "#choices button.choice[data-kind='move']:not([data-warning])"
        )
        step.click()
        _wait(driver, lambda d: d.execute_script("return document.body.dataset.version") == "2", "not sent")
        assert not _confirm_shown(driver)
        assert _console_errors(driver) == []


def test_an_undetected_trap_gives_a_hero_seat_no_warning(driver, tmp_path):
    table = _trap_table(tmp_path, detected=False)
    with _serving(table, driver) as url:
        driver.get(url + table.links()["hot seat"])
        _wait(driver, _ready, "the page never offered a choice")
        texts = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#choices button.choice")]
        assert any(t.endswith("Step west (0,0)") for t in texts), texts
        assert driver.find_elements(By.CSS_SELECTOR, "[data-warning]") == []
        assert "rusty" not in driver.page_source


def _chip(driver, name: str):
    return driver.find_element(By.XPATH, f"//button[contains(@class,'card-chip') and text()={name!r}]")


def _pop(driver) -> str:
    pop = driver.find_element(By.ID, "card-pop")
    return pop.text if pop.is_displayed() else ""


def test_items_spells_and_abilities_show_their_card_text(driver, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains

    from tests.builders import give_item

    table = _table(tmp_path / "saves")
    give_item(table.game, 0, "healing_potion", known=True)
    give_item(table.game, 0, "greater_healing_potion", known=False)
    with _serving(table, driver) as url:
        driver.get(url + table.links()["hot seat"])
        _wait(driver, _ready, "the page never offered a choice")
        potion = _chip(driver, "Potion of Healing")
        # hover shows the card, leaving hides it
        ActionChains(driver).move_to_element(potion).perform()
        _wait(driver, lambda d: "regains 4 Health" in _pop(d), "no card text on hover")
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "decision-title")).perform()
        _wait(driver, lambda d: _pop(d) == "", "the hover card stayed")
        # a click (a tap) keeps it shown; a click elsewhere hides it
        potion.click()
        _wait(
            driver,
            lambda d: "Potion of Healing" in _pop(d) and "regains 4 Health" in _pop(d),
            "no card on click",
        )
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "decision-title")).perform()
        assert "regains 4 Health" in _pop(driver)
        driver.find_element(By.ID, "decision-title").click()
        _wait(driver, lambda d: _pop(d) == "", "a click elsewhere did not hide the card")
        # a face-down card shows the placeholder's words, never the card's
        _chip(driver, "a face-down potions card").click()
        _wait(driver, lambda d: "have not seen" in _pop(d), "no text for a face-down card")
        assert "Greater Healing" not in driver.page_source
        # a spell and an ability
        _chip(driver, "Arcane Bolt").click()
        _wait(driver, lambda d: "dart of force" in _pop(d) and "level 1" in _pop(d), "no spell text")
        _chip(driver, "Stand Fast").click()
        _wait(driver, lambda d: "Stand Fast" in _pop(d) and len(_pop(d)) > 20, "no ability text")
        assert _console_errors(driver) == []


SQUARE_WIDTH = "return document.querySelector('#board rect.sq').getBoundingClientRect().width"


def _square_px(driver) -> float:
    return driver.execute_script(SQUARE_WIDTH)


def _viewport(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    driver.execute_script("window.dispatchEvent(new Event('resize'))")


# The acting figure's token is inside the board's visible part.
ACTING_IN_SIGHT = """
const token = document.querySelector("#board g.figure[data-acting='true'] circle.hero-token");
const fig = token.getBoundingClientRect();
const view = document.getElementById("board-view").getBoundingClientRect();
return fig.left >= view.left && fig.right <= view.right && fig.top >= view.top && fig.bottom <= view.bottom;
"""


def test_the_board_fills_the_window_and_zooms(driver, tmp_path):
    table = Table(adventure="flooded_cellar", heroes=HEROES, seats=dict(HUMANS), seed=SEED, saves=tmp_path)
    with _serving(table, driver) as url:
        _viewport(driver, 1024, 700)
        driver.get(url + table.links()["hot seat"])
        _wait(driver, _ready, "the page never offered a choice")
        small = _square_px(driver)
        assert small >= 30, f"a square is {small} px at 1024x700"
        assert driver.execute_script(ACTING_IN_SIGHT), "the figure asked to act is out of sight"
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 1024
        _viewport(driver, 1920, 1080)
        _wait(driver, lambda d: _square_px(d) > small, "the board did not grow with the window")
        large = _square_px(driver)
        board = driver.find_element(By.ID, "board").rect
        view = driver.find_element(By.ID, "board-view").rect
        assert board["height"] <= view["height"] + 1 and board["width"] <= view["width"] + 1, "all in sight"
        assert large * 28 >= 0.8 * (1080 - 66), "the board takes the window's height"
        # zoom in, out and back to the whole board
        driver.find_element(By.ID, "zoom-in").click()
        assert _square_px(driver) == pytest.approx(large * 1.25, rel=0.02)
        assert driver.find_element(By.ID, "zoom-label").text == f"{round(large * 1.25)} px"
        driver.find_element(By.ID, "zoom-out").click()
        driver.find_element(By.ID, "zoom-out").click()
        assert _square_px(driver) == pytest.approx(large / 1.25, rel=0.02)
        driver.find_element(By.ID, "zoom-fit").click()
        assert _square_px(driver) == pytest.approx(large, rel=0.02)
        assert _console_errors(driver) == []


# Every label's box: [left, top, right, bottom] and its square's [left, right].
LABELS = """
return [...document.querySelectorAll("#board text.hero-name")].map((t) => {
  const b = t.getBoundingClientRect();
  const g = t.closest("g.figure");
  const sq = document.querySelector(`#board rect.sq[data-x="${g.dataset.x}"][data-y="${g.dataset.y}"]`);
  const s = sq.getBoundingClientRect();
  return [b.left, b.top, b.right, b.bottom, s.left, s.right];
});
"""


def test_hero_labels_never_overlap(driver, tmp_path):
    """Gunnhild, Ysolde and Corvin side by side in corridor a: each name stays in its own square."""
    heroes = ["gunnhild", "ysolde", "corvin"]
    table = Table(adventure=ADVENTURE, heroes=heroes, seats=dict(HUMANS), seed=SEED, saves=tmp_path)
    with _serving(table, driver) as url:
        driver.get(url + table.links()["hot seat"])
        _wait(driver, _ready, "the page never offered a choice")
        for zoom in ("zoom-fit", "zoom-out", "zoom-in"):
            driver.find_element(By.ID, zoom).click()
            boxes = driver.execute_script(LABELS)
            assert len(boxes) == 3
            for left, _top, right, _bottom, sq_left, sq_right in boxes:
                assert sq_left - 0.5 <= left and right <= sq_right + 0.5, (zoom, boxes)
            for k, a in enumerate(boxes):
                for b in boxes[k + 1 :]:
                    apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
                    assert apart, (zoom, a, b)
        assert _console_errors(driver) == []


# Each door's drawing: its shapes and colours.
DOORS = """
return [...document.querySelectorAll("#board g.door")].map((g) => {
  const panel = g.querySelector(".door-panel");
  const leaf = g.querySelector(".leaf");
  return {
    open: g.dataset.open,
    panel: panel ? getComputedStyle(panel).fill : null,
    leaf: leaf ? getComputedStyle(leaf).stroke : null,
    sill: !!g.querySelector(".sill"),
  };
});
"""


def test_open_and_closed_doors_look_different(driver, tmp_path):
    table = Table(adventure="flooded_cellar", heroes=HEROES, seats=dict(HUMANS), seed=SEED, saves=tmp_path)
    with _serving(table, driver) as url:
        driver.get(url + table.links()["hot seat"])
        _wait(driver, _ready, "the page never offered a choice")
        closed = driver.execute_script(DOORS)
        assert closed and all(d["open"] == "false" and d["panel"] and not d["leaf"] for d in closed)
        # the same page with its first door open (as the server sends it once opened)
        driver.execute_script(
            "const v = structuredClone(page.view); v.board.doors[0].open = true; drawView(v);"
        )
        doors = driver.execute_script(DOORS)
        opened = [d for d in doors if d["open"] == "true"]
        assert len(opened) == 1 and opened[0]["leaf"] and opened[0]["sill"] and not opened[0]["panel"]
        assert opened[0]["leaf"] != closed[0]["panel"], "an open door has its own colour"
        legend = driver.find_element(By.ID, "legend").text
        assert "Closed door" in legend and "Open door" in legend
        assert _console_errors(driver) == []
