"""dungeon_v1: heroes against the Dungeon Master, as a PettingZoo AEC environment (the env card).

```python
import dungeon_env

env = dungeon_env.env(adventure="flooded_cellar", heroes=["bram", "sela", "orwin"], render_mode="ansi")
env.reset(seed=7)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
    env.step(action)
```

| | |
|---|---|
| Import | `dungeon_env.env(**options)` (wrapped), `dungeon_env.raw_env(**options)` (unwrapped) |
| Actions | `Discrete(N_ACTIONS)`, one flat table for every decision, masked |
| Agents | `hero_0` .. `hero_{k-1}` (k = 3..5) and `dm` |
| Observation | `Dict(observation=Box(0, high, (size,), float32), action_mask=Box(0, 1, (N,), int8))` |
| Dict format | `observation_format="dict"`: one Box per piece (`DICT_PIECES`) plus `action_mask` |
| Spaces | one observation space and one action space object, shared by every agent |
| Turn order | follows the engine's pending decision (never a fixed round robin) |
| Render modes | `ansi` (text), `rgb_array` (numpy image), `human` (pygame window) |

**Agents and turn order.** ``agent_selection`` is always the agent the game is asking: a hero for
its own figure's decisions, ``dm`` for every monster's. A decision with a single legal action is
taken by the engine without asking (ruling D-08), so an agent is only selected when it has a real
choice. The same agent is often selected several times in a row (a hero moving square by square).

**Actions.** One flat table; multi-part choices are consecutive decisions, each with its own mask
(a spell: ``spell_k``, then ``normal_cast``/``overcast``, then ``target_k``). The full table with
every action's meaning is in docs/ACTIONS.md (``dungeon_env.engine.describe.action_table_markdown()``);
by groups:

| ids | actions | asked when |
|---|---|---|
| 0-3 | `move_n` .. `move_w` | a step (into a closed door: an Open Doors attempt) |
| 4-7 | `jump_n` .. `jump_w` | a Jump over a one-square obstacle |
| 8-11 | `drag_n` .. `drag_w` | take hold of a corpse |
| 12-14 | `extra_move`, `end`, `defer` | Stamina for movement; end this figure's turn; DM: move later |
| 15-18 | `spend_0` .. `spend_3` | Stamina (or Magic) added to a Fight or Mental Combat |
| 19-23 | `handoff_0` .. `handoff_4` | hand the heroes' movement to another hero |
| 24-35 | `item_0` .. `item_11` | pick the k-th item held (then a verb) |
| 36-43 | `spell_0` .. `spell_7` | pick the k-th spell known (then a verb) |
| 44-49 | `use`, `memorize`, `identify`, `forget`, `give`, `loot` | verbs |
| 50-59 | `target_0` .. `target_9` | the k-th candidate (the observation's `candidates` rows) |
| 60-63 | `normal_cast`, `overcast`, `keep_casting`, `let_fail` | casting choices |
| 64-71 | `explore`, `stay`, `choice_0` .. `choice_3`, `take`, `pass` | the Explore phase |
| 72-75 | `disarm_n` .. `disarm_w` | try to disarm a detected trap |
| 76-78 | `back`, `ability_0`, `ability_1` | go back from a verb or a gift; a hero's Active ability |

``obs["action_mask"]`` holds exactly the legal actions of the agent asked, and is never all zeros
for it; every other agent's mask is all zeros.

**Observation.** One float32 vector made of named pieces (``dungeon_env.observation``, layout v1;
``unflatten(obs)`` gives the pieces back, ``layout_markdown()`` prints the layout,
docs/OBSERVATION.md): board planes ``[19, 28, 24]`` first (revealed areas, corridors, walls, closed
and open doors, furniture, blockages, exits, traps, heroes, monsters, corpses, the acting figure),
then entity tables with one row per thing: ``figures`` (64 figure slots x features: side, status,
position, Health/Stamina/Magic as fractions, flags, base profile, traits, the acting and candidate
marks, ``kind`` the card id), the observing hero's ``own_items`` and ``own_spells`` (row k is
``item_k`` / ``spell_k``), the ``candidates`` of a ``choose_target`` decision (row k is ``target_k``) and the
``item_table`` of every item in play (holder, deck, card id); then the decision context: role,
``me`` (the observing hero), whose turn, the acting agent, the phase (with the combat sub-steps),
the decision kind and its two args, combat, Light and turn. Values lie in ``[0, 1]``, except the id
columns (card, spell and row ids: small integers, 0 for none), bounded by the Box's ``high``.
``observation_format="dict"`` gives the pieces as a ``gymnasium.spaces.Dict`` (``board``,
``figures``, ``own_items``, ``own_spells``, ``candidates``, ``item_table``, ``context`` and
``action_mask``;
SB3's ``MultiInputPolicy`` reads it). Heroes see what heroes may know: the layout of revealed areas
only, figures in revealed areas only, detected traps only, the identity of identified items only;
the DM sees everything. ``state()`` is the global state for centralised critics: the DM's view as
a flat vector, which hides nothing (``state_space`` is its Box).

**Rewards.** Heroes share the team's reward, and every hero gets all of it, including a hero who
has already left the dungeon or died. At the end of the adventure: ``reward_completed`` (+1) when it
is completed with every primary goal met, ``reward_completed_without_goal`` (0) when every surviving
hero walked out without them, ``reward_failed`` (-1) when it fails (every hero dead; a party that met
the final adventure's primary goals and died has completed it), ``reward_truncated`` (0) at the turn
cap (below: a cap that pays is an end of the task, one that pays 0 a time limit); the DM gets the
opposite. Optional shaping, off by default: ``shaping={"damage": w, "kills": w,
"treasure": w, "exploration": w, "doors": w, "exits": w, "goal_exits": w, "squares": w,
"exit_path": w, "explored": w}`` adds to
the heroes' reward ``w`` per point of damage dealt to a monster and ``-w`` per point taken, ``w``
per monster slain and ``-w`` per hero death, ``w`` per item a hero takes, ``w`` per area revealed,
``w`` per door opened, ``w`` per hero who leaves the dungeon, ``w`` per hero who leaves when every
other primary goal is then in hand (met, or the item to carry out held face up) and ``-w`` per hero
who leaves before (``goal_exits``), ``w`` per square
a hero steps into that no hero had stood on before in the game (``squares``), and ``w`` times the
change of a potential at each step (``exit_path``: minus each hero's share of the way to the
nearest exit on the board as heroes know it, 0 once every hero is out, a dead hero -1; over a game
it adds up to ``w`` times the potential's end minus its start), ``w`` per area the heroes explore
in an Explore phase for the first time (``explored``); the DM gets the negative (the game stays
zero-sum). Rewards accumulate as PettingZoo's ``_cumulative_rewards``: an
agent collects with ``last()`` what came since it last acted, so every hero's episode return is the
team's return, whenever it stopped acting.
The reward functions themselves (outcome table, shaping terms) are ``dungeon_env.rewards``; the
episode's bookkeeping (each step's team reward, the campaign's next adventure, the turn-cap rule,
the final info and the ``dungeon_env.ending.Ending``) is ``dungeon_env.episode.Episode``, which
``dungeon_env.episode.play_episode`` plays whole episodes with on the bare engine.

**Termination and truncation.** A hero who dies or leaves the dungeon stays in ``agents``, is
never selected again (the engine asks only figures on the board) and is not terminated before the
others. The episode ends for every agent on the same step: all terminated when the adventure is
completed or failed; at the turn cap (``max_turns``; the game's own outcome ``truncated``, checklist
A-50) all terminated when the cap is paid for, all truncated when it is not (the rule below); each
is then selected once for ``step(None)`` and removed (PettingZoo's dead-step), which is when it
collects its last reward.

*The turn cap, one rule for the env and every task* (``dungeon_env.rewards.turn_cap_terminates``;
the env's ``turn_cap_terminates``, and ``time_limit_reached()`` once an episode is over): every
observation shows the clock (``turn / max_turns``), so the cap is part of the game whenever the
task pays for it. ``reward_truncated`` not 0 (the heroes' tasks: -1, running out of turns is a
loss): reaching the cap is an end of the task, reported as ``terminated`` (a learner must not add a
value past it). ``reward_truncated`` 0 (the default, and the Dungeon Master's tasks): the cap pays
nothing and is a time limit outside the task, reported as ``truncated`` (a learner may bootstrap
past it). Either way the final infos say ``outcome`` ``truncated``, the game's own name for the
cap. A truncation therefore never pays an outcome reward (shaping earned on the last step is paid
as on any step).

An illegal action: ``illegal_action="penalize"`` (the default of ``env()``, as in PettingZoo's
classic games) gives the offender ``illegal_reward`` (-1), the others 0, terminates everyone and
warns (``IllegalActionWarning``), like PettingZoo's ``TerminateIllegalWrapper``;
``illegal_action="raise"`` (the default of ``raw_env``, as of the engine) raises
``IllegalActionError`` naming the agent, the action and the legal actions.

**Infos.** Steady: every info of an episode has the same keys at every step, for every agent, with
values of the same type (never None), so that libraries which stack infos into arrays (Tianshou's
``Batch`` and replay buffers, SB3's ``VecEnv`` infos, RLlib) take them as they are: ``decision`` (the
kind asked) and ``unit`` (the figure), set when the agent is selected and ``""`` otherwise and at the
end; ``outcome`` and ``reason``, ``""`` until the end; ``objectives`` (each goal of the adventure:
``{"kind", "text", "primary", "met"}``, ``met`` False until the end) and ``goals_met`` (False until
the end). An agent not selected keeps the info of its last selection (``reset`` gives every agent
the blank one, ``blank_info()``). With ``info_events=True`` also ``events``, the event log entries
since the agent's last step that it may know (``dungeon_env.engine.knowledge``: heroes get no secret roll, no
face-down identity, nothing about a figure in the fog, their own numbering of the monsters they
have seen, doors and room events by place rather than by index; the DM gets everything else;
nobody gets the seed or the faces of the secret Detect Traps rolls); off by default, because a list
whose length changes every step breaks the replay buffers of libraries that stack infos. At the end
every agent's info has ``outcome`` (``completed``, ``failed``, ``truncated`` or
``illegal_action``), ``reason``, ``objectives`` with each goal's ``met`` and ``goals_met`` (every
primary goal met).
``env.unwrapped.events`` is the whole log, ``env.unwrapped.game`` the engine.

**Memory.** The game keeps its event log compact (``Game.events``: older events compressed, about
16 bytes each, decoded when someone reads the whole list, which then stays a plain list); the env
reads only each step's events; each side's knowledge (``engine.side_knowledge``, the heroes' judging
every event as it is logged) keeps its events only while a reward or an info may still read them.
The log stays complete for whoever asks (``env.unwrapped.events``, replays, the difficulty tool);
``scripts/bench_env.py`` prints an env's memory after a reset and after 1,000 steps.

**Options.** ``adventure`` (a bundled name or a path to an adventure file; default the first),
``heroes`` (3-5 hero ids or names from the roster, or a count), ``max_turns`` (100),
``render_mode``, ``reward_completed``, ``reward_completed_without_goal``, ``reward_failed``,
``reward_truncated`` (numbers; anything else is a ``ValueError`` naming the option), ``shaping``,
``illegal_action``, ``illegal_reward``, ``info_events`` (False), ``observation_format`` (``"flat"``
or ``"dict"``), ``variant`` (rule and content overrides: a
``dungeon_env.content.variants.Variant``, a list of ``"key=value"`` strings such as
``["light.start=15"]``, or a ``.toml`` path; None: the rules as written; docs/VARIANTS.md),
``campaign`` (None: one adventure; ``"bundled"`` or a list of adventures: a campaign as one
episode, below).

**Campaigns.** With ``campaign``, an episode is a campaign (``engine.campaign.Campaign``, rules
R-CAMP, rulings C-01..C-05): the adventures in order, ``max_turns`` each, the survivors carrying out
their items, each dead hero replaced by the first hero of the roster still available, a failed
adventure played again by the new party. Each adventure pays its outcome reward as it ends (a
campaign that wins its three adventures pays +3); the agents ``hero_k`` are seats, so a new hero in
seat k plays as ``hero_k``. The episode ends when the campaign does: all terminated when it is won
(final info ``outcome`` ``completed``, ``goals_met`` True) or lost (``failed``: no hero left to
replace the dead), and when an adventure reaches ``max_turns`` all terminated or all truncated by
the turn-cap rule above. Every info of a campaign also has ``campaign``: its outcome (``""`` until
it ends), the adventures completed, their number and the history of every adventure played so far.
``objectives`` are those of the adventure in play, so the length of that list (and of the history)
changes from one adventure to the next: a library that stacks infos into fixed-shape arrays
(Tianshou) takes single adventures, not campaigns.
``env.unwrapped.game`` is the adventure in play, ``env.unwrapped.campaign`` the campaign,
``env.unwrapped.events`` the log of the adventure in play (a replay's event check reads the last
one's).
``reset(seed=...)`` makes everything that follows reproducible; ``reset()`` without a seed draws
the next seed from the previous one (or from the OS the first time); ``episode_seed`` is the seed
of the episode in play. ``reset``'s ``options`` is
accepted and unused.

**Wrappers.** ``env()`` adds PettingZoo's ``OrderEnforcingWrapper`` (a subclass with the same
checks that forwards the per-step attributes directly, which halves its cost). The other standard wrappers
for classic games are left out on purpose: the raw env checks every action against the mask itself
(``AssertOutOfBoundsWrapper`` only asserts the range) and offers the terminate-with-penalty rule
itself (``TerminateIllegalWrapper`` would build a second observation per step).

**Version history.**
- v0 (dungeon_env 0.1): first release.
- v0, revised 2026-12-01 (issue 10; the engine's rule corrections of that issue change games
  too, docs/RULINGS.md). Rewards and ends: a hero who exits or dies is no longer terminated at once
  with 0; it stays in ``agents`` until the episode ends and gets the team's reward (shaping and
  outcome) like every other hero, and all agents end on the same step. Completing without every
  primary goal is an outcome of its own (ruling D-01 withdrawn), paid
  ``reward_completed_without_goal`` (default 0; ``reward_completed`` needs the goals). Final infos
  carry ``objectives`` and ``goals_met``.
- v0, revised 2026-12-01 (issue 14, for the RL libraries): ``env()`` penalizes an illegal action by
  default (``raw_env`` still raises); per-agent ``infos[...]["events"]`` are opt-in
  (``info_events=True``; the whole log stays on ``env.unwrapped.events``); the ``seed`` attribute
  is ``episode_seed`` (libraries call ``env.seed(...)`` as a method); ``dungeon_env.parallel_env``.
- v1, 2026-12-01 (issue 13): observation layout v1. The ``units`` piece ``[feature, slot]`` became
  the ``figures`` table ``[slot, feature]``; one-hot card, item and spell columns became integer
  ids (``kind``, ``card``, ``spell``; a figure's ability columns follow from its ``kind``), a
  candidate's ``slot`` fraction its ``row`` id, ``all_items`` the compact ``item_table`` (holder as
  a row id), ``items`` / ``spells`` ``own_items`` / ``own_spells``; 25,083 floats became 17,061;
  the observation Box's ``high`` is 1 except for the id columns. New ``observation_format="dict"``.
  (Policies trained on v0 played on through a v0 observer kept in ``agents/`` until issue 53, which
  retired it with them.)
- v1, revised 2026-12-01 (issue 16): the ``campaign`` option; the shaping terms ``doors``,
  ``exits`` and ``squares``; revised 2026-12-02: ``goal_exits``; revised 2026-12-03: ``exit_path``,
  ``explored``; ``goal_exits`` waits for the goals in hand rather than met.
- v1, revised 2026-12-06 (issue 48): the turn cap is ``terminated`` when ``reward_truncated`` is
  not 0 (the heroes' tasks) and ``truncated`` only when it pays nothing (it was always
  ``truncated``); infos are steady (the same keys at every step, ``""``/False/``met`` False where
  unused; ``decision``, ``unit``, ``outcome``, ``reason``, ``objectives`` and ``goals_met`` used
  to come and go).
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from dungeon_env.aec_core import CoreStep
from dungeon_env.content import adventure_names
from dungeon_env.content.variants import Variant
from dungeon_env.engine import N_ACTIONS, Action, Game, IllegalActionError
from dungeon_env.engine.actions import DECISION_NAMES
from dungeon_env.engine.campaign import Campaign
from dungeon_env.engine.knowledge import hero_events, hero_view
from dungeon_env.engine.side_knowledge import SideKnowledge, knowledge_of
from dungeon_env.episode import Episode, campaign_adventures, campaign_progress
from dungeon_env.observation import DM, HERO, OBS_SPEC, Observer, as_dict, dict_high
from dungeon_env.rewards import check_reward, check_shaping, outcome_table, turn_cap_terminates

ENV_NAME = "dungeon_v1"
OBSERVATION_FORMATS = ("flat", "dict")


def make_observation_space(observation_format: str = "flat") -> spaces.Dict:
    """The observation space every agent shares: ``{"observation": Box, "action_mask": Box}``
    (``"flat"``, PettingZoo's classic games), or one Box per piece of ``DICT_PIECES`` plus
    ``action_mask`` (``"dict"``, for SB3's ``MultiInputPolicy``). Bounds: [0, 1], id columns 0..n.

    Made once per format and shared by every env of the process (a space is an immutable
    description, and its bound arrays are a third of an env's memory otherwise); so is the
    generator of ``space.sample()``: seed it with ``space.seed(...)`` before sampling."""
    space = _SPACES.get(observation_format)
    if space is None:
        mask = spaces.Box(0, 1, (N_ACTIONS,), np.int8)
        if observation_format == "flat":
            space = spaces.Dict({"observation": state_space(), "action_mask": mask})
        else:
            boxes = {name: spaces.Box(0.0, hi, hi.shape, np.float32) for name, hi in dict_high().items()}
            space = spaces.Dict(boxes | {"action_mask": mask})
        _SPACES[observation_format] = space
    return space


def state_space() -> spaces.Box:
    """The Box of a flat observation and of ``state()`` (shared, as the observation spaces)."""
    box = _SPACES.get("state")
    if box is None:
        high = OBS_SPEC.high()
        box = _SPACES["state"] = spaces.Box(0.0, high, high.shape, np.float32)
    return box


_SPACES: dict[str, spaces.Space] = {}


class IllegalActionWarning(UserWarning):
    """An illegal action ended the game under ``illegal_action="penalize"``."""


ILLEGAL_ACTIONS = ("raise", "penalize")


def warn_illegal(err: IllegalActionError, reward: float, agent: str, stacklevel: int = 2) -> None:
    """``illegal_action="penalize"``'s warning: the illegal action ``err`` ends the game with
    ``reward`` for ``agent``."""
    warnings.warn(
        f"illegal action: {err}; the game ends with reward {reward} for {agent}",
        IllegalActionWarning,
        stacklevel=stacklevel + 1,
    )


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming
    """The unwrapped AEC environment; see the module docstring (the env card)."""

    # False: every step and observation goes the general way (Game.apply, Observer), as for a game on
    # the Python rules; the differential tests compare the two (aec_core)
    _core_steps = True
    metadata = {
        "name": ENV_NAME,
        "render_modes": ["human", "rgb_array", "ansi"],
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        adventure: str | None = None,
        heroes: list[str] | int = 3,
        max_turns: int = 100,
        render_mode: str | None = None,
        reward_completed: float = 1.0,
        reward_failed: float = -1.0,
        reward_truncated: float = 0.0,
        reward_completed_without_goal: float = 0.0,
        shaping: dict[str, float] | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        variant: Variant | list[str] | dict | str | None = None,
        info_events: bool = False,
        observation_format: str = "flat",
        campaign: list[str] | str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )
        if observation_format not in OBSERVATION_FORMATS:
            raise ValueError(
                f"observation_format must be one of {OBSERVATION_FORMATS}, got {observation_format!r}"
            )
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, got {illegal_action!r}")
        self.shaping = check_shaping(shaping)
        if isinstance(adventure, Path):
            adventure = str(adventure)
        self.campaign_adventures = campaign_adventures(campaign, adventure)
        if self.campaign_adventures:
            adventure = self.campaign_adventures[0]
        self.adventure = adventure or adventure_names()[0]
        self.variant = Variant.coerce(variant)
        probe = Game.new(  # checks all
            adventure=self.adventure, heroes=heroes, seed=0, max_turns=max_turns, variant=self.variant
        )
        self.hero_ids = list(probe.hero_ids)
        self.max_turns = int(max_turns)
        self.render_mode = render_mode
        self.outcome_rewards = outcome_table(
            reward_completed, reward_completed_without_goal, reward_failed, reward_truncated
        )
        if not isinstance(info_events, bool):
            raise ValueError(f"info_events must be True or False, got {info_events!r}")
        self.info_events = info_events
        self.illegal_action = illegal_action
        self.illegal_reward = check_reward("illegal_reward", illegal_reward)
        rewards = self.outcome_rewards
        # the turn cap is an end of the task when the task pays for it, else a time limit (env card)
        self.turn_cap_terminates = turn_cap_terminates(rewards)
        self.options = {
            "adventure": self.adventure,
            "heroes": list(self.hero_ids),
            "max_turns": self.max_turns,
            "reward_completed": rewards["completed"],
            "reward_completed_without_goal": rewards["completed_without_goal"],
            "reward_failed": rewards["failed"],
            "reward_truncated": rewards["truncated"],
            "shaping": dict(self.shaping) if self.shaping else None,
            "illegal_action": illegal_action,
            "illegal_reward": self.illegal_reward,
            "variant": None if self.variant == Variant() else self.variant.to_json(),
            "info_events": info_events,
            "observation_format": observation_format,
        }
        if self.campaign_adventures:
            self.options["campaign"] = list(self.campaign_adventures)
        self.possible_agents = [f"hero_{i}" for i in range(len(self.hero_ids))] + ["dm"]
        self._roles = {agent: _role_of(agent) for agent in self.possible_agents}
        self._hero_agents = self.possible_agents[:-1]
        self.observation_format = observation_format
        self._observation_space = make_observation_space(observation_format)
        self._action_space = spaces.Discrete(N_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self.state_space = state_space()
        self._observer = Observer()
        self._core_step: CoreStep | None = None  # the game's steps in the core (aec_core), when it can
        self._seed_rng: random.Random | None = None
        self._window = None
        self.game: Game | None = None
        self.campaign: Campaign | None = None  # the campaign in play (the ``campaign`` option)
        self.episode_seed: int | None = None  # the seed of the episode in play (reset(seed=) sets it)
        self.actions: list[int] = []
        self.illegal: dict | None = None
        self.side_rewards = {"heroes": 0.0, "dm": 0.0}

    # ----- spaces -----
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    # ----- the AEC API -----
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed_rng = random.Random(int(seed))
            self.episode_seed = int(seed)
        else:
            if self._seed_rng is None:
                self._seed_rng = random.Random()
            self.episode_seed = self._seed_rng.getrandbits(63)
        start = self.episode_start(self.episode_seed)
        self.campaign = start if isinstance(start, Campaign) else None
        self._episode = Episode(start, self.outcome_rewards, self.shaping)  # rewards, ends: episode.py
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {}  # every agent's blank info: _begin_game
        # The heroes' view, judged at every step only when shaping or info_events need it:
        self._rewarded = False
        self._skip_agent_selection = None
        self.actions = []
        self.illegal = None
        self.side_rewards = {"heroes": 0.0, "dm": 0.0}
        self._begin_game(self._episode.game)

    def episode_start(self, seed: int) -> Game | Campaign:
        """What an episode played with ``seed`` starts from (``reset(seed=seed)`` plays it): a new
        game of the options' adventure, party, turn cap and variant, or the ``campaign`` option's
        campaign. ``dungeon_env.episode.play_episode`` plays the same episode on the bare engine."""
        if self.campaign_adventures:
            return Campaign(
                heroes=list(self.hero_ids),
                adventures=list(self.campaign_adventures),
                seed=seed,
                max_turns=self.max_turns,
                variant=self.variant,
            )
        return Game.new(
            adventure=self.adventure,
            heroes=self.hero_ids,
            seed=seed,
            max_turns=self.max_turns,
            variant=self.variant,
        )

    def _begin_game(self, game: Game) -> None:
        """Play ``game`` from its set-up (an episode's, or a campaign's next adventure, begun by the
        episode's bookkeeping): fresh views of it, and the agent it asks selected (no shaping for the
        set-up; infos get its events)."""
        self.game = game
        self._observer.reset()
        self._letters = None  # the ansi render's monster letters, kept for the game
        self._seen = dict.fromkeys(self.agents, 0)
        # each side's knowledge of the game (engine.side_knowledge): what its infos, rewards and
        # observations are made of
        self._known = {"heroes": knowledge_of(game, "heroes"), "dm": knowledge_of(game, "dm")}
        self._goals = [dict(goal, met=False) for goal in game.objectives()]  # met: told at the end
        for a in self.agents:
            self.infos[a] = self.blank_info()
        self._core_step = (
            CoreStep.of(game, self.max_turns, self.possible_agents)
            if self._core_steps and self._observer.use_core
            else None
        )
        agent = self.agent_selection = game.agent
        self.infos[agent] = self._info(agent)
        # the set-up's events stay until the first step: a reader of the knowledge that comes with
        # the env (a play table, a replay's story) holds its place before they go (hold)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        role, me = self._roles[agent] if agent in self._roles else _role_of(agent)
        to_act = (
            agent == self.agent_selection
            and not self.terminations.get(agent, True)
            and not self.truncations.get(agent, True)
            and self.illegal is None
        )
        fast = self._core_step
        obs = None if fast is None else fast.observe(role, me, to_act)
        if obs is None:
            obs = self._observer.observe(self.game, role, me, to_act, self.max_turns)
        if self.observation_format == "dict":
            return as_dict(obs["observation"]) | {"action_mask": obs["action_mask"]}
        return obs

    def state(self) -> np.ndarray:
        return self._observer.state(self.game, self.max_turns)

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        fast = self._core_step
        if fast is not None and type(action) is int:  # one call to the core (aec_core)
            moved = fast.apply(action, self, not (self.info_events or self._episode.shaping))
            if moved is not None:
                self._seen[agent] = moved[0]
                self.actions.append(action)
                self._after_action(moved[0], moved)
                return
        game = self.game
        before = game.n_events
        self._seen[agent] = before
        try:
            game.apply(action)
        except IllegalActionError as err:
            if self.illegal_action == "raise":
                raise
            self._penalize(agent, action, err)
            return
        self.actions.append(int(action))
        self._after_action(before)

    def _after_action(self, before: int, moved: tuple | None = None) -> None:
        """Hand out this step's team reward (the episode's bookkeeping, ``dungeon_env.episode``) to
        every agent and select the agent the engine asks next (``game.agent``), or end every agent
        at once when the episode is over. A hero who left play (exited or dead) stays in ``agents``,
        is never asked (the engine asks only figures on the board) and shares every reward until the
        end. ``moved``: the step taken in the core (``CoreStep.apply``'s result), which names the
        agent asked, its decision and figure, and may have moved the sides' places already."""
        game = self.game
        episode = self._episode
        over = game.over if moved is None else moved[2] is None
        # the step's events as heroes know them are read only by shaping (made dicts only then);
        # without shaping, a step that does not end the game pays nothing (Episode.step_reward)
        if not (over or episode.shaping):
            team = 0.0
        else:
            team = episode.step_reward(self._known["heroes"].events_since(before) if episode.shaping else ())
        sides = self.side_rewards
        sides["heroes"], sides["dm"] = team, -team
        if team:
            rewards = self.rewards
            for agent in self.agents:
                rewards[agent] = -team if agent == "dm" else team
            self._rewarded = True
        goes_on = over and episode.goes_on()
        if over and not goes_on:
            self._end_all()
        elif not over and moved is not None:
            agent = self.agent_selection = moved[2]
            self.infos[agent] = self._info(agent, moved[3], moved[4])
        elif not over:
            agent = game.agent
            self.agent_selection = agent
            self.infos[agent] = self._info(agent)
        if moved is None or not moved[5]:
            self._forget()
        if self._rewarded:
            self._accumulate_rewards()
        if goes_on:
            self._begin_game(self._episode.next_game())

    def _forget(self) -> None:
        """Let each side's knowledge drop the events no reward or info reads any more (this step's,
        without info_events; else those every agent of the side still in the game has had), so that
        the episode's memory stays that of the game's compact log."""
        now = self.game.n_events
        known = self._known
        if self.info_events:
            known["heroes"].hold(self, min(self._seen[a] for a in self._hero_agents))
            known["dm"].hold(self, self._seen["dm"])
        else:
            known["heroes"].hold(self, now)
            known["dm"].hold(self, now)

    @property
    def knowledge(self) -> dict[str, SideKnowledge]:
        """Each side's knowledge of the game being played (``"heroes"``, ``"dm"``)."""
        return self._known

    def outcome_reward(self) -> float:
        """The heroes' reward for the way the adventure ended (the DM gets its opposite): completed
        with every primary goal met, completed without them, failed or truncated
        (:meth:`dungeon_env.episode.Episode.outcome_reward` of the options' table)."""
        return self._episode.outcome_reward()

    def time_limit_reached(self) -> bool:
        """True once the episode has ended at a turn cap that pays nothing (``reward_truncated`` 0):
        a time limit outside the task, Gymnasium's ``truncated``. False while it goes on and for
        every other end, a turn cap the task pays for included (``terminated``; the env card)."""
        game = self.game
        return self.illegal is None and game is not None and self._episode.time_limit_reached()

    def _end_all(self) -> None:
        """Every agent ends on this step, each with the outcome, the reason and the adventure's goals
        in its final info: all truncated when a turn cap that pays nothing ended the game, else all
        terminated (:meth:`time_limit_reached`)."""
        done = self.truncations if self.time_limit_reached() else self.terminations
        ending = self._episode.final_info()
        for agent in self.agents:
            done[agent] = True
            self.infos[agent] = self._info(agent) | ending
        self.agent_selection = self.agents[0]

    def _penalize(self, agent: str, action, err: IllegalActionError) -> None:
        """``illegal_action="penalize"``: the game ends at once, the offender gets ``illegal_reward``
        and the others 0, with a warning (as PettingZoo's ``TerminateIllegalWrapper``)."""
        warn_illegal(err, self.illegal_reward, agent, stacklevel=3)
        kept = int(action) if isinstance(action, int | np.integer) else action  # replays need the value
        if not isinstance(kept, int | float | str | type(None)):
            kept = repr(action)
        self.illegal = {"agent": agent, "action": kept, "error": str(err)}
        ending = self._episode.final_info("illegal_action", str(err))
        for a in self.agents:
            self.rewards[a] = 0.0
            self.terminations[a] = True
            self.infos[a] = self._info(a) | ending
        self.rewards[agent] = self.illegal_reward
        self._rewarded = True
        team = self.illegal_reward if agent != "dm" else 0.0
        self.side_rewards = {"heroes": team, "dm": self.illegal_reward - team}
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def blank_info(self) -> dict:
        """The info of an agent asked nothing while the game goes on: every key of the episode's
        infos (the env card: steady infos), ``""``, False, no events, the goals not (yet) met."""
        info = {
            "decision": "",
            "unit": "",
            "outcome": "",
            "reason": "",
            "objectives": list(map(dict.copy, self._goals)),
            "goals_met": False,
        }
        if self.info_events:
            info["events"] = []
        if self.campaign is not None:
            info["campaign"] = campaign_progress(self.campaign)
        return info

    def _info(self, agent: str, decision: str | None = None, unit: str | None = None) -> dict:
        """The events since the agent's last step that it may know, and the decision it is asked
        (:meth:`blank_info` filled in); ``decision`` and ``unit``: the agent is asked that decision
        about that figure (read from the game if not given)."""
        game = self.game
        info = self.blank_info()
        if self.info_events:
            info["events"] = self._known["dm" if agent == "dm" else "heroes"].events_since(self._seen[agent])
        if decision is not None:
            info["decision"], info["unit"] = decision, unit
        elif game.agent == agent:
            kind, unit = game.decision
            info["decision"] = DECISION_NAMES[kind]
            # a hero is asked about its own figure, whose label is its agent's name; the DM about a
            # monster's, m<uid> (game.label)
            info["unit"] = agent if agent != "dm" else f"m{int(game.state.unit_uid[unit])}"
        return info

    def _shaping_reward(self, events: list[dict | None]) -> float:
        """The shaping reward of this step's events as heroes know them:
        :meth:`dungeon_env.episode.Episode.shaping_reward` with the options' weights."""
        return self._episode.shaping_reward(events)

    # ----- the rest of the public surface -----
    @property
    def events(self) -> list[dict]:
        """The whole event log of the current episode (JSON-serialisable dicts, in order)."""
        return self.game.events if self.game is not None else []

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode= to the env")
            return None
        if self.render_mode == "ansi":
            from dungeon_env.render.text import MonsterLetters, render_text

            if self._letters is None:
                self._letters = MonsterLetters()  # stable letters, in the order heroes saw them
            return render_text(self.game, letters=self._letters)
        from dungeon_env.render.image import render_image

        frame = render_image(self.game)
        if self.render_mode == "rgb_array":
            return frame
        if self._window is None:
            from dungeon_env.render.window import Window

            self._window = Window(f"dungeon_env: {self.adventure}", self.metadata["render_fps"])
        self._window.show(frame)
        return None

    def close(self) -> None:
        if self._window is not None:
            self._window.close()
            self._window = None

    def __str__(self) -> str:
        return ENV_NAME


def env(**kwargs) -> AECEnv:
    """The environment as users should get it: :class:`raw_env` in PettingZoo's order-enforcing
    wrapper, an illegal action ending the game for the offender with a penalty and a warning
    (``illegal_action="penalize"`` unless given, as PettingZoo's classic games do). Options: see
    the module docstring."""
    kwargs.setdefault("illegal_action", "penalize")
    return _OrderEnforcing(raw_env(**kwargs))


class _OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, forwarding the attributes read
    at every step directly instead of through ``__getattr__`` (a third of the wrapper's cost)."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("last() cannot be called before reset")
        return self.env.last(observe)

    def step(self, action) -> None:
        """``OrderEnforcingWrapper.step``'s checks, then the wrapped env's step, called directly."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderEnforcingIterable(self, max_iter)


class _OrderEnforcingIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> AECOrderEnforcingIterator:
        return _OrderEnforcingIterator(self.env, self.max_iter)


class _OrderEnforcingIterator(AECOrderEnforcingIterator):
    """``AECOrderEnforcingIterator`` with the same checks, reading the wrapped env's agents directly."""

    def __next__(self) -> str:
        wrapper = self.env
        raw = wrapper.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return raw.agent_selection


def _forward(name: str) -> property:
    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"``{name}`` of the wrapped env (after reset)")


for _name in ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos", "num_agents"):
    setattr(_OrderEnforcing, _name, _forward(_name))
_OrderEnforcing._cumulative_rewards = _forward("_cumulative_rewards")


# ----------------------------------------------------------------------------------- helpers


def _role_of(agent: str) -> tuple[int, int]:
    if agent == "dm":
        return DM, -1
    if agent.startswith("hero_"):
        return HERO, int(agent[5:])
    raise KeyError(f"unknown agent {agent!r}")


__all__ = [
    "ENV_NAME",
    "Action",
    "IllegalActionError",
    "IllegalActionWarning",
    "env",
    "hero_events",
    "hero_view",
    "raw_env",
]
