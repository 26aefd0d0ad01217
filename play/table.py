"""A game at the table: its seats (humans or agents), who may see and do what, save and load.

``Table(adventure=..., heroes=[...], seats={"hero_0": "human", "dm": "scripted"})`` starts a game on
``dungeon_env.raw_env`` (so a saved game is an ordinary replay file, see ``dungeon_env.replay``, with
the seats in its ``play`` entry); ``Table.resume(file)`` continues a saved game with its seats.
Every human seat gets its own unguessable token (``secrets.token_urlsafe``); several human seats
may also share one *hot-seat* token (``Table.hot_seat``). A token answers only with what its seats'
side may know (:func:`play.views.game_json`: the heroes' view for hero seats, everything for a DM
seat) and acts only for its seats. Every refusal is a :class:`Refused` naming what was wrong and
what was expected; a refused request changes nothing.

The game's decisions are numbered, side by side: the DM's version (``version``) is the number of
actions applied so far; the heroes' version (``hero_version``) is the number of actions after which
the game stood at a decision heroes may know of, or at its end
(``engine.knowledge.dm_decision_is_hidden``: not a DM decision about a monster they do not see), so
it never counts the DM's decisions about figures out of the heroes' sight. A seat's answers carry
its side's version, and an action is sent with the version it answers, so a stale click (someone
else acted first) is refused instead of being applied to another decision. The DM's decisions hidden
from the heroes that an agent takes are played at once, in the same call as the action before them,
so the game never waits at one: a hero seat sees the board go from one public decision to the next,
with no pause, push or wakeup between."""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dungeon_env import replay
from dungeon_env.aec import raw_env
from dungeon_env.engine.actions import N_ACTIONS
from dungeon_env.engine.knowledge import dm_decision_is_hidden
from dungeon_env.engine.side_knowledge import knowledge_of
from dungeon_env.render.story import Story
from play.views import DM, HEROES, game_json, monster_names

HUMAN = "human"
HUMAN_LINE = "a person at this computer"  # what a human seat is, beside the agents' lines (agents.spec)
SAVE_FORMAT = "dungeon_env.play/1"
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,80}\.json$")


