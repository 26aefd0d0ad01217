"""The statistical rule tests' check and their trial counts, chosen by a power calculation.

A statistical rule test samples a rule's outcome n times (the real rule, on a built game) and checks
the observed rate against the checklist's exact probability p (../shared/RULES_CHECKLIST.md):

    assert_rate(hits, n, p)        passes iff |hits / n - p| <= Z sqrt(p (1 - p) / n)

Z = 4, so a rule with the right rate fails a check with probability ALPHA = 6.3e-5 (the band the
tests always had). The trial count says what the check can find: ``trials_for(p, delta)`` is the
smallest n at which a rule whose rate is p - delta or p + delta instead fails the check with
probability at least 1 - BETA = 0.9999 (binomial probabilities exact, from scipy.stats). Each test
names its delta and why: most often one face combination of the dice the rule rolls (1/6 for one
d6, 1/36 for two), the least a rule can move by when it gets any roll wrong, since its rate is a
sum of such combinations (an error that moves no combination, or moves two the opposite ways at
once, changes no rate: no frequency test sees it). The dice are seeded, so each test is
deterministic; the power is what it would have against a broken rule over the seeds it could take.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

from scipy.stats import binom, norm

Z = 4.0
ALPHA = 2 * float(norm.sf(Z))  # 6.3e-5: a right rule failing the check
BETA = 1e-4  # a rule off by the test's delta passing it


def band(n: int, p: float) -> tuple[int, int]:
    """The hit counts ``assert_rate`` accepts out of n trials: lo..hi inclusive."""
    tol = Z * math.sqrt(p * (1 - p) / n)
    return math.ceil(n * (p - tol) - 1e-9), math.floor(n * (p + tol) + 1e-9)


def power(n: int, p: float, true_p: float) -> float:
    """The probability that the check of ``p`` fails when the rule's real rate is ``true_p``."""
    lo, hi = band(n, p)
    return 1.0 - float(binom.cdf(hi, n, true_p) - binom.cdf(lo - 1, n, true_p))


@cache
def trials_for(p: Fraction | float, delta: Fraction | float, beta: float = BETA) -> int:
    """The smallest n (to 1%) at which a rate off by ``delta`` either way from ``p`` fails the check
    with probability at least 1 - beta (only the side that is a probability, if one is not)."""
    p, delta = float(p), float(delta)
    if not 0 < delta <= 1:
        raise ValueError(f"delta must be in (0, 1], got {delta}")
    sides = [q for q in (p - delta, p + delta) if 0 <= q <= 1]
    z_beta = float(norm.isf(beta))
    # the normal approximation's n, then up in steps of 1% until the exact power is reached
    n = max(
        30,
        math.floor(
            max((Z * math.sqrt(p * (1 - p)) + z_beta * math.sqrt(q * (1 - q))) ** 2 for q in sides)
            / delta**2
            * 0.8
        ),
    )
    while min(power(n, p, q) for q in sides) < 1 - beta:
        n = math.ceil(n * 1.01)
    return n


def trials_for_all(rates, delta: Fraction | float, beta: float = BETA) -> int:
    """``trials_for`` of a test that checks several rates on the same trials: the largest."""
    return max(trials_for(p, delta, beta) for p in rates)


def assert_rate(hits: int, n: int, p) -> None:
    """A statistical check: the observed rate is within Z standard errors of the exact ``p``."""
    p_hat, tol = hits / n, Z * math.sqrt(float(p) * (1 - float(p)) / n)
    assert abs(p_hat - float(p)) <= tol, f"p_hat={p_hat:.4f}, expected {float(p):.4f} +- {tol:.4f} (n={n})"
