"""Views of a game state for people: text (ansi) here; images arrive with the environment."""

from dungeon_env.render.text import render_text

__all__ = ["render_text"]