class Refused(Exception):
    """A request the table will not carry out: ``status`` is its HTTP status (400 malformed, 403
    not this seat's to do, 404 no such seat or file, 409 stale: the game has moved on, 500 the
    host's disk refused a save)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class Seat:
    name: str  # hero_0 .. hero_4, dm
    side: str  # "heroes" or "dm"
    agent: str  # "human" or an agent spec (agents.spec)
    token: str | None = None  # a human seat's own token


def side_of(seat: str) -> str:
    return DM if seat == DM else HEROES


def about(agent: str, side: str) -> str:
    """One plain line saying what plays a seat: a person, or the agent ``agent`` (``agents.spec``)."""
    if agent == HUMAN:
        return HUMAN_LINE
    from agents.spec import describe

    return describe(agent, side)


@dataclass
class Saved:
    """A save (or replay) file, read and checked: its replay and the seats it was saved with
    (``{}`` for a replay file that is not a save)."""

    replay: replay.Replay
    seats: dict[str, str]


class Table:
    """A game in progress with its seats (see the module docstring)."""

    def __init__(
        self,
        adventure: str = "flooded_cellar",
        heroes: list[str] | int = 3,
        seats: dict[str, str] | None = None,
        *,
        seed: int | None = None,
        max_turns: int = 100,
        saves: str | Path = "saves",
        variant: Any = None,
    ) -> None:
        options: dict[str, Any] = {"adventure": adventure, "heroes": heroes, "max_turns": max_turns}
        if variant is not None:
            options["variant"] = variant
        self.env = raw_env(**options)
        self.saves = Path(saves)
        self.lock = threading.RLock()
        self._seed = int(seed) if seed is not None else secrets.randbits(62)
        self.env.reset(seed=self._seed)
        self.hero_version = 0  # actions that left the game at a decision heroes may know of (or its end)
        self.seats = self._make_seats(seats or {})
        self.seat_about = {s.name: about(s.agent, s.side) for s in self.seats.values()}
        self._agents: dict[str, Any] = {}
        self._tokens = {s.token: (s.name,) for s in self.seats.values() if s.token}
        humans = tuple(s.name for s in self.seats.values() if s.agent == HUMAN)
        self.hot_seat = secrets.token_urlsafe(18) if len(humans) > 1 else None
        if self.hot_seat:
            self._tokens[self.hot_seat] = humans
        self.host = secrets.token_urlsafe(18)
        self.saved_seats: dict[str, str] = {}  # the seats of the save this table resumed (resume)
        self._start_story()
        self._bind_agents()

    # ----------------------------------------------------------------------------- seats
    def _make_seats(self, given: dict[str, str]) -> dict[str, Seat]:
        names = [*self.env.possible_agents]
        unknown = sorted(set(given) - set(names))
        if unknown:
            raise ValueError(f"unknown seat(s) {unknown}: this game's seats are {names}")
        default_hero = HUMAN if not given else "scripted"
        seats = {}
        for name in names:
            agent = given.get(name, "scripted" if name == DM else default_hero)
            seat = Seat(name, side_of(name), agent)
            if agent == HUMAN:
                seat.token = secrets.token_urlsafe(18)
            seats[name] = seat
        return seats

    def _bind_agents(self) -> None:
        from agents import from_spec

        game = self.env.game
        for seat in self.seats.values():
            if seat.agent == HUMAN:
                continue
            if seat.name not in self._agents:
                seed = int(np.random.SeedSequence([self._seed, len(self._agents)]).generate_state(1)[0])
                self._agents[seat.name] = from_spec(seat.agent, seat.side, seed=seed)
            self._agents[seat.name].bind(game=game)

    def seats_of(self, token: str) -> tuple[str, ...]:
        seats = self._tokens.get(token) if isinstance(token, str) else None
        if seats is None:
            raise Refused(404, "no seat has this link: ask the host for your seat's link")
        return seats

    def side_of_token(self, token: str) -> str:
        """The side a token sees: the heroes' if all its seats are heroes, else the DM's (a hot seat
        shared by the DM and heroes shows everything)."""
        return DM if DM in self.seats_of(token) else HEROES

    def seat_agents(self) -> dict[str, str]:
        """Seat name -> "human" or the agent spec playing it."""
        return {s.name: s.agent for s in self.seats.values()}

    def links(self) -> dict[str, str]:
        """Seat name (or "hot seat", "host") -> path of its page."""
        out = {s.name: f"/seat/{s.token}" for s in self.seats.values() if s.token}
        if self.hot_seat:
            out["hot seat"] = f"/seat/{self.hot_seat}"
        out["host"] = f"/host/{self.host}"
        return out

    # ----------------------------------------------------------------------------- state
    @property
    def game(self):
        return self.env.game

    @property
    def version(self) -> int:
        """The DM's version: every action applied so far."""
        return len(self.env.actions)

    def version_of(self, side: str) -> int:
        """The version ``side`` sees: the DM's counts every action, the heroes' only those that left
        the game at a decision they may know of (the module docstring)."""
        return self.version if side == DM else self.hero_version

    def version_for(self, token: str) -> int:
        """The version of ``token``'s side."""
        return self.version_of(self.side_of_token(token))

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def at_hidden_decision(self) -> bool:
        """The DM is asked a decision hidden from the heroes (a human DM: an agent's are played at once)."""
        with self.lock:
            return dm_decision_is_hidden(self.game)

    def current_seat(self) -> Seat | None:
        agent = self.game.agent
        return None if agent is None or self.game.over else self.seats[agent]

    def ai_to_act(self) -> bool:
        seat = self.current_seat()
        return seat is not None and seat.agent != HUMAN

    # ----------------------------------------------------------------------------- story
    def _start_story(self) -> None:
        rules = self.game.rules  # a variant's targets in the dice lines (the rules are public)
        self._hero_story, self._dm_story = Story(rules=rules), Story(rules=rules)
        self._lines = {HEROES: [], DM: []}
        self._folded = 0
        self._catch_up()

    def _catch_up(self) -> None:
        game = self.game
        for side, story in ((HEROES, self._hero_story), (DM, self._dm_story)):
            known = knowledge_of(game, side)
            for event in known.events_since(self._folded):
                self._tell(side, story, event)
            known.hold(self, game.n_events)  # told: the env may let them go
        self._folded = game.n_events

    def _tell(self, side: str, story: Story, event: dict) -> None:
        line = story.tell(event)
        if line:
            self._lines[side].append({"n": len(self._lines[side]), "text": line, "turn": event.get("turn")})

    def story(self, side: str, since: int = 0) -> list[dict]:
        """The story lines of ``side`` (``"heroes"`` or ``"dm"``) from line ``since`` on."""
        with self.lock:
            return list(self._lines[side][max(0, int(since)) :])

    # ----------------------------------------------------------------------------- views
    def view(self, token: str, story_since: int = 0) -> dict:
        """What ``token``'s seats may know now, as JSON (see ``play.views``)."""
        with self.lock:
            seats = self.seats_of(token)
            side = self.side_of_token(token)
            game = self.game
            yours = game.agent in seats and not game.over
            shown = knowledge_of(game, HEROES).view() if side == HEROES else game
            data = game_json(shown, side=side, names=monster_names(shown, side), yours=yours)
            data["version"] = self.version_of(side)
            data["seats"] = list(seats)
            data["seat_agents"] = self.seat_agents()
            data["seat_about"] = dict(self.seat_about)
            data["story"] = self._lines[side][max(0, int(story_since)) :]
            data["story_total"] = len(self._lines[side])
            return data

    def spectator_view(self, token: str, story_since: int = 0) -> dict:
        """The host's view (everything, acting for nobody)."""
        with self.lock:
            if token != self.host:
                raise Refused(404, "not the host's link")
            data = game_json(self.game, side=DM, names=None, yours=False)
            data.update(version=self.version, seats=[], seat_agents=self.seat_agents())
            data["seat_about"] = dict(self.seat_about)
            data["story"] = self._lines[DM][max(0, int(story_since)) :]
            data["story_total"] = len(self._lines[DM])
            return data

    # ----------------------------------------------------------------------------- acting
    def act(self, token: str, decision: Any, action: Any) -> None:
        """Apply ``action`` for one of ``token``'s seats, answering decision number ``decision``."""
        with self.lock:
            seats = self.seats_of(token)
            decision, action = _whole(decision, "decision"), _whole(action, "action")
            if self.game.over:
                raise Refused(409, f"the adventure is over ({self.game.outcome}): no more actions")
            version = self.version_for(token)
            if decision != version:
                raise Refused(
                    409,
                    f"stale decision {decision}: the game is at decision {version} "
                    "(someone acted first); nothing was changed",
                )
            agent = self.game.agent
            if agent not in seats:
                yours = ", ".join(seats)
                raise Refused(403, f"it is {agent}'s turn, not yours ({yours}); nothing was changed")
            legal = self.game.legal_actions()
            if not 0 <= action < N_ACTIONS or action not in legal:
                raise Refused(400, f"action {action} is not legal now; the legal actions are {list(legal)}")
            self._apply(action)

    def step_ai(self) -> bool:
        """Let the agent of the seat to act play one action (and the DM's agent its decisions hidden
        from the heroes that follow); False if a human is to act or the game is over."""
        with self.lock:
            seat = self.current_seat()
            if seat is None or seat.agent == HUMAN:
                return False
            action = int(self._agents[seat.name].choose(self.game))
            self._apply(action)
            return True

    def _apply(self, action: int) -> None:
        """Play ``action``, then the decisions hidden from the heroes that an agent takes."""
        self._play(action)
        self._settle()

    def _play(self, action: int) -> None:
        self.env.step(action)
        if not dm_decision_is_hidden(self.game):
            self.hero_version += 1
        self._catch_up()

    def _settle(self) -> None:
        """Play at once the DM's decisions hidden from the heroes while an agent plays the DM, so
        the game never rests at one (a human DM is asked as usual)."""
        while dm_decision_is_hidden(self.game):
            seat = self.current_seat()
            if seat is None or seat.agent == HUMAN:
                return
            self._play(int(self._agents[seat.name].choose(self.game)))

    # ----------------------------------------------------------------------------- save / load
    def save(self, name: str | None = None) -> Path:
        """Write the game so far (a replay file with the seats) under ``saves``; the file holds the
        seed, so it stays on the host's disk: seats are told only its name."""
        with self.lock:
            if name is None:
                name = time.strftime("game-%Y%m%d-%H%M%S") + f"-{self.version}.json"
            if not _SAFE_NAME.match(name):
                expected = "letters, digits, '_', '-', '.' ending in .json"
                raise Refused(400, f"a save name is {expected}; got {name!r}")
            data = replay.record(self.env).to_json()
            data["play"] = {"format": SAVE_FORMAT, "seats": self.seat_agents()}
            path = self.saves / name
            try:
                self.saves.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(data))
            except OSError as err:
                raise Refused(
                    500, f"the game could not be saved in {self.saves}: {err.strerror or err}"
                ) from err
            return path

    def saved_games(self) -> list[str]:
        if not self.saves.is_dir():
            return []
        return sorted(p.name for p in self.saves.glob("*.json"))

    @classmethod
    def resume(
        cls, path: str | Path, seats: dict[str, str] | None = None, *, saves: str | Path = "saves"
    ) -> Table:
        """The game of a save (or replay) file continued with the seats it was saved with (a replay
        file without seats: the default ones); ``seats`` replace the saved ones they name. The
        adventure, party, turn cap, rules variant and seed are the file's."""
        saved = read_save(path)
        options = saved.replay.options
        _check_saved_agents(saved.seats, seats or {}, path)
        try:
            table = cls(
                adventure=options.get("adventure"),
                heroes=options.get("heroes", 3),
                seats={**saved.seats, **(seats or {})},
                seed=saved.replay.seed,
                max_turns=options.get("max_turns", 100),
                saves=saves,
                variant=options.get("variant"),
            )
        except (ValueError, TypeError, OSError) as err:
            raise Refused(400, f"{path}: {replay.cut(str(err))}") from err
        table.saved_seats = dict(saved.seats)
        table._continue(saved.replay, path)
        return table

    def load(self, path: str | Path) -> None:
        """Continue the game of a save (or any replay) file: the same adventure, party and seed, its
        actions played again; the seats stay as they are (their tokens too)."""
        with self.lock:
            self._continue(read_save(path).replay, path)

    def _continue(self, rep: replay.Replay, path: str | Path) -> None:
        """Play ``rep``'s actions again on a new game of its options and take that game, its
        checksum checked; a refusal changes nothing."""
        party = _party(rep.options)
        if len(party) != len(self.seats) - 1:
            raise Refused(
                400,
                f"{path}: a party of {len(party)} heroes does not fit this table's "
                f"{len(self.seats) - 1} hero seats",
            )
        try:
            env = replay.start(rep)
        except replay.ReplayFileError as err:
            raise Refused(400, f"{path}: {err}") from err
        hero_version = 0
        for i, action in enumerate(rep.actions):
            if env.game.over:
                raise Refused(400, f"{path}: the game ended after {i} of its {len(rep.actions)} actions")
            legal = env.game.legal_actions()
            if action not in legal:
                raise Refused(400, f"{path}: action {i} ({action}) is not legal there; legal: {legal}")
            env.step(int(action))
            hero_version += not dm_decision_is_hidden(env.game)
        check_digest(rep, env.events, str(path))
        self.env, self._seed, self.hero_version = env, int(rep.seed), hero_version
        self._start_story()
        self._bind_agents()


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise Refused(400, f"{what} must be a whole number, got {value!r}")
    return int(value)


