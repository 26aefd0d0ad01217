"""Views of a game for people: the text picture (ansi, ``render_text`` with stable
``MonsterLetters``; ``render_compact``, the board around the heroes for a terminal), the image
(rgb_array, ``dungeon_env.render.image.render_image``) and the event log told as a story (``Story``,
``describe_event``)."""

from dungeon_env.render.story import Story, describe_event
from dungeon_env.render.text import MonsterLetters, render_compact, render_text

__all__ = ["MonsterLetters", "Story", "describe_event", "render_compact", "render_text"]
