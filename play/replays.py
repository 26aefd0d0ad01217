"""The replay viewer's side of the server: open a replay (or saved-game) file, show any step of it
as the heroes or as the Dungeon Master saw it.

Opening plays the file once (checking it is legal all the way and that it ends at the checksum the
file holds, with the same refusals as loading a saved game: ``dungeon_env.replay`` checks the
file), keeping a copy of the game every ``CHECKPOINT_EVERY`` actions and the story of each
side with the event it came from; a step is then one copy and at most ``CHECKPOINT_EVERY - 1``
actions away. A replay file holds the seed and every die, so whoever opens it may see everything:
the viewer's two views are the two sides' pictures of the game, not a secret.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass

from dungeon_env import replay
from dungeon_env.engine.side_knowledge import knowledge_of
from dungeon_env.render.story import Story
from play.table import Refused, check_digest
from play.views import DM, HEROES, game_json, monster_names

CHECKPOINT_EVERY = 32
REPLAYS_KEPT = 8


@dataclass
class _Opened:
    checkpoints: list  # a game copy after every CHECKPOINT_EVERY-th action
    actions: list[int]
    n_events: list[int]  # events logged after each step (step 0: after the reset)
    turns: list[int]  # the turn at each step
    story: dict[str, list[tuple[int, str]]]  # side -> (event index, line)


class ReplayBook:
    """The replays opened in this server (the last ``REPLAYS_KEPT``), by an unguessable id."""

    def __init__(self) -> None:
        self._open: OrderedDict[str, _Opened] = OrderedDict()

    def open(self, data) -> dict:
        try:
            rep = replay.Replay.from_json(data)
        except replay.ReplayFileError as err:
            raise Refused(400, f"not a replay or saved-game file: {err}") from err
        opened = _play(rep)
        rid = secrets.token_urlsafe(12)
        self._open[rid] = opened
        while len(self._open) > REPLAYS_KEPT:
            self._open.popitem(last=False)
        turns, first_step = [], {}
        for step, turn in enumerate(opened.turns):
            first_step.setdefault(turn, step)
        turns = [[turn, step] for turn, step in sorted(first_step.items())]
        return {"id": rid, "steps": len(opened.actions), "turns": turns}

    def view(self, rid: str, step: int, side: str) -> dict:
        opened = self._open.get(rid)
        if opened is None:
            raise Refused(404, "no replay open with this id (open the file again)")
        if side not in (HEROES, DM):
            raise Refused(400, f"side must be 'heroes' or 'dm', got {side!r}")
        if not 0 <= step <= len(opened.actions):
            raise Refused(400, f"step must be 0..{len(opened.actions)}, got {step}")
        game = opened.checkpoints[step // CHECKPOINT_EVERY].copy()
        for action in opened.actions[step - step % CHECKPOINT_EVERY : step]:
            game.apply(action)
        seen = opened.n_events[step]
        shown = knowledge_of(game, HEROES).view() if side == HEROES else game
        data = game_json(shown, side=side, names=monster_names(shown, side), yours=False)
        data.update(
            version=step,
            steps=len(opened.actions),
            story=[{"n": k, "text": line} for k, (e, line) in enumerate(opened.story[side]) if e < seen],
        )
        return data


def _play(rep: replay.Replay) -> _Opened:
    try:
        env = replay.start(rep)
    except replay.ReplayFileError as err:
        raise Refused(400, f"the replay's {err}") from err
    checkpoints, n_events, turns = [env.game.copy()], [env.game.n_events], [int(env.game.state.turn)]
    actions = list(rep.actions)
    opened = _Opened(checkpoints, actions, n_events, turns, {HEROES: [], DM: []})
    teller = _Teller(env.game, opened)
    for i, action in enumerate(actions):
        game = env.game
        if game.over or action not in game.legal_actions():
            raise Refused(400, f"the replay's action {i} ({action}) is not legal there (another version?)")
        env.step(action)
        n_events.append(env.game.n_events)
        turns.append(int(env.game.state.turn))
        teller.catch_up()
        if (i + 1) % CHECKPOINT_EVERY == 0:
            checkpoints.append(env.game.copy())
    check_digest(rep, env.events, "the replay")
    return opened


class _Teller:
    """Both sides' stories, each line with the index of its event, told as the game is played from
    each side's knowledge (which judges an event as the game stood when it was logged: an item face
    down then is unnamed even if it was identified later)."""

    def __init__(self, game, opened: _Opened) -> None:
        self.game, self.opened = game, opened
        self.known = {HEROES: knowledge_of(game, HEROES), DM: knowledge_of(game, DM)}
        self.stories = {HEROES: Story(rules=game.rules), DM: Story(rules=game.rules)}
        self.folded = 0
        self.catch_up()

    def catch_up(self) -> None:
        opened = self.opened
        for side, known in self.known.items():
            for k, event in known.numbered_since(self.folded):
                line = self.stories[side].tell(event)
                if line:
                    opened.story[side].append((k, line))
        self.folded = self.game.n_events
        for known in self.known.values():
            known.hold(self, self.folded)