def _party(options: dict) -> list:
    heroes = options.get("heroes", 3)
    return list(range(heroes)) if isinstance(heroes, int) else list(heroes)


def read_save(path: str | Path) -> Saved:
    """The save (or replay) file ``path`` read and checked (``dungeon_env.replay`` checks the replay,
    this the seats); a :class:`Refused` naming the file and what is wrong."""
    try:
        data = replay.read_json(path)
        rep = replay.Replay.from_json(data)
    except FileNotFoundError as err:
        raise Refused(404, f"no saved game {str(path)!r}") from err
    except replay.ReplayFileError as err:  # from_json's errors do not name the file, read_json's do
        message = str(err) if str(err).startswith(str(path)) else f"{path}: not a saved game or replay: {err}"
        raise Refused(400, message) from err
    return Saved(rep, _saved_seats(data.get("play"), path))


def check_digest(rep: replay.Replay, events: list[dict], source: str) -> None:
    """Refuse a file whose checksum does not match the game its actions replay to (a file ended
    by an illegal action: its checksum covers that ending, which a table does not play)."""
    if rep.illegal is not None:
        return
    try:
        replay.check_digest(rep, events, source)
    except replay.ReplayMismatch as err:
        raise Refused(400, str(err)) from err


def _check_saved_agents(saved: dict[str, str], given: dict[str, str], path: str | Path) -> None:
    """Refuse a saved seat whose agent no longer exists (a retired name), saying how to replace it."""
    from agents.spec import AgentSpecError, parse_spec

    for name, who in saved.items():
        if name in given or who == HUMAN:
            continue
        try:
            parse_spec(who, side_of(name))
        except AgentSpecError as err:
            raise Refused(
                400, f"{path}: seat {name}: {err}; give --seat {name}=AGENT (or =human) to replace it"
            ) from err


def _saved_seats(entry: Any, path: str | Path) -> dict[str, str]:
    """The seats of a save's ``play`` entry (none: ``{}``, a replay file that is not a save)."""
    if entry is None:
        return {}
    seats = entry.get("seats") if isinstance(entry, dict) else None
    if not isinstance(seats, dict):
        accepted = 'an object {"seats": {"hero_0": "human", "dm": "scripted", ...}}'
        raise Refused(400, f"{path}: play: expected {accepted}; found {replay.shown(entry)}")
    for name, who in seats.items():
        if not (isinstance(who, str) and who):
            accepted = '"human" or an agent spec such as "scripted"'
            raise Refused(400, f"{path}: play.seats.{name}: expected {accepted}; found {replay.shown(who)}")
    return dict(seats)
