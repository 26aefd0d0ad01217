"""Alternating self-play: the heroes and the DM take turns training against a pool of the other side's
past checkpoints.

    python -m training.selfplay --generations 10 --steps-per-generation 50000

Generation g trains the heroes for ``--steps-per-generation`` steps against DM checkpoints drawn from
the pool (a new draw every episode among the newest ``--pool-window``; ``--base-opponent`` while the
pool is empty), saves them as ``pool/heroes_g<g>.zip``, then does the same for the DM against the
heroes' pool. Both models keep learning across generations. Writes ``runs/<run name>/`` with
``heroes/`` and ``dm/`` TensorBoard logs, ``pool/``, ``final_heroes.zip``, ``final_dm.zip`` and
``eval.json`` (final heroes vs final DM, and each against ``--base-opponent``).
"""

from __future__ import annotations

import dataclasses
import json
import time

from training.common import (
    PoolAgent,
    learn_or_save,
    make_agent,
    make_vec_env,
    other_side,
    outcome_callback,
    parse_settings,
    progress_callback,
    steps_per_second_callback,
)
from training.evaluate import evaluate, format_table
from training.train_role import PPOSettings, make_logger, make_model, setup_run


@dataclasses.dataclass
class Settings(PPOSettings):
    """Alternating self-play of the heroes and the DM with a pool of past checkpoints."""

    exp_name: str = "selfplay"
    """name of this experiment (part of the run name)"""
    generations: int = 10
    """number of generations (each trains the heroes, then the DM)"""
    steps_per_generation: int = 50_000
    """environment steps per side per generation"""
    pool_window: int = 5
    """opponents are drawn from the newest this many checkpoints of the other side"""
    base_opponent: str = "random"
    """opponent while the other side's pool is empty (random or an agents name)"""


def main(argv: list[str] | None = None) -> dict:
    from stable_baselines3.common.callbacks import CallbackList

    settings = parse_settings(Settings, argv)
    make_agent(settings.base_opponent, "dm")  # fail early on an unknown name
    name, run_dir = setup_run(settings, "both")
    pool = run_dir / "pool"
    pool.mkdir()
    print(f"run {name} -> {run_dir}")

    vecs, models, timers = {}, {}, {}
    for side in ("heroes", "dm"):
        base = make_agent(settings.base_opponent, other_side(side))
        opponent = PoolAgent(pool, other_side(side), settings.pool_window, base)
        vecs[side] = make_vec_env(
            side,
            opponent,
            settings.env_kwargs(),
            settings.n_envs,
            settings.seed + (0 if side == "heroes" else 10_000),
            subproc=settings.subproc,
        )
        models[side] = make_model(settings, vecs[side], make_logger(run_dir / side))
        timers[side] = steps_per_second_callback()

    start = time.perf_counter()
    try:
        for generation in range(1, settings.generations + 1):
            for side in ("heroes", "dm"):
                progress = progress_callback(
                    settings.steps_per_generation,
                    f"generation {generation}/{settings.generations}: {side}",
                    settings.progress,
                )
                finished = learn_or_save(
                    models[side],
                    settings.steps_per_generation,
                    CallbackList([outcome_callback(), timers[side], progress]),
                    run_dir,
                    side,
                    reset_num_timesteps=False,
                )
                if not finished:
                    models[other_side(side)].save(run_dir / f"{other_side(side)}_interrupted.zip")
                    return {"run": name, "interrupted": True, "generation": generation}
                models[side].save(pool / f"{side}_g{generation:04d}.zip")
                print(
                    f"generation {generation}: {side} at {models[side].num_timesteps} steps, "
                    f"{timers[side].sps:.0f} steps per second"
                )
    finally:
        for vec in vecs.values():
            vec.close()
    seconds = time.perf_counter() - start
    steps = sum(m.num_timesteps for m in models.values())
    print(f"self-play: {steps} steps in {seconds:.1f} s: {steps / seconds:.0f} steps per second")
    for side in ("heroes", "dm"):
        models[side].save(run_dir / f"final_{side}.zip")

    summary = {"run": name, "steps": steps, "seconds": seconds, "sps": steps / seconds, "eval": []}
    if settings.eval_games > 0:
        heroes, dm, base = (
            str(run_dir / "final_heroes.zip"),
            str(run_dir / "final_dm.zip"),
            settings.base_opponent,
        )
        for pairing in ((heroes, dm), (heroes, base), (base, dm)):
            result = evaluate(*pairing, settings.env_kwargs(), settings.eval_games, seed=10**6)
            print(format_table(result))
            summary["eval"].append(result)
        (run_dir / "eval.json").write_text(json.dumps(summary["eval"], indent=2))
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


if __name__ == "__main__":
    main()
