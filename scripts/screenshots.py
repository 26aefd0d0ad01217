"""Screenshots of the play page for docs/PLAY.md, in a real headless Chromium.

    python scripts/screenshots.py                  # docs/play-1024x700.png and docs/play-1920x1080.png
    python scripts/screenshots.py --out /tmp/shots --decisions 60

A table of the default adventure on a fixed seed (three human heroes on one hot-seat link, the
scripted DM) is played by the scripted heroes for ``--decisions`` hero decisions and on to the next
decision of the kind ``--stop-at`` (a hero's Evasion: the choices show their Stamina cost), so the
page shows a game under way (doors opened, monsters in sight, a story with dice); then the server
starts and the hot seat's page is photographed at each window size. Needs Debian's ``chromium`` and
``chromium-driver`` and selenium, as ``tests/test_play_browser.py``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from agents import ScriptedHeroes
from dungeon_env.engine import Decision
from play.server import BackgroundServer
from play.table import Table

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
SIZES = ((1024, 700), (1920, 1080))
HEROES = ["bram", "sela", "orwin"]
SEATS = {"hero_0": "human", "hero_1": "human", "hero_2": "human"}


def played_table(seed: int, decisions: int, stop_at: str, saves: Path) -> Table:
    """The default adventure after ``decisions`` hero decisions of the scripted heroes, stopped at
    the next hero decision of kind ``stop_at`` (any, if the game would end first)."""
    table = Table(adventure="flooded_cellar", heroes=HEROES, seats=dict(SEATS), seed=seed, saves=saves)
    heroes = ScriptedHeroes(game=table.game, seed=seed)
    made, kind = 0, Decision[stop_at.upper()]
    while not table.over:
        if table.step_ai():
            continue
        if made >= decisions and Decision(int(table.game.decision[0])) == kind:
            break
        if made >= 4 * decisions:
            break
        table.act(table.hot_seat, table.version, int(heroes.choose(table.game)))
        made += 1
    return table


def browser(width: int, height: int):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
    ):
        options.add_argument(arg)
    options.add_argument(f"--window-size={width},{height}")
    chrome = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    chrome.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
    )
    return chrome


def shoot(url: str, path: Path, width: int, height: int) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    chrome = browser(width, height)
    try:
        chrome.get(url)
        WebDriverWait(chrome, 20).until(
            lambda d: d.execute_script("return document.querySelectorAll('#choices button.choice').length")
        )
        time.sleep(0.5)  # the board's sizing and scrolling settle
        chrome.save_screenshot(str(path))
    finally:
        chrome.quit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="docs", help="the folder for the PNG files (docs)")
    parser.add_argument("--seed", type=int, default=4, help="the game's seed (4)")
    parser.add_argument("--decisions", type=int, default=40, help="hero decisions played first (40)")
    parser.add_argument(
        "--stop-at", default="hero_evade", help="then on to this kind of decision (hero_evade)"
    )
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as saves:
        table = played_table(args.seed, args.decisions, args.stop_at, Path(saves))
        with BackgroundServer(table, delay=0.6) as url:
            for width, height in SIZES:
                path = out / f"play-{width}x{height}.png"
                shoot(url + table.links()["hot seat"], path, width, height)
                print(path)


if __name__ == "__main__":
    main()
