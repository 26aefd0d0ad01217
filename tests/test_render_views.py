"""The image view (``dungeon_env.render.image.render_image``): a look per monster kind, heroes by
number, the legend column, the caption strip. Arrays are compared with each other, never with
stored images."""

from __future__ import annotations

import numpy as np

from dungeon_env.content import load_monsters
from dungeon_env.render import image
from dungeon_env.render.image import (
    BOARD_H,
    BOARD_W,
    CAPTION,
    FRAME_W,
    LEGEND_W,
    PANEL,
    TILE,
    caption_chars,
    legend,
    monster_glyphs,
    render_image,
)
from tests.builders import add_monster, arena_game


def tile(frame: np.ndarray, x: int, y: int) -> np.ndarray:
    return frame[y * TILE : (y + 1) * TILE, x * TILE : (x + 1) * TILE]


def badge(frame: np.ndarray, x: int, y: int) -> np.ndarray:
    """A figure's tile without its health bar (the bottom rows)."""
    return tile(frame, x, y)[: TILE - 4]


def test_the_frame_is_the_board_the_legend_column_and_the_status_strip():
    frame = render_image(arena_game())
    assert frame.dtype == np.uint8 and frame.shape == (BOARD_H + PANEL, BOARD_W + LEGEND_W, 3)
    assert FRAME_W == 24 * TILE + LEGEND_W and BOARD_H == 28 * TILE


def test_monster_kinds_look_different_and_a_kind_looks_the_same():
    g = arena_game()
    add_monster(g, "orc", 8, 0)
    add_monster(g, "goblin", 10, 0)
    add_monster(g, "orc", 12, 0)
    frame = render_image(g)
    orc, goblin, orc2 = badge(frame, 8, 0), badge(frame, 10, 0), badge(frame, 12, 0)
    assert np.array_equal(orc, orc2), "one kind, one look"
    assert not np.array_equal(orc, goblin), "two kinds, two looks"
    colours = {tuple(c) for c in orc.reshape(-1, 3)}, {tuple(c) for c in goblin.reshape(-1, 3)}
    assert image.MONSTER_COLORS[g.monster_index["orc"]] in colours[0]
    assert image.MONSTER_COLORS[g.monster_index["goblin"]] in colours[1]
    assert colours[0] != colours[1]


def test_every_monster_card_has_its_own_colour_and_letter():
    names = tuple(c.name for c in load_monsters().values())
    glyphs = monster_glyphs(names)
    assert len(set(glyphs)) == len(names), glyphs
    assert all(g in image._GLYPHS for g in glyphs)
    assert len(names) <= len(image.MONSTER_COLORS) and len(set(image.MONSTER_COLORS)) == len(
        image.MONSTER_COLORS
    )
    assert glyphs[names.index("Goblin")] == "G" and glyphs[names.index("Skeleton")] == "S"


def test_heroes_show_their_number():
    g = arena_game()
    frame = render_image(g)
    (x0, y0), (x1, y1) = (g.xy(int(g.state.unit_pos[u])) for u in (0, 1))
    one, two = badge(frame, x0, y0), badge(frame, x1, y1)
    white = (one == 255).all(axis=2)
    assert white.any() and not np.array_equal(white, (two == 255).all(axis=2))


def test_the_legend_lists_heroes_and_the_monster_kinds_on_the_board():
    g = arena_game()
    heroes, kinds = legend(g)
    assert [name for _, name in heroes] == ["Corvin", "Ysolde", "Hob"] and kinds == []
    before = render_image(g)[:BOARD_H, BOARD_W:]
    add_monster(g, "goblin", 10, 0)
    add_monster(g, "orc", 8, 9)  # in the fog: the spectator's picture shows it all the same
    add_monster(g, "goblin", 12, 0)
    heroes, kinds = legend(g)
    assert [name for _, name in kinds] == ["Goblin", "Orc Warrior"]
    after = render_image(g)[:BOARD_H, BOARD_W:]
    rows = np.flatnonzero((before != after).any(axis=(1, 2)))
    assert rows.size and rows.min() > 3 * 24, "the heroes' rows stay, monster rows come below"
    # each kind's row shows that kind's badge
    frame = render_image(g)
    for k, (card, _name) in enumerate(kinds):
        colour = image.MONSTER_COLORS[card % len(image.MONSTER_COLORS)]
        y = 4 + image.LINE_H + 3 * image.LEGEND_ROW + 4 + image.LINE_H + k * image.LEGEND_ROW
        row = frame[y : y + TILE, BOARD_W + 4 : BOARD_W + 4 + TILE]
        assert (row == colour).all(axis=2).any(), (k, colour)


def test_the_caption_is_a_strip_under_the_board():
    g = arena_game()
    plain = render_image(g)
    captioned = render_image(g, caption="Bram (hero_0) moves to (4,6)")
    assert captioned.shape[0] == plain.shape[0] + CAPTION and captioned.shape[1] == plain.shape[1]
    assert np.array_equal(captioned[:BOARD_H], plain[:BOARD_H])
    assert np.array_equal(captioned[BOARD_H + CAPTION :], plain[BOARD_H:])
    strip = captioned[BOARD_H : BOARD_H + CAPTION]
    assert (strip == image.CAPTION_TEXT).all(axis=2).any(), "the caption's letters are drawn"
    other = render_image(g, caption="Orc Warrior m3 moves to (4,6)")[BOARD_H : BOARD_H + CAPTION]
    assert not np.array_equal(strip, other)
    empty = render_image(g, caption="")
    assert empty.shape == captioned.shape and not (empty == image.CAPTION_TEXT).all(axis=2).any()
    # two lines, and a line too long is cut (the picture keeps its size)
    two = render_image(g, caption="first line\nsecond line")
    assert two.shape == captioned.shape
    lit = np.flatnonzero((two[BOARD_H : BOARD_H + CAPTION] == image.CAPTION_TEXT).all(axis=2).any(axis=1))
    assert lit.max() - lit.min() > image.LINE_H
    long = render_image(g, caption="x" * (3 * caption_chars()))
    assert long.shape == captioned.shape
    three = render_image(g, caption="one\ntwo\nthree")
    assert np.array_equal(three, render_image(g, caption="two\nthree")), "the last two lines"


def test_the_caption_font_draws_the_story_characters():
    for ch in "(),'+=!?;:-.":
        assert ch in image._GLYPHS, ch
