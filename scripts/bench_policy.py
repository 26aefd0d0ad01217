"""Benchmark of a trained policy's decision (``make bench``): CPU milliseconds of one core per decision
of ``PolicyAgent`` (greedy, one observation at a time, as an opponent and a search prior play it),
for each network of ``training.features`` at the sizes ``training.clone`` builds by default, beside
the scripted agents v2 of the same side in the same process.

The decisions are the real ones of whole games: the scripted agents v2 play ``--games`` games on
every bundled adventure (4 heroes, seeds 0, 1, ...), the CPU time of each side's ``act`` calls is
summed (the reference), and every decision's observation and mask is kept; each network then
answers every kept decision of the side, timed the same way. A network's cost does not depend on its
weights, so each is a fresh model saved to a temporary folder and loaded by ``PolicyAgent`` (a
checkpoint of one's own: ``--checkpoint SIDE=FILE.zip``). Issue 53's aim: at most 1 ms of one core a
decision.

    python scripts/bench_policy.py [--games 1] [--checkpoint heroes=runs/x/model.zip]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import torch

from agents import from_spec
from agents.policy import PolicyAgent
from dungeon_env import env as make_env
from dungeon_env.content import adventure_names

AIM_MS = 1.0  # issue 53: a trained policy's decision costs at most 1 ms of one core
SIDES = ("heroes", "dm")


def side_of(agent: str) -> str:
    return "dm" if agent == "dm" else "heroes"


def scripted_decisions(games: int) -> tuple[dict[str, list], dict[str, float]]:
    """Every decision of the scripted v2 games (observation, mask) by side, and each side's CPU
    seconds in ``act``."""
    kept: dict[str, list] = {side: [] for side in SIDES}
    seconds = dict.fromkeys(SIDES, 0.0)
    for adventure in adventure_names():
        for seed in range(games):
            env = make_env(adventure=adventure, heroes=4)
            env.reset(seed=seed)
            agents = {side: from_spec("scripted@v2", side, env=env, seed=seed) for side in SIDES}
            for agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                side = side_of(agent)
                start = time.process_time()
                action = agents[side].act(obs["observation"], obs["action_mask"])
                seconds[side] += time.process_time() - start
                kept[side].append((obs["observation"], obs["action_mask"]))
                env.step(action)
    return kept, seconds


def fresh_checkpoint(network: str, side: str, folder: Path) -> Path:
    """A fresh model of ``network`` as ``training.clone`` builds it, saved in ``folder``."""
    from stable_baselines3.common.logger import configure

    from training.clone import CloneSettings
    from training.common import make_vec_env
    from training.train_role import PPOSettings, make_model

    defaults = CloneSettings(data=(), out=str(folder))
    ppo = PPOSettings(network=network, net_arch=defaults.net_arch, n_envs=1)
    vec = make_vec_env(side, "random", ppo.env_kwargs(), 1, 0)
    try:
        model = make_model(ppo, vec, configure(str(folder), []))
    finally:
        vec.close()
    path = folder / f"{network}_{side}.zip"
    model.save(path)
    return path


def policy_ms(path: Path, side: str, decisions: list) -> float:
    """CPU milliseconds per decision of ``PolicyAgent(path)`` over ``decisions``."""
    agent = PolicyAgent(path, role=side)
    agent.act(*decisions[0])  # load the model outside the timing
    start = time.process_time()
    for observation, mask in decisions:
        agent.act(observation, mask)
    return 1000 * (time.process_time() - start) / len(decisions)


def main(argv: list[str] | None = None) -> None:
    from training.features import NETWORKS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per adventure (default 1)")
    parser.add_argument(
        "--checkpoint", action="append", default=[], help="SIDE=FILE.zip: time this checkpoint too"
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    kept, seconds = scripted_decisions(args.games)
    print(
        f"policy decisions against scripted@v2 on {sum(map(len, kept.values()))} decisions of "
        f"{args.games} game(s) per adventure, one torch thread"
    )
    print("| side | network | decisions | CPU ms / decision | x scripted@v2's | aim (<= 1 ms) |")
    print("|---|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        runs = [(side, net, fresh_checkpoint(net, side, Path(tmp))) for side in SIDES for net in NETWORKS]
        for text in args.checkpoint:
            side, _, file = text.partition("=")
            if side not in SIDES or not Path(file).is_file():
                parser.error(f"--checkpoint: expected heroes=FILE.zip or dm=FILE.zip of a file, got {text!r}")
            runs.append((side, file, Path(file)))
        for side, name, path in runs:
            decisions = kept[side]
            ms = policy_ms(path, side, decisions)
            scripted = 1000 * seconds[side] / len(decisions)
            verdict = "met" if ms <= AIM_MS else "missed"
            print(f"| {side} | {name} | {len(decisions)} | {ms:.3f} | {ms / scripted:.2f} | {verdict} |")
    for side in SIDES:
        print(f"scripted@v2 {side}: {1000 * seconds[side] / len(kept[side]):.3f} CPU ms a decision")


if __name__ == "__main__":
    main()
