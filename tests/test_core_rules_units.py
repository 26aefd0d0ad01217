"""The core's unit rules (src/core/rules/units.cpp) against engine/units.py: every call random games
make to the rules that change units (placing, damage, Death's Door, death, corpses, Stamina) is run
by both engines on the same position and compared (events, dice, every state field, the result),
and so are calls made on purpose where play rarely goes (a blow on Death's Door, every monster slain)."""

from __future__ import annotations

from dungeon_env import _core
from dungeon_env.engine import board, units
from dungeon_env.engine.state import ACTIVE, CORPSE, How
from tests.core_shadow import Shadows, play_out, positions, same

U = _core.rules.units


def _hurt_case(g, u, amount, source, killers=(), down_before=None):
    s = g.state
    if s.unit_status[u] != ACTIVE:
        return "inactive"
    down = s.health[u] == 0 if down_before is None else down_before
    if down:
        return "roll"
    if s.health[u] <= amount:
        return "further" if s.deaths_door[u] else "down"
    return "hurt"


CASES = {
    "place_monster": lambda g, m, sq, how: How(how).name,
    "spend_stamina": lambda g, u, n: "exhausts" if n and n == g.state.stamina[u] else "spends",
    "gain_stamina": lambda g, u, n: "recovers" if g.state.exhausted[u] else "gains",
    "heal": lambda g, u, n: "revives" if g.state.deaths_door[u] else "heals",
    "hurt_hero": _hurt_case,
    "deaths_door_roll": lambda g, u, killers=(): (
        "iron_willed" if units.has_trait(g, u, "iron_willed") else "plain"
    ),
    "check_corpses": lambda g: "corpse" if CORPSE in g.state.unit_status[: g.state.n_heroes] else "none",
}
HOOKED = [
    "place_hero",
    "place_monster",
    "put",
    "take_off",
    "spend_stamina",
    "gain_stamina",
    "heal",
    "hurt_hero",
    "deaths_door_roll",
    "kill_hero",
    "slay_monster",
    "check_corpses",
]


def test_unit_rules_match_python_in_play(monkeypatch):
    shadows = Shadows(budget=60)
    for name in HOOKED:
        shadows.hook(monkeypatch, units, name, getattr(U, name), case=CASES.get(name))

    def done():
        return (
            shadows.reached(**{name: 1 for name in HOOKED if name != "heal"})
            and shadows.cases_of("place_monster").keys() >= {"GUARD", "PATROL"}
            and shadows.cases_of("hurt_hero").keys() >= {"hurt", "down"}
            and shadows.cases["check_corpses", "corpse"] > 0
            and shadows.cases_of("deaths_door_roll").keys() == {"iron_willed", "plain"}
        )

    play_out(range(30), max_turns=40, until=done)
    shadows.check()
    assert done(), shadows.cases


def _corpse(g, c) -> None:
    """The hero dies where it stands: its corpse is lost unless a living hero is with it."""
    units.kill_hero(g, c, ["m1"])
    units.check_corpses(g)


def _core_corpse(e, c) -> None:
    U.kill_hero(e, c, ["m1"])
    U.check_corpses(e)


def test_unit_rules_match_python_where_play_rarely_goes():
    seen = {"roll": 0, "further": 0, "down": 0, "revive": 0, "exhaust": 0, "slay": 0, "spawn": 0, "lost": 0}
    for k, game in enumerate(positions(range(5), every=200, max_turns=30)):
        s = game.state
        heroes = units.active_heroes(game)
        for h in heroes:
            health = int(s.health[h])
            same(
                game,
                lambda g, h=h, n=health: units.hurt_hero(g, h, n, "m1"),
                lambda e, h=h, n=health: U.hurt_hero(e, h, n, "m1"),
            )
            seen["down"] += health > 0
            same(
                game,
                lambda g, h=h: units.hurt_hero(g, h, 1, "trap", ("m2", "m3", "m2"), True),
                lambda e, h=h: U.hurt_hero(e, h, 1, "trap", ["m2", "m3", "m2"], True),
            )
            seen["roll"] += 1
            if s.deaths_door[h]:
                same(
                    game,
                    lambda g, h=h: units.hurt_hero(g, h, 2, "m4", ["m4", "m1"], False),
                    lambda e, h=h: U.hurt_hero(e, h, 2, "m4", ["m4", "m1"], False),
                )
                same(game, lambda g, h=h: units.heal(g, h, 1), lambda e, h=h: U.heal(e, h, 1))
                seen["further"] += 1
                seen["revive"] += 1
            stamina = int(s.stamina[h])
            if not s.exhausted[h]:
                same(
                    game,
                    lambda g, h=h, n=stamina: units.spend_stamina(g, h, n),
                    lambda e, h=h, n=stamina: U.spend_stamina(e, h, n),
                )
                seen["exhaust"] += stamina > 0
            same(game, lambda g, h=h: units.gain_stamina(g, h, 2), lambda e, h=h: U.gain_stamina(e, h, 2))
            same(game, lambda g, h=h: units.kill_hero(g, h, ["m1"]), lambda e, h=h: U.kill_hero(e, h, ["m1"]))
        for u in units.active_monsters(game)[:2]:
            same(
                game,
                lambda g, u=u: units.slay_monster(g, u, ["hero_0"]),
                lambda e, u=u: U.slay_monster(e, u, ["hero_0"]),
            )
            seen["slay"] += 1
        if heroes:
            same(game, lambda g, c=heroes[0]: _corpse(g, c), lambda e, c=heroes[0]: _core_corpse(e, c))
            twin = game.copy()
            _corpse(twin, heroes[0])
            seen["lost"] += any(ev["type"] == "corpse_lost" for ev in twin.events_since(game.n_events))
        free = [q for q in range(game.tables.n_squares) if board.free(game, q)][k % 7 :: 211]
        for q in free:
            monster = game.monsters[q % len(game.monsters)].id
            same(
                game,
                lambda g, q=q, m=monster: units.place_monster(g, m, q, How.EVENT),
                lambda e, q=q, m=monster: U.place_monster(e, m, q, int(How.EVENT)),
            )
            seen["spawn"] += 1
    assert all(n > 0 for n in seen.values()), seen
