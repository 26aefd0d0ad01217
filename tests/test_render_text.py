"""The text rendering (``dungeon_env.render.text.render_text``): the numbered board with walls, doors,
fog and figures, then the status lines and the legend.

Layout: two lines of column numbers (tens, units) above and below the board, a row number on both
sides (``LEFT`` characters on the left). Inside the board, square row ``y`` is board line ``2*y`` and
square ``x`` is column ``2*x``; the character between two squares (column ``2*x+1``) is their vertical
wall or door, and board line ``2*y+1`` holds the walls and doors between rows ``y`` and ``y+1``.
"""

from __future__ import annotations

import pytest

from dungeon_env.engine import Decision, Game, Phase
from dungeon_env.engine.actions import END, MOVE_ACTIONS
from dungeon_env.engine.state import Status
from dungeon_env.engine.units import kill_hero
from dungeon_env.render.text import BOARD_LINES, LEFT, TOP, MonsterLetters, render_compact, render_text
from tests.builders import (
    add_monster,
    arena_game,
    arena_variant,
    enter_phase,
    place,
    play_to,
    set_unit,
)

N, E, S, W = MOVE_ACTIONS
ROWS = 28 + 27  # square rows and the wall rows between them


def board(text: str) -> list[str]:
    """The board's lines without the numbers around them."""
    return [line[LEFT : LEFT + 2 * 24 - 1] for line in text.split("\n")[TOP : TOP + ROWS]]


def status(text: str) -> list[str]:
    lines = text.split("\n")
    assert lines[BOARD_LINES] == ""
    rest = lines[BOARD_LINES + 1 :]
    return rest[: rest.index("")]


def legend(text: str) -> list[str]:
    lines = text.split("\n")[BOARD_LINES + 1 :]
    return lines[lines.index("") + 1 :]


def char(text: str, x: int, y: int) -> str:
    return board(text)[2 * y][2 * x]


def test_board_has_28_map_rows_of_24_squares():
    text = render_text(arena_game())
    rows = board(text)
    squares = rows[0::2]
    walls = rows[1::2]
    assert len(squares) == 28 and len(walls) == 27
    assert all(len(r) == 2 * 24 - 1 for r in squares)
    assert all(len(r) == 2 * 24 - 1 for r in walls)


