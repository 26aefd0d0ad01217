"""The env as an RLlib ``MultiAgentEnv`` for RLlib's own action-masking module (Ray RLlib 2.60).

RLlib's ``ActionMaskingTorchRLModule`` (``ray.rllib.examples.rl_modules.classes.action_masking_rlm``)
reads a Dict observation with the keys ``"observations"`` and ``"action_mask"``; this module gives
the game in that shape, turn-based as RLlib's multi-agent API expects, so PPO trains one module for
the heroes and one for the DM with no code of the user's own but the config:

```python
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from dungeon_env import rllib

register_env("dungeon", rllib.env_creator)
spec = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [64]})
config = (
    PPOConfig()
    .environment("dungeon", env_config={"adventure": "flooded_cellar", "heroes": 3, "max_turns": 30})
    .multi_agent(policies=set(rllib.MODULES), policy_mapping_fn=rllib.policy_mapping_fn)
    .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: spec for m in rllib.MODULES}))
)
algo = config.build_algo()
result = algo.train()  # both modules learn: result["learners"]["heroes"], ["dm"]
```

The rule (RLlib's turn-based multi-agent convention, on the parallel view ``dungeon_env.parallel``):

- ``env_creator(config)`` makes ``DungeonMultiAgentEnv(**config)``: the options of
  ``dungeon_env.env()`` (``illegal_action`` ``"penalize"`` unless given).
- Observations: ``{"observations": obs["observation"], "action_mask": mask}`` with the mask as
  float32 0/1 (``Box(0, 1, (N,), float32)``, the space RLlib's module documents). With the env's
  ``observation_format="dict"`` ``"observations"`` is the Dict of pieces (a custom module then reads it).
- ``reset`` and every step return the observation (and the info) of the **one agent the game asks**
  next, so RLlib computes an action for that agent only; ``step`` plays the action of that agent
  (a dict without it is a ``KeyError`` naming it).
- Rewards: the parallel view's rewards of the step, also for the agents not asked: RLlib adds them
  up until the agent's next observation (a step that leaves the DM asked about a monster heroes do
  not see has the DM's reward only; the heroes' rewards of such steps come with a later step).
- The step that ends the adventure returns every agent's last observation (masks all zeros), reward
  and final info (``outcome``, ``reason``, goals), ``terminateds``/``truncateds`` all True or all
  False together with ``"__all__"`` (the env card's rule: a turn cap that pays nothing truncates).
- ``raw_env`` is the raw AEC env (``.events``, ``.game``), ``state()`` the global state
  (``unwrapped`` is the env itself, as Gymnasium's ``make`` needs).

Ray is an optional dependency (the ``marl`` extra): it is imported when the env class is first
used, so importing this module does not need it. ``policy_mapping_fn`` maps ``hero_*`` to
``"heroes"`` and ``dm`` to ``"dm"`` (``MODULES``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dungeon_env._optional import lazy_class

MODULES = ("heroes", "dm")
OBS_KEY = "observations"  # the key names RLlib's ActionMaskingRLModule reads
MASK_KEY = "action_mask"


def policy_mapping_fn(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Every hero plays the ``"heroes"`` module, the Dungeon Master the ``"dm"`` module."""
    return "dm" if agent_id == "dm" else "heroes"


def env_creator(config: dict | None = None):
    """``tune.register_env("dungeon", env_creator)``: ``config`` (RLlib's ``env_config``) holds the
    options of ``dungeon_env.env()``."""
    return __getattr__("DungeonMultiAgentEnv")(**dict(config or {}))


class _TurnBasedMultiAgent:
    """The methods of ``DungeonMultiAgentEnv`` (the class itself also derives from RLlib's
    ``MultiAgentEnv``, imported when it is first used); the rule: the module docstring."""

    def __init__(self, **options: Any) -> None:
        from gymnasium import spaces

        from dungeon_env.parallel import parallel_env

        super().__init__()
        self.par_env = parallel_env(**options)
        self.possible_agents = list(self.par_env.possible_agents)
        self.agents = list(self.possible_agents)
        inner = self.par_env.observation_space(self.possible_agents[0])
        n = inner[MASK_KEY].shape[0]
        rest = inner["observation"] if "observation" in inner.spaces else self._without_mask(inner)
        space = spaces.Dict({OBS_KEY: rest, MASK_KEY: spaces.Box(0.0, 1.0, (n,), np.float32)})
        action_space = self.par_env.action_space(self.possible_agents[0])
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self.observation_space = spaces.Dict(self.observation_spaces)
        self.action_space = spaces.Dict(self.action_spaces)
        self.render_mode = self.par_env.render_mode

    @staticmethod
    def _without_mask(space):
        from gymnasium import spaces

        return spaces.Dict({k: v for k, v in space.spaces.items() if k != MASK_KEY})

    @property
    def raw_env(self):
        """The raw AEC env that plays the game (``.events``, ``.game``, ``.episode_seed``)."""
        return self.par_env.unwrapped

    @staticmethod
    def _convert(obs: dict) -> dict:
        mask = obs[MASK_KEY].astype(np.float32)
        rest = obs["observation"] if "observation" in obs else {k: v for k, v in obs.items() if k != MASK_KEY}
        return {OBS_KEY: rest, MASK_KEY: mask}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        observations, infos = self.par_env.reset(seed=seed, options=options)
        asked = self.par_env.active_agent
        return {asked: self._convert(observations[asked])}, {asked: infos[asked]}

    def step(self, action_dict: dict[str, Any]):
        asked = self.par_env.active_agent
        if asked not in action_dict:
            raise KeyError(
                f"{asked} is asked to act (the agent given an observation) but action_dict has "
                f"no action for it: {sorted(action_dict)}"
            )
        observations, rewards, terminations, truncations, infos = self.par_env.step(
            {asked: action_dict[asked]}
        )
        over = not self.par_env.agents
        terminateds = {a: bool(t) for a, t in terminations.items()}
        truncateds = {a: bool(t) for a, t in truncations.items()}
        terminateds["__all__"] = over and all(terminations.values())
        truncateds["__all__"] = over and all(truncations.values())
        shown = list(observations) if over else [self.par_env.active_agent]
        obs = {a: self._convert(observations[a]) for a in shown}
        return obs, dict(rewards), terminateds, truncateds, {a: infos[a] for a in shown}

    def state(self) -> np.ndarray:
        return self.par_env.state()

    def render(self):
        return self.par_env.render()

    def close(self) -> None:
        self.par_env.close()


def __getattr__(name: str):
    if name == "DungeonMultiAgentEnv":  # built once, on first use, so that Ray stays optional
        return lazy_class(
            __name__,
            name,
            _TurnBasedMultiAgent,
            "ray.rllib.env.multi_agent_env:MultiAgentEnv",
            "Ray RLlib: pip install 'dungeon_env[marl]'",
            "The game as an RLlib ``MultiAgentEnv`` (the rule: ``dungeon_env.rllib``'s docstring).",
        )
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["MODULES", "DungeonMultiAgentEnv", "env_creator", "policy_mapping_fn"]  # noqa: F822 (lazy)
