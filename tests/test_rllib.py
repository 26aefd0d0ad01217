"""training/rllib_train.py: multi-agent PPO on Ray RLlib 2.60 with the env in RLlib's own
``PettingZooEnv`` (issue 14). A tiny real run on a local Ray (two iterations, both modules learning, a
checkpoint saved and restored), the env passing RLlib's env pre-check, and the masked module never
picking an illegal action. And the package's own adapter (issue 48): ``dungeon_env.rllib`` gives the
env to RLlib's unmodified ``ActionMaskingTorchRLModule``, which trains both roles in one PPO iteration."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.utils.pre_checks.env import check_multiagent_environments

import dungeon_env
from dungeon_env.aec import IllegalActionWarning
from dungeon_env.observation import PLANES
from training import rllib_train
from training.common import parse_settings

ROOT = Path(__file__).resolve().parents[1]
TINY = rllib_train.Settings(
    adventure="flooded_cellar",
    heroes="3",
    max_turns=8,
    iterations=2,
    env_runners=0,
    num_cpus=2,
    checkpoint_every=1,
    train_batch_size=64,
    minibatch_size=32,
    num_epochs=1,
    conv_channels="4,8",
    hidden=32,
    eval_games=2,
)


def sampled_observations(env_kwargs: dict, games: int, seed: int = 0) -> dict[str, list[dict]]:
    """The observations of the agent asked, by module, in random legal games."""
    env = dungeon_env.env(**env_kwargs)
    rng = random.Random(seed)
    seen: dict[str, list[dict]] = {"heroes": [], "dm": []}
    for game in range(games):
        env.reset(seed=seed + game)
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seen[rllib_train.policy_mapping_fn(agent)].append(obs)
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return seen


def assert_never_illegal(module, observations: list[dict], draws: int = 20) -> None:
    """Sampled (forward_exploration), greedy (forward_inference) and ModuleAgent actions are legal."""
    batch = {
        "obs": {
            "observation": torch.as_tensor(np.stack([o["observation"] for o in observations])),
            "action_mask": torch.as_tensor(np.stack([o["action_mask"] for o in observations])),
        }
    }
    legal = batch["obs"]["action_mask"].bool()
    with torch.no_grad():
        logits = module.forward_exploration(batch)["action_dist_inputs"]
        dist = module.get_exploration_action_dist_cls().from_logits(logits)
        for _ in range(draws):
            actions = dist.sample()
            assert legal.gather(1, actions[:, None]).all()
        greedy = module.forward_inference(batch)["action_dist_inputs"].argmax(dim=1)
    assert legal.gather(1, greedy[:, None]).all()
    agent = rllib_train.ModuleAgent(module)
    for obs in observations[:20]:
        assert obs["action_mask"][agent.act(obs["observation"], obs["action_mask"])] == 1


def weights(algo) -> dict[str, dict[str, np.ndarray]]:
    state = algo.learner_group.get_weights()
    return {m: {k: np.array(v) for k, v in state[m].items()} for m in rllib_train.MODULES}


def changed(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return any(not np.array_equal(a[k], b[k]) for k in a)


def test_the_env_in_rllibs_pettingzoo_env_passes_rllibs_env_pre_check():
    """Issue 14: the pre-check steps an unmasked random action; the env's default
    ``illegal_action="penalize"`` ends that game with a warning instead of raising."""
    env = rllib_train.make_env(TINY.env_kwargs())
    assert set(env.possible_agents) == {"hero_0", "hero_1", "hero_2", "dm"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IllegalActionWarning)
        for _ in range(3):
            check_multiagent_environments(env)


def test_the_masked_module_reads_the_board_as_a_grid_and_never_picks_an_illegal_action():
    env = dungeon_env.env(**TINY.env_kwargs())
    spec = RLModuleSpec(
        module_class=rllib_train.MaskedGridModule,
        observation_space=env.observation_space("dm"),
        action_space=env.action_space("dm"),
        model_config={"conv_channels": [4, 8], "hidden": 32},
    )
    module = spec.build()
    assert module.grid == (len(PLANES), 28, 24)
    assert module.conv[0].in_channels == len(PLANES)
    torch.manual_seed(0)
    with torch.no_grad():  # make the unmasked logits large and varied: the mask alone keeps play legal
        module.pi.weight.normal_(0.0, 10.0)
    seen = sampled_observations({**TINY.env_kwargs(), "max_turns": 8}, games=6)
    for side in rllib_train.MODULES:
        assert seen[side], f"no {side} decision sampled"
        assert_never_illegal(module, seen[side])


def test_the_cli_takes_the_run_options():
    argv = ["--adventure", "flooded_cellar", "--heroes", "4", "--iterations", "3", "--env-runners", "2"]
    argv += ["--seed", "7", "--runs-dir", "out", "--address", "auto", "--checkpoint-every", "2"]
    settings = parse_settings(rllib_train.Settings, argv)
    assert (settings.heroes, settings.iterations, settings.env_runners, settings.seed) == ("4", 3, 2, 7)
    assert (settings.runs_dir, settings.address, settings.checkpoint_every) == ("out", "auto", 2)
    config = rllib_train.build_config(settings)
    assert config.num_env_runners == 2 and config.env_config["heroes"] == 4
    assert set(config.policies) == {"heroes", "dm"}


@pytest.fixture
def local_ray():
    import ray

    ray.init(num_cpus=2, include_dashboard=False)
    yield
    ray.shutdown()


# RLlib's env pre-check (at every build) plays an unmasked random action: the env's penalty warns
@pytest.mark.filterwarnings("ignore::dungeon_env.aec.IllegalActionWarning")
@pytest.mark.filterwarnings("ignore:.*Overriding environment rllib-multi-agent-env-v0")  # 2nd build
def test_two_iterations_train_both_modules_save_and_restore(local_ray, tmp_path, capsys):
    """A tiny real run: two PPO iterations change the weights of both modules and report learner stats
    for both (each in an iteration whose batch held its decisions); the checkpoints restore the
    algorithm and the modules; the trained modules play the project's evaluation against the
    scripted other side, never an illegal action."""
    from ray.rllib.algorithms.algorithm import Algorithm

    algo = rllib_train.build_algo(TINY)
    try:
        before = weights(algo)
        out = rllib_train.run(algo, TINY, tmp_path)
        after = weights(algo)
    finally:
        algo.stop()
    for m in rllib_train.MODULES:  # (a batch of 64 steps may hold no DM decision: the fog is quiet)
        assert changed(before[m], after[m]), f"the {m} module did not learn"
        trained = [line[m] for line in out["iterations"] if line[m]["steps_trained"]]
        assert trained, f"the {m} module had no step trained in {out['iterations']}"
        for stats in trained:
            assert stats["steps_trained"] > 0 and np.isfinite(stats["policy_loss"]), (m, stats)
            assert np.isfinite(stats["vf_loss"]) and np.isfinite(stats["entropy"]), (m, stats)
    assert [p.split("/")[-1] for p in out["checkpoints"]] == ["iter_0001", "final"]
    assert (tmp_path / "progress.jsonl").read_text().count("\n") == 2

    restored = Algorithm.from_checkpoint(out["checkpoints"][-1])
    try:
        again = weights(restored)
    finally:
        restored.stop()
    for m in rllib_train.MODULES:
        assert not changed(after[m], again[m]), f"the restored {m} module differs"

    modules = rllib_train.load_modules(out["checkpoints"][-1])
    seen = sampled_observations(TINY.env_kwargs(), games=3, seed=100)
    for m in rllib_train.MODULES:
        loaded = modules[m].state_dict()
        assert not changed(after[m], {k: loaded[k].numpy() for k in after[m]})
        if seen[m]:
            assert_never_illegal(modules[m], seen[m])
    capsys.readouterr()
    results = rllib_train.evaluate_modules(modules, TINY.env_kwargs(), games=2)
    printed = capsys.readouterr().out
    assert (
        "heroes: rllib heroes  vs  dm: scripted" in printed
        and "heroes: scripted  vs  dm: rllib dm" in printed
    )
    for result in results.values():
        assert sum(result["counts"].values()) == 2 and "illegal_action" not in result["counts"]


def test_the_cli_trains_checkpoints_and_prints_the_evaluation_tables(tmp_path):
    """``python -m training.rllib_train`` end to end in a subprocess (CleanRL's smoke test): its own
    local Ray, one iteration, the final checkpoint naming the module class by its importable path,
    and the project's evaluation tables."""
    argv = ["--max-turns", "3", "--iterations", "1", "--env-runners", "0", "--train-batch-size", "64"]
    argv += ["--minibatch-size", "32", "--num-epochs", "1", "--conv-channels", "4", "--hidden", "16"]
    argv += ["--eval-games", "1", "--runs-dir", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, "-m", "training.rllib_train", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "heroes: rllib heroes  vs  dm: scripted" in done.stdout
    assert "heroes: scripted  vs  dm: rllib dm" in done.stdout
    (run_dir,) = tmp_path.iterdir()
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["checkpoints"] == [str(run_dir / "final")]
    for m in rllib_train.MODULES:
        saved = run_dir / "final" / "learner_group" / "learner" / "rl_module" / m / "class_and_ctor_args.pkl"
        with saved.open("rb") as f:
            assert pickle.load(f)["class"] is rllib_train.MaskedGridModule  # not __main__'s copy
        assert sum(summary["eval"][m]["counts"].values()) == 1


# --- dungeon_env.rllib: the env as RLlib's own action-masking module reads it (issue 48) ---------

RLLIB_ENV = {"adventure": "goblin_warrens", "heroes": 3, "max_turns": 4}


def test_the_rllib_module_imports_without_ray_and_names_the_extra_when_it_is_missing():
    code = (
        "import sys; sys.modules['ray'] = None; import dungeon_env, dungeon_env.rllib as r;"
        "assert r.policy_mapping_fn('hero_2') == 'heroes' and r.policy_mapping_fn('dm') == 'dm'\n"
        "try:\n    r.env_creator({})\nexcept ImportError as e:\n    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "pip install 'dungeon_env[marl]'" in done.stdout


def test_the_multi_agent_env_asks_one_agent_at_a_time_and_ends_every_agent_together():
    """Random legal play through ``dungeon_env.rllib``: each observation is RLlib's action-masking
    Dict (``observations``, a float32 ``action_mask`` with the legal actions), given to the one
    agent asked; the last step gives every agent's observation, all ends and ``__all__`` together;
    the returns and the event log are the AEC env's for the same actions; RLlib's env check passes."""
    from dungeon_env import rllib

    env = rllib.env_creator({**RLLIB_ENV, "illegal_action": "raise"})
    assert isinstance(env, rllib.DungeonMultiAgentEnv)
    space = env.observation_spaces["dm"]
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["action_mask"].dtype == np.float32
    rng = random.Random(4)
    for seed in (4, 5):
        obs, infos = env.reset(seed=seed)
        returns, actions = dict.fromkeys(env.possible_agents, 0.0), []
        while True:
            (agent,) = obs
            assert set(infos) == {agent} and infos[agent]["active_agent"] == agent
            assert space.contains(obs[agent])
            action = rng.choice(np.flatnonzero(obs[agent]["action_mask"]).tolist())
            actions.append(action)
            obs, rewards, terminateds, truncateds, infos = env.step({agent: action})
            for a, r in rewards.items():
                returns[a] += r
            if terminateds["__all__"] or truncateds["__all__"]:
                break
            assert not any(terminateds.values()) and not any(truncateds.values())
        assert set(obs) == set(env.possible_agents) == set(infos) == set(rewards)
        ends = terminateds if terminateds["__all__"] else truncateds
        assert all(ends.values()) and infos["dm"]["outcome"] in {"completed", "failed", "truncated"}
        assert not any(o["action_mask"].any() for o in obs.values())
        aec = dungeon_env.env(**RLLIB_ENV)
        aec.reset(seed=seed)
        aec_returns, played = dict.fromkeys(aec.possible_agents, 0.0), iter(actions)
        for agent in aec.agent_iter():
            _, reward, terminated, truncated, _ = aec.last()
            aec_returns[agent] += reward
            aec.step(None if terminated or truncated else next(played))
        assert returns == pytest.approx(aec_returns)
        assert env.raw_env.events == aec.unwrapped.events
    with warnings.catch_warnings():  # the check steps unmasked random actions: the penalty ends that game
        warnings.simplefilter("ignore", IllegalActionWarning)
        check_multiagent_environments(rllib.env_creator(RLLIB_ENV))


def play_with_modules(modules: dict, games: int, seed: int) -> list[str]:
    """Whole games through ``dungeon_env.rllib`` with each module sampling its agents' actions
    (``forward_exploration``); an illegal action would raise. The outcomes."""
    from dungeon_env import rllib

    env = rllib.env_creator({**RLLIB_ENV, "illegal_action": "raise"})
    outcomes = []
    for game in range(games):
        obs, _ = env.reset(seed=seed + game)
        while True:
            (agent,) = obs
            module = modules[rllib.policy_mapping_fn(agent)]
            batch = {"obs": {k: torch.as_tensor(v)[None] for k, v in obs[agent].items()}}
            with torch.no_grad():
                logits = module.forward_exploration(batch)["action_dist_inputs"]
            action = int(module.get_exploration_action_dist_cls().from_logits(logits).sample()[0])
            obs, _, terminateds, truncateds, infos = env.step({agent: action})
            if terminateds["__all__"] or truncateds["__all__"]:
                outcomes.append(infos["dm"]["outcome"])
                break
    return outcomes


@pytest.mark.filterwarnings("ignore::dungeon_env.aec.IllegalActionWarning")  # RLlib's env check
def test_rllib_ppo_trains_both_roles_with_its_own_action_masking_module(local_ray):
    """The RLlib code of docs/LIBRARIES.md: ``tune.register_env`` with ``dungeon_env.rllib.env_creator``, one
    ``ActionMaskingTorchRLModule`` (RLlib's own, unmodified) per role; one PPO iteration trains
    both modules on their own decisions; the modules then play whole games, never an illegal action."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    from dungeon_env import rllib

    register_env("dungeon", rllib.env_creator)
    spec = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [16]})
    config = (
        PPOConfig()
        .environment("dungeon", env_config=RLLIB_ENV)
        .multi_agent(policies=set(rllib.MODULES), policy_mapping_fn=rllib.policy_mapping_fn)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(rllib.MODULES, spec)))
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=128, minibatch_size=64, num_epochs=1)
        .debugging(seed=0)
    )
    algo = config.build_algo()
    try:
        state = algo.learner_group.get_weights()
        before = {m: {k: np.array(v) for k, v in state[m].items()} for m in rllib.MODULES}
        result = algo.train()
        state = algo.learner_group.get_weights()
        after = {m: {k: np.array(v) for k, v in state[m].items()} for m in rllib.MODULES}
        modules = {m: algo.get_module(m) for m in rllib.MODULES}
        for m in rllib.MODULES:
            assert isinstance(modules[m], ActionMaskingTorchRLModule)
            assert changed(before[m], after[m]), f"the {m} module did not learn"
            stats = result["learners"][m]
            assert stats["num_module_steps_trained"] > 0 and np.isfinite(stats["policy_loss"]), stats
            assert result["env_runners"]["num_module_steps_sampled"][m] > 0
        outcomes = play_with_modules(modules, games=2, seed=50)
    finally:
        algo.stop()
    assert len(outcomes) == 2 and "illegal_action" not in outcomes


# RLlib's default module reads no mask: its illegal actions end games with the env's penalty
@pytest.mark.filterwarnings("ignore::dungeon_env.aec.IllegalActionWarning")
def test_rllib_ppo_samples_and_trains_on_the_batched_env_through_its_vector_entry_point(local_ray):
    """RLlib's own pattern for an env that is already a vector env: a Gymnasium id with a vector entry
    point and ``gym_env_vectorize_mode=VECTOR_ENTRY_POINT``; RLlib expects the next-step autoreset
    (it takes the step after an end as the new episode's reset), which the batch offers. One PPO
    iteration on a task's batch stepped in the core: the episodes RLlib records end as the games do,
    and the module learns."""
    import gymnasium
    from ray.rllib.algorithms.ppo import PPOConfig

    import dungeon_env.tasks as tasks
    from dungeon_env.batched import BatchedRoleEnv

    task_id = tasks.get_task("heroes/walk-out").gym_id
    config = (
        PPOConfig()
        .environment(task_id, env_config={"opponent": "random", "autoreset_mode": "NextStep"})
        .env_runners(
            num_env_runners=0,
            num_envs_per_env_runner=4,
            gym_env_vectorize_mode=gymnasium.VectorizeMode.VECTOR_ENTRY_POINT,
        )
        .rl_module(model_config={"fcnet_hiddens": [16]})
        .training(train_batch_size_per_learner=128, minibatch_size=64, num_epochs=1)
        .debugging(seed=0)
    )
    algo = config.build_algo()
    try:
        envs = algo.env_runner.env.unwrapped
        assert isinstance(envs, BatchedRoleEnv) and envs.native and envs.num_envs == 4
        before = {k: np.array(v) for k, v in algo.learner_group.get_weights()["default_policy"].items()}
        result = algo.train()
        after = {k: np.array(v) for k, v in algo.learner_group.get_weights()["default_policy"].items()}
    finally:
        algo.stop()
    runners = result["env_runners"]
    assert runners["num_env_steps_sampled"] >= 128 and runners["num_episodes"] >= 1
    assert changed(before, after)