def test_the_board_is_numbered_along_all_four_sides():
    lines = render_text(arena_game(), fog=False).split("\n")
    top, bottom = lines[:TOP], lines[BOARD_LINES - 2 : BOARD_LINES]
    assert top == bottom
    tens, units = top[0].ljust(LEFT + 2 * 24), top[1]
    for x in range(24):
        assert units[LEFT + 2 * x] == str(x % 10)
        assert tens[LEFT + 2 * x] == (str(x // 10) if x >= 10 else " ")
    for y in range(28):
        line = lines[TOP + 2 * y]
        assert line[:LEFT] == f"{y:2d} " and line.endswith(f" {y}")
        assert line[LEFT - 1] == " " and line[LEFT + 2 * 24 - 1] == " "
    assert all(line[:LEFT].strip() == "" for line in lines[TOP + 1 : TOP + ROWS : 2])


def test_the_legend_says_what_each_character_means_and_names_the_monsters_shown():
    g = arena_game()
    add_monster(g, "orc", 3, 3)
    add_monster(g, "goblin", 4, 4)
    add_monster(g, "orc", 2, 4)
    text = legend(render_text(g, fog=False))
    joined = " ".join(text)
    for meaning in (
        "1-5 heroes",
        "% corpse",
        ". floor",
        "# blockage",
        "T furniture",
        "E exit",
        "+ closed door",
    ):
        assert meaning in joined
    assert "1 Corvin Blackthorn" in joined and "3 Hob Kettleby" in joined
    assert "a c Orc Warrior (orc)" in joined and "b Goblin (goblin)" in joined
    assert "Monsters" not in " ".join(legend(render_text(g)))  # with fog: none of them is seen


@pytest.mark.parametrize("name", ["flooded_cellar", "goblin_warrens", "warlocks_crypt"])
def test_bundled_adventures_render_with_their_heroes(name):
    g = Game.new(adventure=name, heroes=5, seed=1)
    text = render_text(g)
    for u in range(5):
        x, y = g.xy(int(g.state.unit_pos[u]))
        assert char(text, x, y) == str(u + 1)
    assert len(board(text)) == ROWS


def test_heroes_are_drawn_on_their_squares():
    g = arena_game()
    text = render_text(g)
    assert [char(text, x, 0) for x in (1, 2, 4)] == ["1", "2", "3"]
    place(g, 1, 8, 0)
    text = render_text(g)
    assert char(text, 2, 0) == "." and char(text, 8, 0) == "2"


def test_walls_and_doors():
    """Arena room A (x 1..5, y 1..5): a door north at (3,0)/(3,1), a door east at (5,3)/(6,3)."""
    g = arena_game()
    rows = board(render_text(g, fog=False))
    assert rows[1][2 * 3] == "+"  # closed door between rows 0 and 1 at x=3
    assert rows[1][2 * 2] == "-"  # room A's north wall
    assert rows[2 * 3][2 * 5 + 1] == "+"  # closed door between (5,3) and (6,3)
    assert rows[2 * 2][2 * 0 + 1] == "|"  # room A's west wall
    assert rows[2 * 2][2 * 1 + 1] == " "  # inside the room: no wall
    g.state.door_open[0] = True
    rows = board(render_text(g, fog=False))
    assert rows[1][2 * 3] == "/"
    foggy = board(render_text(g))  # corridor a is revealed: the edges on its side are known
    assert foggy[1][2 * 3] == "/" and foggy[1][2 * 2] == "-" and foggy[2 * 2][2 * 0 + 1] == "|"


def test_fog_hides_unrevealed_areas():
    g = arena_game()
    foggy = render_text(g)
    clear = render_text(g, fog=False)
    assert char(foggy, 0, 0) == "."  # corridor a, revealed at set-up
    assert char(foggy, 3, 3) == " "  # room A, not yet seen
    assert char(clear, 3, 3) == "."
    assert char(foggy, 9, 9) == " " and char(clear, 9, 9) == "T"  # the table in room F
    assert char(clear, 6, 20) == "#"  # a blockage
    assert char(clear, 23, 27) == "E"  # the exit
    # opening the door reveals room A
    g.apply(END)
    g.apply(E)  # hero_1 to (3,0)
    g.dice.force(6)
    g.apply(S)  # opens the door to room A
    assert char(render_text(g), 3, 3) == "."


def test_monsters_and_corpses():
    g = arena_game()
    m = add_monster(g, "orc", 3, 3, awake=False)
    place(g, 2, 8, 0)
    place(g, 0, 9, 0)
    kill_hero(g, 0)
    text = render_text(g, fog=False)  # the orc stands in room A, still in the fog
    assert char(text, 3, 3) == "a"
    assert char(text, 9, 0) == "%"
    lines = status(text)
    orc = next(line for line in lines if " m0 " in line)
    assert orc.startswith("a m0 ") and "Orc Warrior" in orc and "asleep" in orc
    assert "HP 6/6" in orc and f"({3},{3})" in orc
    corpse = next(line for line in lines if " hero_0 " in line)
    assert corpse.startswith("% hero_0") and "corpse" in corpse
    g.state.inactive[m] = False
    assert "asleep" not in next(line for line in status(render_text(g, fog=False)) if " m0 " in line)


def test_status_lines():
    g = arena_game()
    lines = status(render_text(g))
    assert lines[0] == "Turn 1  Light 20  Phase hero_movement"
    assert lines[1].startswith("1 hero_0   Corvin Blackthorn")
    assert "active" in lines[1] and "HP 8/8  St 6/6  Mg 1/1  (1,0)" in lines[1]
    assert lines[2].startswith("2 hero_1   Ysolde Fenwick")
    assert lines[3].startswith("3 hero_2   Hob Kettleby")
    assert lines[-1] == "Waiting for hero_0: hero_move of hero_0"
    set_unit(g, 1, health=0, deaths_door=True, stamina=0, exhausted=True, surprised=True)
    lines = status(render_text(g))
    assert "HP 0/8  St 0/5" in lines[2]
    assert lines[2].endswith("death's door exhausted surprised")


def test_status_after_the_end():
    g = arena_game()
    place(g, 0, 22, 27)
    place(g, 1, 23, 26)
    place(g, 2, 21, 27)
    enter_phase(g, Phase.HERO_MOVEMENT)
    for action in (E, S, E, E):
        g.apply(action)
    assert g.over
    lines = status(render_text(g))
    assert lines[0].startswith("Turn 1  Light 20  Phase game_over  Outcome: completed (")
    assert all("exited" in line for line in lines[1:4])
    assert not any(line.startswith("Waiting for") for line in lines)
    assert char(render_text(g), 23, 27) == "E"


# ------------------------------------------------------------------ fog: what heroes may know (issue 11)

SECRET = """
[[door]]
between = [[11, 1], [12, 1]]
secret = true

[[event]]
area = "B"
scope = "exploring"
kind = "secret"
text = "A draught from the east wall."
door = 4
"""  # door 4 joins rooms B and C


@pytest.fixture(scope="module")
def secret_arena(tmp_path_factory) -> str:
    return arena_variant(tmp_path_factory.mktemp("secret"), "secret_arena", SECRET)


def test_fog_render_draws_no_secret_door_or_fog_monster(secret_arena):
    g = Game.new(adventure=secret_arena, heroes=["corvin", "ysolde", "hob"], seed=0)
    place(g, 0, 9, 2)  # hero_0 in room B: B is revealed, C is not
    m = add_monster(g, "orc", 8, 9)  # room F, in the fog
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    play_to(g, Decision.MONSTER_MOVE, m)
    foggy, clear = render_text(g), render_text(g, fog=False)
    assert board(foggy)[2 * 1][2 * 11 + 1] == "|", "an undiscovered secret door is a wall"
    assert board(clear)[2 * 1][2 * 11 + 1] == "+"
    assert char(foggy, 8, 9) == " " and char(clear, 8, 9) == "a"
    assert not any(" m0 " in line for line in status(foggy))
    assert any(line.startswith("a m0 ") for line in status(clear))
    assert status(foggy)[-1] == "Waiting for dm" and "m0" not in foggy
    assert status(clear)[-1] == "Waiting for dm: monster_move of m0"
    g.state.door_hidden[:] = False  # found
    g.state_edited()
    assert board(render_text(g))[2 * 1][2 * 11 + 1] == "+"


def test_fog_render_draws_no_door_or_wall_between_unrevealed_areas():
    """Door 2, (11,3)-(12,3), joins rooms B and C; door 3, (9,5)-(9,6), room B and corridor e: none of
    them revealed at set-up."""
    g = arena_game()
    foggy, clear = board(render_text(g)), board(render_text(g, fog=False))
    assert foggy[2 * 3][2 * 11 + 1] == " " and clear[2 * 3][2 * 11 + 1] == "+"
    assert foggy[2 * 5 + 1][2 * 9] == " " and clear[2 * 5 + 1][2 * 9] == "+"
    assert foggy[2 * 2][2 * 5 + 1] == " " and clear[2 * 2][2 * 5 + 1] == "|"  # room A | corridor t
    assert foggy[1][2 * 3] == "+"  # door 0 opens on corridor a, which is revealed


def test_fog_render_letters_and_lists_only_the_monsters_heroes_see():
    g = arena_game()
    add_monster(g, "orc", 8, 9)  # room F, in the fog: slot 3
    place(g, 0, 2, 2)  # room A revealed
    seen = add_monster(g, "goblin", 4, 4)
    enter_phase(g, Phase.MONSTER_MOVEMENT)
    play_to(g, Decision.MONSTER_MOVE, seen)
    text = render_text(g)
    assert char(text, 4, 4) == "a" and char(text, 8, 9) == " "
    lines = status(text)
    # one monster line, lettered "a"; labels count every monster placed (m1: one came before, in the
    # fog), so the fog render names a monster by its letter only
    monsters = [line for line in lines if "Orc" in line or "Goblin" in line]
    assert len(monsters) == 1 and monsters[0].startswith("a monster  ") and "Goblin" in monsters[0]
    assert lines[-1] == "Waiting for dm: monster_move of a"
    assert "m0" not in text and "m1" not in text
    assert status(render_text(g, fog=False))[-1] == f"Waiting for dm: monster_move of {g.label(seen)}"


# ------------------------------------------------------------------------------ stable monster letters


def _monster_chars(g: Game, text: str, fog: bool) -> dict[int, str]:
    """uid -> the board character of every monster drawn."""
    s = g.state
    out = {}
    for u in range(s.n_heroes, len(s.unit_status)):
        if s.unit_status[u] == Status.ACTIVE and s.unit_pos[u] >= 0:
            x, y = g.xy(int(s.unit_pos[u]))
            if not fog or s.revealed[g.tables.area[int(s.unit_pos[u])]]:
                out[int(s.unit_uid[u])] = char(text, x, y)
    return out


def test_letters_are_given_in_order_a_to_z_then_capitals_then_with_a_digit():
    letters = MonsterLetters()
    letters.assign(range(60))
    names = [letters.get(uid) for uid in range(60)]
    assert names[:3] == ["a", "b", "c"] and names[25] == "z" and names[26] == "A"
    assert "E" not in names and "T" not in names  # they mark exits and furniture
    assert len(set(names)) == 60 and names[50] == "a1"
    letters.assign([59, 3, 60])
    assert letters.get(3) == "d" and letters.get(60) == MonsterLetters.nth(60)


@pytest.mark.parametrize("fog", [True, False])
def test_a_monster_keeps_its_letter_for_the_whole_game(fog):
    import random

    appeared = slain = 0
    for seed in range(6):
        g = Game.new(adventure="goblin_warrens", heroes=4, seed=seed, max_turns=14)
        rng = random.Random(seed)
        letters, given = MonsterLetters(), {}
        while not g.over:
            text = render_text(g, fog=fog, letters=letters)
            for uid, mark in _monster_chars(g, text, fog).items():
                assert mark == given.setdefault(uid, letters.get(uid))[0], "a monster changed its letter"
            assert dict(list(letters.letters.items())[: len(given)]) == given
            g.apply(rng.choice(g.legal_actions()))
        appeared += len(given)
        slain += sum(e["type"] == "slain" for e in g.events)
        assert len(set(given.values())) == len(given), "two monsters share a letter"
    assert appeared > 10 and slain > 3, (appeared, slain)


def test_fog_letters_count_only_the_monsters_heroes_saw():
    """Two games that differ only in a monster in the fog give the same pictures, frame by frame."""
    from dungeon_env.engine.units import slay_monster

    a, b = arena_game(), arena_game()
    add_monster(a, "troll", 8, 9)  # room F, in the fog: only in game a (it takes the first slot and uid)
    letters_a, letters_b = MonsterLetters(), MonsterLetters()
    for g in (a, b):
        place(g, 0, 2, 2)  # room A revealed
    seen = [add_monster(g, "goblin", 4, 4) for g in (a, b)]
    assert render_text(a, letters=letters_a) == render_text(b, letters=letters_b)
    assert char(render_text(a, letters=letters_a), 4, 4) == "a"
    for g, u in zip((a, b), seen, strict=True):
        slay_monster(g, u, ["hero_0"])
        add_monster(g, "orc", 3, 4)
    text = render_text(a, letters=letters_a)
    assert text == render_text(b, letters=letters_b)
    assert char(text, 3, 4) == "b" and "b Orc Warrior (orc)" in " ".join(legend(text))
    assert "Troll" not in text and "troll" not in text
    assert render_text(a) == render_text(b)  # a fresh helper each picture: the same too


# ------------------------------------------------------------------ traps and the compact picture (issue 49)
PIT = '[[trap]]\nat = [0, 8]\nname = "pit"\neffect = { kind = "damage", amount = 1 }\nblocks = true\n'


def test_traps_are_drawn_as_each_side_may_know_them(tmp_path):
    """A trap on (0,8): the heroes' picture shows it once detected (``^``); the DM's shows it from
    the start (``~`` while the heroes have not found it); a sprung pit stays in the way (``=``)."""
    g = arena_game(adventure=arena_variant(tmp_path, "pit", PIT))
    place(g, 0, 0, 7)
    assert char(render_text(g), 0, 8) == "." and char(render_text(g, fog=False), 0, 8) == "~"
    assert "~ a trap the heroes have not found" in render_text(g, fog=False)
    g.state.trap_detected[0] = True
    g.state_edited()
    assert char(render_text(g), 0, 8) == "^" and char(render_text(g, fog=False), 0, 8) == "^"
    g.state.trap_detected[0] = False
    g.state_edited()
    g.apply(S)  # Corvin steps onto the pit: it springs and stays as a hazard
    place(g, 0, 0, 6)
    assert char(render_text(g), 0, 8) == "=" and "= pit" in render_text(g)


def _compact_rows(lines: list[str]) -> list[int]:
    """The square rows a compact picture draws (lines starting with a row number)."""
    return [int(line[:2]) for line in lines if line[:2].strip().isdigit() and line[2] == " "]


def test_the_compact_picture_fits_its_lines_around_the_heroes():
    g = arena_game()
    place(g, 0, 0, 12)
    place(g, 1, 0, 10)
    place(g, 2, 3, 13)
    for height in (16, 24, 40):
        lines = render_compact(g, lines=height)
        assert len(lines) <= height and max(len(line) for line in lines) <= 80
        rows = _compact_rows(lines)
        assert rows == list(range(rows[0], rows[-1] + 1)) and {10, 12, 13} <= set(rows), (height, rows)
    lines = render_compact(g, lines=24)
    assert lines[1].startswith("   0 1 2 3")  # column numbers
    assert any(line.startswith("Key: ") for line in lines)
    heroes = " ".join(lines)
    assert "1 Corvin HP" in heroes and "3 Hob HP" in heroes


def test_the_compact_picture_follows_the_figure_asked_to_act_when_the_heroes_are_far_apart():
    g = arena_game()
    place(g, 0, 0, 25)  # Corvin, asked to act
    place(g, 1, 0, 2)
    rows = _compact_rows(render_compact(g, lines=20))
    assert 25 in rows and 2 not in rows


def test_the_compact_picture_hides_what_the_full_one_hides():
    g = arena_game()
    add_monster(g, "orc", 3, 3)  # in room A, in the fog
    assert "Orc" not in " ".join(render_compact(g, lines=40))
    assert "Orc Warrior" in " ".join(render_compact(g, fog=False, lines=40))
