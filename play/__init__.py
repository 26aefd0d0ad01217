"""People at the table: play any seat of dungeon_env against the AI, in a browser or a terminal.

- :class:`play.table.Table`: a game in progress with its seats (humans or agents), each human seat
  reached through its own unguessable token, answered only with what its side may know
  (:mod:`play.views`), acting only for itself.
- :mod:`play.server`: the Starlette app behind ``dungeon-env play`` (HTTP and WebSocket API, the
  page in ``play/static``, the replay viewer).
- :mod:`play.text`: ``dungeon-env play --text``, the same game in a terminal.
- :mod:`play.cli`: the command's options.
"""
