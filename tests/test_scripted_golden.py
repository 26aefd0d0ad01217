"""Scripted heroes against the scripted DM (v1, the frozen reference: ``ScriptedHeroes`` and
``ScriptedDM`` with their default parameters) play exactly the same games as before: a guard for speed
work on the engine and the agents, which must not change a single trajectory. The scripted agents v2
(the latest, which the difficulty tool and the search's rollouts play) are held the same way
(``EXPECTED_V2``), over every adventure with 3 to 5 heroes.

Each case plays one full adventure and compares the number of decisions, the outcome and a hash of
the event log (``json.dumps(game.events, sort_keys=True)``) with values recorded last on 2026-12-06
(the rule corrections of checklist section F: the duty to attack judged over the heroes a monster
can reach, the Evasion window for every hero with something to do in it, every spell of a combat
turn begun at 2.1, no trap detection in combat, Light's square given back, one Death's Door event:
all six games changed; the 5-hero warlocks_crypt and sunless_throne games no longer reach the turn
cap). Before that on 2026-12-05 (with the goals in hand the scripted heroes make for the exit, in
Evasion too, and hand control only to a comrade on the way, not behind a wall: five of the six games
changed). Before that on
2026-12-05 (the scripted heroes move as a file, handing control to the comrade in their way, and drag a
corpse off a doorway that shuts them in: all six games changed; the 5-hero warlocks_crypt and
sunless_throne games now end at the turn cap, a last hero shut in by corpses). Before that on
2026-12-05 (a hurt hero no longer rests, as Rest restores no Health: the sunless_throne game
changed). Before that after issue 11 (2026-12-01: the scripted heroes read the heroes' side view,
the Detect Traps rolls have a dice stream of their own, a failed room-text Detect logs its empty
result, spell targets in order of appearance), after the rule corrections of issue 10, and first
before the agents and path-finding were optimised, commit 52175f3.

When a rule change or an agent change legitimately changes these games, regenerate the values with

    .venv/bin/python -c "from tests.test_scripted_golden import regenerate; regenerate()"

and paste the printed ``EXPECTED`` in, saying in the commit message why the games changed. (For a
wider check while optimising, ``scripts/profile_scripted.py golden --record/--check`` hashes 1,200
scripted and random games.)
"""

from __future__ import annotations

import hashlib
import json

import pytest

from agents.scripted_dm import ScriptedDM
from agents.scripted_dm_v2 import ScriptedDMV2
from agents.scripted_heroes import ScriptedHeroes
from agents.scripted_heroes_v2 import ScriptedHeroesV2
from dungeon_env.engine import Game

# (adventure, heroes, seed) -> (decisions, outcome, sha256 of the event log, first 16 hex digits)
EXPECTED = {
    ("flooded_cellar", 3, 0): (372, "completed", "44a3d2430e3df347"),
    ("flooded_cellar", 3, 1): (461, "completed", "ade7d34c51fb35bc"),
    ("goblin_warrens", 4, 2): (1096, "failed", "defcb6956521e67e"),
    ("warlocks_crypt", 5, 3): (1006, "failed", "9c922e34b0a8c8a8"),
    ("bandit_keep", 3, 4): (471, "completed", "deb419f143ee7ab3"),
    ("sunless_throne", 5, 5): (733, "completed", "e20f1d30dea5d853"),
}


# The same for the scripted agents v2 (the latest: what the difficulty tool and the search's rollouts
# play), recorded on 2026-12-07 before the speed work on the heroes' side view and the agents.
EXPECTED_V2 = {
    ("flooded_cellar", 3, 0): (438, "completed", "d843459150256a45"),
    ("flooded_cellar", 4, 1): (629, "completed", "f9c835aaa667e892"),
    ("goblin_warrens", 3, 0): (1136, "failed", "799924c92ed861f1"),
    ("goblin_warrens", 3, 7): (813, "failed", "2a073cb124f89819"),
    ("goblin_warrens", 4, 2): (1018, "failed", "99a983b91a97c72c"),
    ("warlocks_crypt", 5, 3): (837, "failed", "43e59f4bbd551527"),
    ("bandit_keep", 3, 4): (457, "completed", "81b9cbf4798135e2"),
    ("sunless_throne", 5, 5): (836, "completed", "9db868aa52d68a38"),
}
AGENTS = {"v1": (ScriptedHeroes, ScriptedDM), "v2": (ScriptedHeroesV2, ScriptedDMV2)}


def play(adventure: str, heroes: int, seed: int, version: str = "v1") -> tuple[int, str, str]:
    g = Game.new(adventure=adventure, heroes=heroes, seed=seed, max_turns=100)
    hero_class, dm_class = AGENTS[version]
    hero_agent, dm_agent = hero_class(game=g, seed=seed), dm_class(game=g, seed=seed)
    decisions = 0
    while not g.over:
        g.apply((dm_agent if g.agent == "dm" else hero_agent).choose(g))
        decisions += 1
    digest = hashlib.sha256(json.dumps(g.events, sort_keys=True).encode()).hexdigest()[:16]
    return decisions, g.outcome, digest


@pytest.mark.parametrize("case", sorted(EXPECTED), ids=lambda c: f"{c[0]}-{c[1]}h-seed{c[2]}")
def test_scripted_games_unchanged(case):
    assert play(*case) == EXPECTED[case]


@pytest.mark.parametrize("case", sorted(EXPECTED_V2), ids=lambda c: f"{c[0]}-{c[1]}h-seed{c[2]}")
def test_scripted_v2_games_unchanged(case):
    assert play(*case, version="v2") == EXPECTED_V2[case]


def regenerate() -> None:
    """Print ``EXPECTED`` and ``EXPECTED_V2`` for the current code (see the module docstring)."""
    for name, table, version in (("EXPECTED", EXPECTED, "v1"), ("EXPECTED_V2", EXPECTED_V2, "v2")):
        print(f"{name} = {{")
        for case in table:
            print(f"    {case!r}: {play(*case, version=version)!r},")
        print("}")
