"""Twin games: two games identical in everything heroes may know, differing in one hidden thing.

A twin pair is two raw envs reset with the same seed, one of them changed in a single hidden way
(a trap on another square, two face-down cards swapped in a deck, a monster in the fog, a secret
door or a room event taken out of the adventure file, other dice for the DM's secret rolls). Both
are then played with the same hero actions, and every channel the env hands a hero is compared at
every step: each hero's observation and mask, its infos, its rewards, its end flags, and whose turn
it is. They must stay identical until the hidden thing becomes knowable by the rules, which each
twin kind says for itself (the trap is found or sprung, the card is identified, the monster comes
into sight...).

The Dungeon Master may know everything, so its choices may depend on the hidden thing:
- a decision about a monster heroes do not see is played in each game alone, by its own dice;
- a decision about a figure heroes see is played in both with the same action (drawn from a
  random stream keyed by the step), unless the two games offer the DM different choices: then the
  DM's play may show the hidden thing from there on (monsters know every trap, R-MON-10), and the
  comparison stops there, with that reason. This DM never defers a monster heroes see: whether it
  may (``defer``) counts the monsters still to move, fog ones included, and the order in which the
  DM moves its monsters is its own business.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import dungeon_env
from dungeon_env.content.model import WIDTH
from dungeon_env.engine import Game
from dungeon_env.engine import sideview as sv
from dungeon_env.engine.actions import DEFER
from dungeon_env.engine.state import ACTIVE, SIDE_MONSTER, How, State
from dungeon_env.engine.units import place_monster
from dungeon_env.observation import unflatten

STATE_FIELDS = tuple(f.name for f in dataclasses.fields(State))

ADVENTURES = Path(dungeon_env.__file__).parent / "content" / "adventures"


@dataclass
class Twins:
    """Two envs and the rule for when their difference becomes knowable to heroes."""

    kind: str
    a: dungeon_env.raw_env
    b: dungeon_env.raw_env
    knowable: Callable[[Game, Game], str]  # a reason once heroes may know the difference, else ""
    note: str = ""
    exempt: tuple[str, ...] = ()  # the hidden monster itself: its moves may differ


@dataclass
class Verdict:
    kind: str
    note: str
    compared: int = 0  # joint steps at which every hero channel was compared
    stop: str = ""  # why the comparison ended
    hero_choices: list = field(default_factory=list)


# ------------------------------------------------------------------------------------ the channels


def hero_channels(env, knowledge: bool = False) -> dict:
    """Everything the env hands heroes at this step (every hero, asked or not); with ``knowledge``,
    also the heroes' knowledge of the game (``SideKnowledge.snapshot``), whose every channel is a
    function of it."""
    out = {"selected": env.agent_selection if env.agent_selection != "dm" else "dm"}
    if knowledge:
        out["knowledge"] = env.knowledge["heroes"].snapshot()
    for agent in env.possible_agents:
        if agent == "dm" or agent not in env.agents:
            continue
        obs = env.observe(agent)
        out[agent] = {
            "observation": obs["observation"],
            "mask": obs["action_mask"],
            "infos": env.infos.get(agent),
            "reward": env.rewards.get(agent),
            "return": env._cumulative_rewards.get(agent),
            "terminated": env.terminations.get(agent),
            "truncated": env.truncations.get(agent),
        }
    return out


def differences(x: dict, y: dict) -> list[str]:
    """The channels that differ, by name (observation pieces named by the layout)."""
    out = []
    if x["selected"] != y["selected"]:
        out.append(f"whose turn: {x['selected']} / {y['selected']}")
    if x.get("knowledge") != y.get("knowledge"):
        kx, ky = x["knowledge"], y["knowledge"]
        out.append("the heroes' knowledge: " + ", ".join(k for k in kx if kx[k] != ky.get(k)))
    for agent in sorted(set(x) | set(y)):
        if agent in ("selected", "knowledge"):
            continue
        cx, cy = x.get(agent), y.get(agent)
        if cx is None or cy is None:
            out.append(f"{agent}: in one game only")
            continue
        for key in cx:
            a, b = cx[key], cy[key]
            if key == "observation":
                if not np.array_equal(a, b):
                    out.append(f"{agent} observation {_pieces_apart(a, b)}")
            elif key == "mask":
                if not np.array_equal(a, b):
                    out.append(f"{agent} mask {np.flatnonzero(a).tolist()} / {np.flatnonzero(b).tolist()}")
            elif key == "infos" and a and b and a.get("events") != b.get("events"):
                ea, eb = a.get("events", []), b.get("events", [])
                k = next(
                    (k for k, (x, y) in enumerate(zip(ea, eb, strict=False)) if x != y), min(len(ea), len(eb))
                )
                out.append(
                    f"{agent} infos events part at {k}: {_short(ea[k : k + 2])} / {_short(eb[k : k + 2])}"
                )
            elif a != b:
                out.append(f"{agent} {key}: {_short(a)} / {_short(b)}")
    return out


def _pieces_apart(a: np.ndarray, b: np.ndarray) -> str:
    """The observation pieces that differ, with the planes / columns and slots of tables."""
    from dungeon_env.observation import FIGURE_COLUMNS, PLANES

    pa, pb = unflatten(a), unflatten(b)
    out = []
    for name in pa:
        x, y = pa[name], pb[name]
        if np.array_equal(x, y):
            continue
        where = np.argwhere(x != y)[:4].tolist()
        if name == "board":
            where = [(PLANES[p][0], r, c) for p, r, c in where]
        elif name == "figures":
            where = [(slot, FIGURE_COLUMNS[f][0]) for slot, f in where]
        out.append(f"{name} at {where}")
    return "; ".join(out)


def first_divergence(ga: Game, gb: Game) -> str:
    """Where the two full logs part (for the failure message)."""
    for k, (x, y) in enumerate(zip(ga.events, gb.events, strict=False)):
        if x != y:
            before = _short(ga.events[k - 3 : k])
            return f"the full logs part at event {k}: {_short(x)} / {_short(y)}; before: {before}"
    return f"one full log is a prefix of the other ({len(ga.events)} / {len(gb.events)} events)"


def _short(value) -> str:
    text = repr(value)
    return text if len(text) < 600 else text[:600] + "..."


# ------------------------------------------------------------------------------------ playing twins


def acting_unseen(game: Game) -> bool:
    """The decision asked is about a monster heroes do not see (in the fog)."""
    s = game.state
    if game.over or not s.stack:
        return False
    u = s.stack[-1][1]
    if u < s.n_heroes or s.unit_side[u] != SIDE_MONSTER:
        return False
    pos = int(s.unit_pos[u])
    return pos < 0 or not s.revealed[game.tables.area[pos]]


def _forced(env) -> int | None:
    """The DM's only choice besides ``defer``, if that is all it has: the engine plays a single legal
    action by itself, and ``defer`` is legal only while another monster (fog ones included) is still
    to move, so one game may ask what the other plays at once."""
    if env.agent_selection != "dm" or env.game.over:
        return None
    legal = [a for a in env.game.legal_actions() if a != DEFER]
    return legal[0] if len(legal) == 1 else None


def _dm_alone(env, seed: int, record: list, limit: int = 5000) -> None:
    """Play, in this game alone, the DM's decisions about unseen monsters (the k-th decision about a
    monster gets the same action in both games when both offer the same choices; ``record`` gets
    (monster, choices) of each) and its forced ones (see :func:`_forced`)."""
    for _ in range(limit):
        game = env.game
        forced = _forced(env)
        if forced is not None and not acting_unseen(game):
            env.step(forced)
            continue
        if not acting_unseen(game):
            return
        who = game.label(game.state.stack[-1][1])
        legal = np.flatnonzero(env.observe("dm")["action_mask"]).tolist()
        k = sum(1 for r in record if r[0] == who)
        record.append((who, legal))
        env.step(random.Random(f"{seed}:{who}:{k}").choice(legal))
    raise AssertionError("the DM was asked about unseen monsters too long")


def play_twins(
    twins: Twins, heroes: str = "random", seed: int = 0, max_steps: int = 3000, knowledge: bool = False
) -> Verdict:
    """Play both games as described in the module docstring (``heroes``: ``random``, ``scripted`` for
    v1 or ``scripted@v2``); raise AssertionError at the first step
    where a hero channel (with ``knowledge``, also the heroes' knowledge object) differs before the
    difference is knowable."""
    from agents.scripted_heroes import ScriptedHeroes
    from agents.scripted_heroes_v2 import ScriptedHeroesV2

    a, b = twins.a, twins.b
    verdict = Verdict(twins.kind, twins.note)
    hero_rng = random.Random(seed)
    alone: dict[int, list] = {id(a): [], id(b): []}
    kind = {"scripted": ScriptedHeroes, "scripted@v2": ScriptedHeroesV2}.get(heroes)
    scripted = {id(a): kind(env=a), id(b): kind(env=b)} if kind else {}
    for step in range(max_steps):
        for env in (a, b):
            if env.agents:
                _dm_alone(env, seed, alone[id(env)])
        ra, rb = ([r for r in alone[id(e)] if r[0] not in twins.exempt] for e in (a, b))
        reason = twins.knowable(a.game, b.game)
        if not reason and ra != rb:
            reason = "the DM's choices for an unseen monster depend on the hidden thing"
        if reason:
            verdict.stop = reason
            return verdict
        if "dm" in (a.agent_selection, b.agent_selection) and a.agent_selection != b.agent_selection:
            verdict.stop = "the DM's choices for a figure heroes see depend on the hidden thing"
            return verdict  # one game asks the DM what the other could only play one way
        ca, cb = hero_channels(a, knowledge), hero_channels(b, knowledge)
        diff = differences(ca, cb)
        if diff:
            raise AssertionError(
                f"{twins.kind} ({twins.note}), step {step}: heroes can tell the twins apart: "
                + "; ".join(diff)
                + "\n"
                + first_divergence(a.game, b.game)
            )
        verdict.compared += 1
        if not a.agents:
            verdict.stop = "both games over"
            return verdict
        agent = a.agent_selection
        if a.terminations[agent] or a.truncations[agent]:
            a.step(None)
            b.step(None)
            continue
        if agent == "dm":
            mask_a, mask_b = a.observe("dm")["action_mask"], b.observe("dm")["action_mask"]
            mask_a[DEFER] = mask_b[DEFER] = 0  # the order the DM moves its monsters in is its own
            if not np.array_equal(mask_a, mask_b):
                verdict.stop = "the DM's choices for a figure heroes see depend on the hidden thing"
                return verdict
            action = random.Random(f"{seed}:{step}").choice(np.flatnonzero(mask_a).tolist())
        elif scripted:
            action = scripted[id(a)].act(a.observe(agent))
            other = scripted[id(b)].act(b.observe(agent))
            assert action == other, (
                f"{twins.kind} ({twins.note}), step {step}: the scripted heroes choose {action} and {other}"
            )
            verdict.hero_choices.append(action)
        else:
            action = hero_rng.choice(np.flatnonzero(ca[agent]["mask"]).tolist())
        a.step(action)
        b.step(action)
    verdict.stop = "step limit"
    return verdict


# ------------------------------------------------------------------------------ what a view holds


def view_digest(v: Game) -> bytes:
    """A digest of everything of a view an agent could read: every field of the state (an array's
    dtype, shape and bytes), the tables, the line of sight from the heroes' squares, the adventure,
    the cards and spells, the dice, the seed, the log, the legal actions and the target candidates.
    Equal digests are equal views (SHA-256 of all that but the arrays, as JSON, then of the arrays'
    bytes, whose lengths the JSON's dtypes and shapes fix)."""
    s, t = v.state, v.tables
    if type(s) is not State:
        s = s.copy()  # a state on the core: a plain copy, as its to_json reads it
    described, arrays = [], []
    for name in STATE_FIELDS:
        value = getattr(s, name)
        if isinstance(value, np.ndarray):
            described.append([name, value.dtype.str, value.shape])
            arrays.append(value)
        else:
            described.append([name, value])
    for name in ("wall", "edge_door", "furniture", "blockage", "patrol_rooms"):
        table = np.asarray(getattr(t, name))
        described.append([name, table.dtype.str, table.shape])
        arrays.append(table)
    for q in (int(q) for q in s.unit_pos[: s.n_heroes] if q >= 0):
        for los in (t.los_static[q], t.los_doors[q]):
            described.append(["los", q, los.dtype.str, los.shape])
            arrays.append(los)
    described += [
        repr(dataclasses.replace(t.adventure, source="")),  # not its file name
        t.door_squares,
        [c.id for c in v.item_cards],
        [sp.id for sp in v.spells],
        v.dice.to_json(),
        v.seed,
        v.events,
        v.legal_actions(),
        sv.target_candidates(v),
    ]
    h = hashlib.sha256(json.dumps(described, default=str).encode())
    for array in arrays:
        h.update(np.ascontiguousarray(array).tobytes())
    return h.digest()


def recording_heroes(base: type, limit: int) -> type:
    """``base`` (a scripted heroes' class) keeping the ``view_digest`` of the first ``limit`` views
    it is handed (``seen``), each checked to be the heroes' view; ``choices`` counts them all."""

    class Recording(base):
        def __init__(self, *args, **kw) -> None:
            super().__init__(*args, **kw)
            self.seen: list[bytes] = []
            self.choices = 0

        def choose(self, game: Game) -> int:
            assert sv.view_side(game) == "heroes"  # GameAgent.act hands over the heroes' view
            self.choices += 1
            if len(self.seen) < limit:
                self.seen.append(view_digest(game))
            return super().choose(game)

    return Recording


# ------------------------------------------------------------------------------------ making twins


def make_env(adventure: str | Path, heroes: int, seed: int, max_turns: int = 60):
    env = dungeon_env.raw_env(adventure=str(adventure), heroes=heroes, max_turns=max_turns, info_events=True)
    env.reset(seed=seed)
    return env


def unrevealed_floor(game: Game, rng: random.Random, away: int = 3) -> list[int]:
    """Plain free squares of unrevealed areas at least ``away`` steps from every revealed square
    (shuffled)."""
    s, t = game.state, game.tables
    revealed = s.revealed[t.area]
    occupied = s.occupant >= 0
    traps = {ty * WIDTH + tx for tx, ty in (tr.at for tr in t.adventure.traps)}
    near = revealed.copy()
    for _ in range(away):
        grown = near.copy()
        for d in range(4):
            nb = t.neighbor[:, d]
            ok = nb >= 0
            grown[ok] |= near[nb[ok]]
        near = grown
    out = [
        q
        for q in range(t.n_squares)
        if not near[q]
        and not occupied[q]
        and not t.furniture[q]
        and not t.blockage[q]
        and not t.exit[q]
        and q not in traps
    ]
    rng.shuffle(out)
    return out


def _blocks(text: str, header: str) -> list[tuple[int, int]]:
    """(start, end) character spans of the ``[[header]]`` tables of a TOML file."""
    starts = [m.start() for m in re.finditer(r"^\[\[", text, re.M)]
    spans = []
    for k, start in enumerate(starts):
        if text.startswith(f"[[{header}]]", start):
            end = starts[k + 1] if k + 1 < len(starts) else len(text)
            spans.append((start, end))
    return spans


def _write(folder: Path, name: str, text: str) -> Path:
    """The edited adventure file, under the adventure's own name (its id must match the file's)."""
    adventure, _, variant = name.partition("_twin_")
    path = folder / variant / f"{adventure}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def trap_moved(folder: Path, adventure: str, seed: int, heroes: int = 3) -> Twins | None:
    """A hidden trap of an unrevealed area on another unrevealed square (the adventure file edited)."""
    a = make_env(adventure, heroes, seed)
    game, rng = a.game, random.Random(seed)
    text = (ADVENTURES / f"{adventure}.toml").read_text()
    spans = _blocks(text, "trap")
    s, t = game.state, game.tables
    hidden = [
        i
        for i, tr in enumerate(t.adventure.traps)
        if not s.revealed[t.area[tr.at[1] * WIDTH + tr.at[0]]] and s.trap_armed[i]
    ]
    squares = unrevealed_floor(game, rng)
    if not hidden or not squares or len(spans) != len(t.adventure.traps):
        return None
    i, to = rng.choice(hidden), squares[0]
    old = t.adventure.traps[i].at
    start, end = spans[i]
    at = f"at = [{to % WIDTH}, {to // WIDTH}]"
    block = re.sub(r"^at = \[\s*\d+,\s*\d+\s*\]", at, text[start:end], count=1, flags=re.M)
    path = _write(folder, f"{adventure}_twin_trap_{seed}", text[:start] + block + text[end:])
    b = make_env(path, heroes, seed)
    squares_ab = [old[1] * WIDTH + old[0], to]

    def knowable(ga: Game, gb: Game) -> str:
        for g in (ga, gb):
            if g.state.trap_detected[i] or not g.state.trap_armed[i]:
                return "the trap was found or sprung"
            if any(int(g.state.occupant[q]) >= 0 for q in squares_ab):
                return "a figure stands on one of the two squares"
        return ""

    return Twins("trap_moved", a, b, knowable, f"{adventure} seed {seed}: trap {i} {old} -> {squares_ab[1]}")


def deck_order(adventure: str, seed: int, heroes: int = 3) -> Twins | None:
    """In every face-down deck, the next card to come swapped with a different one further down."""
    a = make_env(adventure, heroes, seed)
    b = copy.deepcopy(a)
    s = b.game.state
    cards = b.game.item_cards
    swapped = []
    for d in range(len(s.deck_cards)):
        left = [k for k in range(int(s.deck_next[d]), s.deck_cards.shape[1]) if s.deck_cards[d, k] >= 0]
        face_down = [k for k in left if cards[int(s.deck_cards[d, k])].face_down]
        others = [k for k in face_down if s.deck_cards[d, k] != s.deck_cards[d, face_down[0]]]
        if others:
            x, y = face_down[0], others[0]
            s.deck_cards[d, [x, y]] = s.deck_cards[d, [y, x]]
            swapped.append(d)
    if not swapped:
        return None

    def knowable(ga: Game, gb: Game) -> str:
        sa, sb = ga.state, gb.state
        differ = np.flatnonzero((sa.item_card != sb.item_card) & (sa.item_card >= 0))
        for slot in differ:
            if sa.item_known[slot] or sb.item_known[slot]:
                return "a swapped card was identified"
            for g in (ga, gb):
                if any(e.get("item") == slot and e["type"] in REVEALING for e in g.events[-40:]):
                    return "a swapped card was put to use"
        return ""

    return Twins("deck_order", a, b, knowable, f"{adventure} seed {seed}: decks {swapped}")


REVEALING = frozenset({"item_used", "memorize", "cast", "item_wasted", "item_identified"})


def fog_monster(adventure: str, seed: int, heroes: int = 3, monster: str = "goblin") -> Twins | None:
    """The same monster placed in the fog in both games, on a different unrevealed square."""
    a = make_env(adventure, heroes, seed)
    b = copy.deepcopy(a)
    squares = unrevealed_floor(a.game, random.Random(seed))
    if len(squares) < 2:
        return None
    placed = (len(a.game.events), len(b.game.events))
    ua = place_monster(a.game, monster, squares[0], How.PATROL)
    place_monster(b.game, monster, squares[1], How.PATROL)  # the same slot and id in both
    for env in (a, b):
        _restart(env)
    note = f"{adventure} seed {seed}: {monster} at {squares[:2]}"
    return Twins("fog_monster", a, b, _monster_knowable(ua, placed), note, (a.game.label(ua),))


def extra_fog_monster(adventure: str, seed: int, heroes: int = 3, monster: str = "goblin") -> Twins | None:
    """Mid-game, while a monster heroes see keeps the Combat Turn Sequence on: one game gets one
    more monster, in the fog."""
    a = make_env(adventure, heroes, seed)
    rng = random.Random(seed)
    for _ in range(4000):
        if not a.agents:
            return None
        s = a.game.state
        seen = [
            u
            for u in range(s.n_heroes, len(s.unit_status))
            if s.unit_status[u] == ACTIVE and s.unit_side[u] == SIDE_MONSTER and not _unseen(a.game, u)
        ]
        if seen and a.agent_selection != "dm":
            break
        agent = a.agent_selection
        done = a.terminations[agent] or a.truncations[agent]
        a.step(None if done else rng.choice(np.flatnonzero(a.observe(agent)["action_mask"])))
    else:
        return None
    b = copy.deepcopy(a)
    squares = unrevealed_floor(b.game, rng)
    if not squares:
        return None
    placed = (None, len(b.game.events))
    u = place_monster(b.game, monster, squares[0], How.PATROL)
    _restart(b)
    note = f"{adventure} seed {seed}"
    return Twins(
        "extra_fog_monster", a, b, _monster_knowable(u, placed, extra=True), note, (b.game.label(u),)
    )


def _unseen(game: Game, u: int) -> bool:
    pos = int(game.state.unit_pos[u])
    return pos < 0 or not game.state.revealed[game.tables.area[pos]]


def _monster_knowable(u: int, placed: tuple, extra: bool = False) -> Callable[[Game, Game], str]:
    """When heroes may know of the twins' fog monster (slot ``u``; ``placed``: the index of its
    hand-made spawn event in each game's log, None where there is none)."""

    spawns = (_Logged("spawn", placed[0]), _Logged("spawn", placed[1]))

    def knowable(ga: Game, gb: Game) -> str:
        for g in (ga, gb) if not extra else (gb,):
            if g.state.unit_status[u] != ACTIVE or g.state.unit_side[u] != SIDE_MONSTER:
                return "the fog monster left the board"
            if not _unseen(g, u):
                return "the fog monster came into sight"
        if (_monsters_on_board(ga) > 0) != (_monsters_on_board(gb) > 0):
            return "the Combat Turn Sequence is on in one game only (the rules make it public)"
        if [e["at"] for e in spawns[0](ga)] != [e["at"] for e in spawns[1](gb)]:
            return "a monster was placed differently (A-07: the Patrol's square depends on free squares)"
        return ""

    return knowable


class _Logged:
    """The events of one ``type`` in a game's log, but for event index ``skip``: read on from where
    the last call stopped (all of it again for another game or another log, or a log that got
    shorter), so that a check at every step does not read the whole log each time."""

    def __init__(self, type_: str, skip: int | None = None) -> None:
        self.type, self.skip, self.log, self.read, self.found = type_, skip, None, 0, []

    def __call__(self, game: Game) -> list[dict]:
        log = game.events
        if log is not self.log or len(log) < self.read:
            self.log, self.read, self.found = log, 0, []
        for k in range(self.read, len(log)):
            if log[k]["type"] == self.type and k != self.skip:
                self.found.append(log[k])
        self.read = len(log)
        return self.found


def _monsters_on_board(game: Game) -> int:
    s = game.state
    return int(np.sum((s.unit_status == ACTIVE) & (s.unit_side == SIDE_MONSTER)))


def _restart(env) -> None:
    """After changing an env's game by hand: forget what was built from the old game."""
    env._observer.reset()
    env.game.state_edited()


def secret_door_removed(
    folder: Path, adventure: str, seed: int, heroes: int = 3, start_in_room: bool = False
) -> Twins | None:
    """The adventure file without one of its secret doors (and the room text that finds it). With
    ``start_in_room``, in both twins the party starts in the room of that text, its Guards and
    Ambushers left out, so that heroes playing at random explore it early (the same edit in both:
    the twins still differ only in the secret door); otherwise they start where the adventure says."""
    text = (ADVENTURES / f"{adventure}.toml").read_text()
    doors = [span for span in _blocks(text, "door") if "secret = true" in text[span[0] : span[1]]]
    secret_events = [span for span in _blocks(text, "event") if 'kind = "secret"' in text[span[0] : span[1]]]
    if not doors or not secret_events:
        return None
    if start_in_room:
        area = re.search(r'^area = "(\w+)"', text[slice(*secret_events[0])], re.M).group(1)
        text = _start_in(text, make_env(adventure, heroes, seed).game, area)
    doors = [span for span in _blocks(text, "door") if "secret = true" in text[span[0] : span[1]]]
    secret_events = [span for span in _blocks(text, "event") if 'kind = "secret"' in text[span[0] : span[1]]]
    common = _write(folder, f"{adventure}_twin_secretroom_{seed}", text)
    cut = sorted([doors[0], secret_events[0]], reverse=True)
    edited = text
    for start, end in cut:
        edited = edited[:start] + edited[end:]
    path = _write(folder, f"{adventure}_twin_nosecret_{seed}", edited)
    a, b = make_env(common, heroes, seed), make_env(path, heroes, seed)

    found, texts_read = _Logged("secret_door"), _room_texts_read()

    def knowable(ga: Game, gb: Game) -> str:
        if found(ga):
            return "the secret door was found"
        return texts_read(ga, gb)

    return Twins("secret_door_removed", a, b, knowable, f"{adventure} seed {seed}")


def _start_in(text: str, game: Game, area: str) -> str:
    """The adventure file with its start squares in ``area`` (free floor, reading order) and the
    Guards and Ambushers of that area left out."""
    t = game.tables
    index = t.board.area_names.index(area)
    squares = set(np.flatnonzero(t.area == index).tolist())
    for kind in ("guard", "ambush"):
        for start, end in sorted(_blocks(text, kind), reverse=True):
            block = text[start:end]
            at = [int(v) for v in re.findall(r"\d+", block.split("at =", 1)[1].split("\n", 1)[0])]
            mine = f'area = "{area}"' in block or any(
                y * WIDTH + x in squares for x, y in zip(at[::2], at[1::2], strict=True)
            )
            if mine:
                text = text[:start] + text[end:]
    traps = {y * WIDTH + x for x, y in (trap.at for trap in t.adventure.traps)}
    free = [q for q in sorted(squares) if not (t.furniture[q] or t.blockage[q] or q in traps)]
    start = ", ".join(f"[{q % WIDTH}, {q // WIDTH}]" for q in free[:5])
    return re.sub(r"^start = .*$", f"start = [{start}]", text, count=1, flags=re.M)


def room_event_removed(folder: Path, adventure: str, seed: int, heroes: int = 3) -> Twins | None:
    """The adventure file without one room event of a room that is not revealed at the start (one
    the adventure can lose: no objective needs it)."""
    text = (ADVENTURES / f"{adventure}.toml").read_text()
    a = make_env(adventure, heroes, seed)
    g = a.game
    names = g.tables.board.area_names
    spans = _blocks(text, "event")
    events = g.tables.adventure.events
    rng = random.Random(seed)
    order = rng.sample(range(len(events)), len(events))
    for e in order:
        ev = events[e]
        if g.state.revealed[names.index(ev.area)] or ev.kind == "secret" or ev.item:
            continue
        start, end = spans[e]
        path = _write(folder, f"{adventure}_twin_noevent_{seed}", text[:start] + text[end:])
        try:
            b = make_env(path, heroes, seed)
        except ValueError:
            continue

        def knowable(ga: Game, gb: Game, area=ev.area) -> str:
            for game in (ga, gb):
                for x in game.events[-60:]:
                    if (
                        x["type"] in ("room_event", "item_found", "event_choice")
                        and _event_area(game, x) == area
                    ):
                        return "a hero explored the room of the removed event"
            return ""

        return Twins("room_event_removed", a, b, knowable, f"{adventure} seed {seed}: event {e} in {ev.area}")
    return None


def _event_area(game: Game, event: dict) -> str:
    return event.get("area") or game.tables.adventure.events[event["event"]].area


def _room_texts_read() -> Callable[[Game, Game], str]:
    """A check that the twins' room texts read so far are the same (their room events)."""
    read = (_Logged("room_event"), _Logged("room_event"))

    def differ(ga: Game, gb: Game) -> str:
        ka, kb = read[0](ga), read[1](gb)
        if [(e["area"], e["text"]) for e in ka] != [(e["area"], e["text"]) for e in kb]:
            return "the room texts read differ (a hero explored a room whose text changed)"
        return ""

    return differ


def secret_dice(adventure: str, seed: int, heroes: int = 3) -> Twins | None:
    """Other dice for the DM's secret Detect Traps rolls (their successes and faces differ)."""
    a = make_env(adventure, heroes, seed)
    b = copy.deepcopy(a)
    b.game.dice._state["secret"] ^= 0x5DEECE66D * (seed + 1)

    def knowable(ga: Game, gb: Game) -> str:
        if not np.array_equal(ga.state.trap_detected, gb.state.trap_detected):
            return "the detections found different traps"
        return ""

    return Twins("secret_dice", a, b, knowable, f"{adventure} seed {seed}")
