"""``AdvisedPolicy``: a MaskablePPO actor-critic whose action logits add a learned weight times the
advisor's one-hot (the last ``n`` inputs of an advised observation, ``n`` the size of the policy's
action space: ``N_ACTIONS`` today, 76 for a checkpoint of an older action table; see
``agents.advised``).

    logits = action_net(mlp_pi(observation)) + advice_weight * one_hot(advice)

The networks see the compact observation (the advice one-hot is split off before them); the value
network never sees the advice. With the default initial weight of 5, the untrained policy takes the
advised action with probability ``e^5 / (e^5 + k - 1)`` among ``k`` legal actions (0.97 for k = 5),
and exactly the advised one when played deterministically. Needs torch (the ``training`` extra).
"""

from __future__ import annotations

import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor
from torch import nn

DEFAULT_ADVICE_WEIGHT = 5.0


class AdviceMlpExtractor(nn.Module):
    """SB3's ``MlpExtractor`` on the observation without the advice; the actor's latent carries the
    advice one-hot along for ``AdviceHead``."""

    def __init__(self, inner: MlpExtractor, n_advice: int) -> None:
        super().__init__()
        self.inner = inner
        self.n_advice = n_advice
        self.latent_dim_pi = inner.latent_dim_pi + n_advice
        self.latent_dim_vf = inner.latent_dim_vf

    def _split(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return features[..., : -self.n_advice], features[..., -self.n_advice :]

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        observation, advice = self._split(features)
        return th.cat([self.inner.forward_actor(observation), advice], dim=-1)

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return self.inner.forward_critic(self._split(features)[0])


class AdviceHead(nn.Module):
    """Logits from the actor's latent plus ``advice_weight`` (learned) times the advice one-hot."""

    def __init__(self, latent_dim: int, n_actions: int, advice_weight: float) -> None:
        super().__init__()
        self.n_actions = n_actions
        self.linear = nn.Linear(latent_dim, n_actions)
        nn.init.orthogonal_(self.linear.weight, gain=0.01)
        nn.init.zeros_(self.linear.bias)
        self.advice_weight = nn.Parameter(th.tensor(float(advice_weight)))

    def forward(self, latent: th.Tensor) -> th.Tensor:
        hidden, advice = latent[..., : -self.n_actions], latent[..., -self.n_actions :]
        return self.linear(hidden) + self.advice_weight * advice


class AdvisedPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic with the advice added to the logits (see the module docstring)."""

    def __init__(self, *args, advice_weight: float = DEFAULT_ADVICE_WEIGHT, **kwargs) -> None:
        self.advice_weight = advice_weight
        super().__init__(*args, **kwargs)

    @property
    def n_actions(self) -> int:
        """The advice one-hot's size: the action table the policy was built for."""
        return int(self.action_space.n)

    def _build_mlp_extractor(self) -> None:
        inner = MlpExtractor(
            self.features_dim - self.n_actions,
            net_arch=self.net_arch,
            activation_fn=self.activation_fn,
            device=self.device,
        )
        self.mlp_extractor = AdviceMlpExtractor(inner, self.n_actions)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        hidden = self.mlp_extractor.latent_dim_pi - self.n_actions
        self.action_net = AdviceHead(hidden, self.n_actions, self.advice_weight)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict:
        data = super()._get_constructor_parameters()
        data["advice_weight"] = self.advice_weight
        return data


def advice_probability(advice_weight: float, legal: int) -> float:
    """The untrained policy's probability of the advised action among ``legal`` actions."""
    return float(np.exp(advice_weight) / (np.exp(advice_weight) + legal - 1))


__all__ = ["DEFAULT_ADVICE_WEIGHT", "AdviceHead", "AdviceMlpExtractor", "AdvisedPolicy", "advice_probability"]
