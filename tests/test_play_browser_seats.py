"""Seats in a real headless Chromium (the set-up of ``tests/test_play_browser.py``): a game saved from
a seat's page and continued with ``dungeon-env play --load`` (the CLI's own ``table_of``) keeps the
seats it was saved with, and a ``--seat`` given with ``--load`` replaces that seat only (issue 49);
the page at ``/`` says how to join without a seat's link.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from tests.test_play_browser import ADVENTURE, CHROMEDRIVER, CHROMIUM, HEROES, _console_errors, _wait

webdriver = pytest.importorskip("selenium.webdriver", reason="the browser tests need selenium")

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from play.cli import override_lines, table_of  # noqa: E402
from play.server import RULES, BackgroundServer  # noqa: E402
from play.table import Table  # noqa: E402

SEED = 11


class _Browsers:
    """Headless Chromiums, one per server: a page's pending long poll keeps its server from stopping
    at once, so each browser quits before its server stops (``close``)."""

    def __init__(self, profiles) -> None:
        self.profiles, self.opened = profiles, []

    def __call__(self):
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
            options.add_argument(arg)
        for arg in ("--no-first-run", "--disable-background-networking", "--window-size=1400,1000"):
            options.add_argument(arg)
        options.add_argument(f"--user-data-dir={self.profiles.mktemp('chromium-profile')}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # an explicit driver path: Selenium Manager (which could download a driver) never runs
        chrome = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
        chrome.set_page_load_timeout(30)
        self.opened.append(chrome)
        return chrome

    def close(self, chrome) -> None:
        if chrome in self.opened:
            self.opened.remove(chrome)
            with contextlib.suppress(Exception):
                chrome.quit()


@pytest.fixture
def browsers(tmp_path_factory):
    """``browsers()`` starts a headless Chromium; every one still open quits at the end."""
    started = _Browsers(tmp_path_factory)
    yield started
    for chrome in list(started.opened):
        started.close(chrome)


@contextlib.contextmanager
def _serving(table: Table, browsers: _Browsers, delay: float):
    """The table served and a browser for it, which quits before the server stops."""
    browser = browsers()
    with BackgroundServer(table, delay=delay) as url:
        try:
            yield url, browser
        finally:
            browsers.close(browser)


def _saved_from_the_dm_page(browsers: _Browsers, saves: Path) -> tuple[Table, Path]:
    """A game with a human DM and scripted heroes, saved by the DM page's Save button once the
    heroes have played a few actions."""
    table = Table(adventure=ADVENTURE, heroes=HEROES, seats={"dm": "human"}, seed=SEED, saves=saves)
    with _serving(table, browsers, delay=0.2) as (url, browser):
        browser.get(url + table.links()["dm"])
        _wait(
            browser,
            lambda d: int(d.execute_script("return document.body.dataset.version || 0")) >= 3,
            "no moves",
        )
        browser.find_element(By.ID, "save").click()
        _wait(browser, lambda d: d.find_element(By.ID, "save-msg").is_displayed(), "no save message")
        assert browser.find_element(By.ID, "save-msg").text.startswith("Saved as game-")
        assert _console_errors(browser) == []
    (name,) = table.saved_games()
    return table, saves / name


def _resume(path: Path, *seats: str) -> Table:
    """``dungeon-env play --load PATH [--seat S ...]``: the table the CLI starts."""
    from difficulty.cli import build_parser

    argv = ["play", "--load", str(path), "--saves", str(path.parent), "--no-browser"]
    for seat in seats:
        argv += ["--seat", seat]
    return table_of(build_parser().parse_args(argv))


def _seat_rows(browser) -> tuple[list[str], list[str]]:
    """The host page's seats: those with a link, and the AI seats' lines."""
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#seat-links li"), "no seats on the host page")
    rows = browser.find_elements(By.CSS_SELECTOR, "#seat-links li[data-seat]:not(.ai-seat)")
    linked = [li.get_attribute("data-seat") for li in rows]
    ai = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#seat-links li.ai-seat")]
    return linked, ai


def _home_seats(browser, url: str) -> dict[str, str]:
    browser.get(url + "/")
    return {
        li.get_attribute("data-seat"): li.get_attribute("data-agent")
        for li in browser.find_elements(By.CSS_SELECTOR, "#seats li")
    }


def test_a_game_saved_with_a_human_dm_comes_back_with_its_seats(browsers, tmp_path):
    table, path = _saved_from_the_dm_page(browsers, tmp_path)
    resumed = _resume(path)
    assert resumed.seat_agents() == {
        "hero_0": "scripted",
        "hero_1": "scripted",
        "hero_2": "scripted",
        "dm": "human",
    }
    assert override_lines(resumed) == []
    with _serving(resumed, browsers, delay=60) as (url, browser):  # the AI heroes wait: the page holds still
        browser.get(url + resumed.links()["dm"])
        _wait(
            browser,
            lambda d: d.find_element(By.ID, "st-seats").text == "the Dungeon Master",
            "not the DM seat",
        )
        assert int(browser.execute_script("return document.body.dataset.version")) == resumed.version >= 3
        if resumed.game.agent != "dm":
            title = browser.find_element(By.ID, "decision-title").text
            assert title.startswith("Waiting for") and title.endswith("(AI)…"), title
        browser.get(url + resumed.links()["host"])
        linked, ai = _seat_rows(browser)
        assert linked == ["dm"]
        assert len(ai) == 3 and all(line.startswith(f"hero_{k} (") for k, line in enumerate(ai))
        assert all("played by the AI: scripted" in line for line in ai)
        home = _home_seats(browser, url)
        assert home == {"hero_0": "scripted", "hero_1": "scripted", "hero_2": "scripted", "dm": "human"}
        assert _console_errors(browser) == []


def test_a_seat_given_with_load_replaces_that_seat_only(browsers, tmp_path):
    table, path = _saved_from_the_dm_page(browsers, tmp_path)
    resumed = _resume(path, "dm=scripted", "hero_1=human")
    assert override_lines(resumed) == [
        "hero_1: scripted in the save, human now (--seat)",
        "dm: human in the save, scripted now (--seat)",
    ]
    with _serving(resumed, browsers, delay=60) as (url, browser):
        browser.get(url + resumed.links()["hero_1"])
        hero = resumed.game.card(1).name
        _wait(browser, lambda d: d.find_element(By.ID, "st-seats").text == hero, f"not {hero}'s seat")
        browser.get(url + resumed.links()["host"])
        linked, ai = _seat_rows(browser)
        assert linked == ["hero_1"]
        assert [line.split(" ")[0] for line in ai] == ["hero_0", "hero_2", "dm"]
        assert _home_seats(browser, url) == {
            "hero_0": "scripted",
            "hero_1": "human",
            "hero_2": "scripted",
            "dm": "scripted",
        }


def test_the_home_page_says_how_to_join_without_a_link(browsers, tmp_path):
    table = Table(
        adventure=ADVENTURE,
        heroes=HEROES,
        seats={"hero_0": "human", "hero_2": "human"},
        seed=SEED,
        saves=tmp_path,
    )
    with _serving(table, browsers, delay=60) as (url, browser):
        browser.get(url + "/")
        assert browser.title == "dungeon_env game server"
        assert (
            "printed in the terminal where dungeon-env play runs" in browser.find_element(By.ID, "join").text
        )
        seats = {
            li.get_attribute("data-seat"): li.text
            for li in browser.find_elements(By.CSS_SELECTOR, "#seats li")
        }
        assert list(seats) == ["hero_0", "hero_1", "hero_2", "dm"]
        assert seats["hero_0"] == "hero_0 (Bram Ironhide): human \N{EM DASH} a person at this computer"
        assert seats["dm"].startswith(
            "dm (the Dungeon Master): AI, scripted \N{EM DASH} the scripted agents v2"
        )
        source = browser.page_source
        tokens = [s.token for s in table.seats.values() if s.token] + [table.hot_seat, table.host]
        assert not [t for t in tokens if t in source], "the home page holds a seat's link"
        hrefs = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "#pages a")]
        assert hrefs == [url + "/replay"] + ([url + "/rules"] if RULES.is_file() else [])
        browser.find_element(By.CSS_SELECTOR, "#pages a[href='/replay']").click()
        _wait(
            browser,
            lambda d: d.find_element(By.ID, "replay-bar").is_displayed(),
            "the replay viewer did not open",
        )
        assert _console_errors(browser) == []
