"""Glicko-2, one rating period at a time, as Glickman publishes it.

Pure Python, no Django: a rating is a frozen ``Glicko`` (rating, rd, volatility on the Glicko
scale, 1500 ± 350 for a new player); ``rate_period`` gives the rating after one rating period in
which the player met the given opponents (their ratings *before* the period) with the given
scores (1 win, 0.5 draw, 0 loss).

The steps are those of Mark Glickman, "Example of the Glicko-2 system" (2012), numbered as there,
with its system constant tau = 0.5 and its convergence tolerance 0.000001 (the Illinois
algorithm of step 5). tests/ratings/test_glicko.py checks the paper's worked example.

Written here rather than taken from a library: the one pure-Python package (``glicko2``) had
step 5's function wrong (the rating mu where the paper has the deviation phi), and correcting it
meant overriding its private methods.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Glicko:
    rating: float
    rd: float
    volatility: float


START = Glicko(rating=1500.0, rd=350.0, volatility=0.06)

# The system constant: how much the volatility may change in a period (the paper suggests 0.3 to
# 1.2 and works its example with 0.5).
TAU = 0.5
# Step 5's convergence tolerance.
EPSILON = 0.000001
# Between the Glicko scale and Glicko-2's (step 2).
SCALE = 173.7178


@dataclass(frozen=True)
class _Opponent:
    """An opponent on the Glicko-2 scale, with the player's score against them."""

    mu: float
    phi: float
    score: float

    @property
    def g(self) -> float:
        return 1 / math.sqrt(1 + 3 * self.phi**2 / math.pi**2)

    def expected(self, mu: float) -> float:
        """E(mu, mu_j, phi_j): the player's expected score against this opponent."""
        return 1 / (1 + math.exp(-self.g * (mu - self.mu)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float) -> float:
    """Step 5: sigma', the root of f by the Illinois algorithm."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / TAU**2

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate_period(player: Glicko, games: Sequence[tuple[Glicko, float]]) -> Glicko:
    """The player's rating after one rating period of ``games`` (opponent, score) pairs.

    Scores are 1, 0.5 or 0. A period without games leaves the rating as it is (the caller never
    rates a player who met nobody).
    """
    if not games:
        return player
    if any(score not in (0, 0.5, 1) for _, score in games):
        raise ValueError("a score is 1 (win), 0.5 (draw) or 0 (loss)")
    # Step 2: onto the Glicko-2 scale.
    mu, phi = (player.rating - 1500) / SCALE, player.rd / SCALE
    opponents = [_Opponent((o.rating - 1500) / SCALE, o.rd / SCALE, s) for o, s in games]
    # Steps 3 and 4: the estimated variance v and the estimated improvement Delta.
    v = 1 / sum(o.g**2 * o.expected(mu) * (1 - o.expected(mu)) for o in opponents)
    improvement = sum(o.g * (o.score - o.expected(mu)) for o in opponents)
    sigma = _new_volatility(phi, player.volatility, v * improvement, v)
    # Steps 6 and 7: the deviation grows by the volatility, then shrinks by what was learnt.
    phi_star = math.sqrt(phi**2 + sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * improvement
    # Step 8: back onto the Glicko scale.
    return Glicko(rating=SCALE * new_mu + 1500, rd=SCALE * new_phi, volatility=sigma)
