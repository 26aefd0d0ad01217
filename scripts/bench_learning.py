"""Benchmark of learning throughput (``make bench``): MaskablePPO on ``RoleEnv`` as
``training.train_role`` runs it by default (heroes against the random DM on flooded_cellar, the
default policy and hyperparameters, one torch thread), its 2 environments in ``SubprocVecEnv``
workers; and the same VecEnv stepped with random legal actions read from the masks, no learner.

1. env only: environment steps per second of the VecEnv alone (``action_masks`` then ``step``, as
   MaskablePPO's rollouts call them);
2. MaskablePPO: environment steps per second of ``learn`` (rollouts and gradient updates), over
   whole rollout-and-update rounds (``n_steps`` x ``n_envs`` steps each), and how that time splits
   between the rollouts (env steps plus the policy's forward passes) and the gradient updates.

The gap between the two is what the learner costs. A step is one decision of the trained side in
every environment (``model.num_timesteps`` counts the same). Either phase runs until ``--steps``
steps or ``--seconds`` seconds, whichever comes first (PPO: checked at the start of each rollout).
Start-up (the workers, the model) is not timed.

    python scripts/bench_learning.py [--seconds 20] [--steps 0] [--n-envs 2] [--n-steps 512]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from training.common import make_vec_env
from training.train_role import Settings, make_model


def env_only(vec, seconds: float, steps: int, seed: int = 0) -> tuple[int, float]:
    """Step ``vec`` with random legal actions (one per environment, drawn from its mask) until the
    budget is spent; returns the steps taken (summed over environments) and the wall seconds."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    rng = np.random.default_rng(seed)
    vec.reset()
    taken, start = 0, time.perf_counter()
    while (not steps or taken < steps) and time.perf_counter() - start < seconds:
        masks = get_action_masks(vec)
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        vec.step(actions)
        taken += vec.num_envs
    return taken, time.perf_counter() - start


def budget_callback(seconds: float, steps: int):
    """An SB3 callback that ends ``learn`` at the first rollout to start past the budget, and keeps
    the steps and seconds of the whole rounds before it (``measured``) and the seconds of their
    rollouts (``rollout_seconds``; the rest is the gradient updates)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Budget(BaseCallback):
        def _on_training_start(self) -> None:
            self.start, self.start_steps, self.stop = time.perf_counter(), self.num_timesteps, False
            self.measured, self.rollout_seconds, self._rollouts = (0, 0.0), 0.0, 0.0

        def _on_rollout_start(self) -> None:
            now = time.perf_counter()
            done, elapsed = self.num_timesteps - self.start_steps, now - self.start
            self.measured, self.rollout_seconds = (done, elapsed), self._rollouts
            self.stop = bool(done) and (elapsed >= seconds or (steps and done >= steps))
            self._rollout_start = now

        def _on_rollout_end(self) -> None:
            self._rollouts += time.perf_counter() - self._rollout_start

        def _on_step(self) -> bool:
            return not self.stop

    return Budget()


def ppo(vec, settings: Settings, seconds: float, steps: int) -> tuple[int, float, float]:
    """MaskablePPO's ``learn`` on ``vec`` with train_role's model until the budget is spent; returns
    the steps and wall seconds of the whole rollout-and-update rounds it played, and the seconds
    of their rollouts."""
    from stable_baselines3.common.logger import Logger

    model = make_model(settings, vec, Logger(folder=None, output_formats=[]))
    budget = budget_callback(seconds, steps)
    model.learn(total_timesteps=10**12, callback=budget)
    return (*budget.measured, budget.rollout_seconds)


def parse_args(argv: list[str] | None):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="time budget of each phase")
    parser.add_argument("--steps", type=int, default=0, help="step budget of each phase (0: none)")
    parser.add_argument("--n-envs", type=int, default=2, help="SubprocVecEnv workers")
    parser.add_argument(
        "--n-steps", type=int, default=0, help="PPO steps per env per rollout (0: train_role's default)"
    )
    return parser.parse_args(argv)


def settings_of(args) -> Settings:
    """train_role's default settings, in ``--n-envs`` subprocesses (``--n-steps``: shorter rollouts,
    the minibatch no larger than one)."""
    settings = Settings(n_envs=args.n_envs, subproc=True)
    if args.n_steps:
        settings.n_steps = args.n_steps
        settings.batch_size = min(settings.batch_size, args.n_steps * args.n_envs)
    return settings


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    import torch

    s = settings_of(args)
    torch.set_num_threads(s.torch_threads)
    torch.manual_seed(s.seed)
    vec = make_vec_env(s.role, s.opponent, s.env_kwargs(), s.n_envs, s.seed, subproc=True)
    setup = f"{s.role} vs {s.opponent} on {s.adventure}, {s.n_envs} SubprocVecEnv workers"
    try:
        taken, seconds = env_only(vec, args.seconds, args.steps, s.seed)
        env_sps = taken / seconds
        print(
            f"env only:     {taken} steps in {seconds:6.2f} s = {env_sps:7.1f} steps/s "
            f"({setup}, random legal actions)"
        )
        taken, seconds, rollouts = ppo(vec, s, args.seconds, args.steps)
        sps = taken / max(seconds, 1e-9)
        print(
            f"MaskablePPO:  {taken} steps in {seconds:6.2f} s = {sps:7.1f} steps/s "
            f"({100 * sps / env_sps:.0f}% of env only; n_steps {s.n_steps}, batch {s.batch_size}, "
            f"{s.n_epochs} epochs, net {s.net_arch}, {s.torch_threads} torch thread): rollouts "
            f"{rollouts:.2f} s = {taken / max(rollouts, 1e-9):.1f} steps/s with the policy's forward "
            f"passes, gradient updates {seconds - rollouts:.2f} s"
        )
    finally:
        vec.close()


if __name__ == "__main__":
    main()
