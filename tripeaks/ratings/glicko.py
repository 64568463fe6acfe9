"""Glicko-2 through the ``glicko2`` library (deepy/glicko2), one rating period at a time.

Pure Python, no Django: a rating is a frozen ``Glicko`` (rating, rd, volatility on the Glicko
scale, 1500 ± 350 for a new player); ``rate_period`` gives the rating after one rating period in
which the player met the given opponents (their ratings *before* the period) with the given
scores (1 win, 0.5 draw, 0 loss). The maths is the library's (Glickman, "Example of the Glicko-2
system", 2012), with its system constant tau = 0.5.

One correction, not a second implementation: the library's ``_f`` (step 5, the function whose
root is the new volatility) uses the rating mu where the paper has the deviation phi,
``e^x (Delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2``. For a player far
from 1500 that holds the volatility almost still after a surprising result (0.0601 instead of
0.0606 for a 2200 who loses seven games to 1400s). ``_Player`` overrides ``_f`` with the paper's
term; everything else (g, E, v, Delta, the Illinois iteration, phi* and the new phi and mu) is the
library's. tests/ratings/test_glicko.py checks the paper's worked example and the difference.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import glicko2


@dataclass(frozen=True)
class Glicko:
    rating: float
    rd: float
    volatility: float


START = Glicko(rating=1500.0, rd=350.0, volatility=0.06)

# The system constant (tau) the library uses: the paper suggests 0.3 to 1.2.
TAU: float = glicko2.Player._tau


class _Player(glicko2.Player):
    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        # The paper's step 5 function, with phi^2 (the library has mu^2 here).
        ex = math.exp(x)
        phi2: float = self._Player__rd**2
        tau: float = self._tau
        return ex * (delta**2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / tau**2


def rate_period(player: Glicko, games: Sequence[tuple[Glicko, float]]) -> Glicko:
    """The player's rating after one rating period of ``games`` (opponent, score) pairs.

    Scores are 1, 0.5 or 0. A period without games leaves the rating as it is (the caller never
    rates a player who met nobody).
    """
    if not games:
        return player
    if any(score not in (0, 0.5, 1) for _, score in games):
        raise ValueError("a score is 1 (win), 0.5 (draw) or 0 (loss)")
    rated = _Player(rating=player.rating, rd=player.rd, vol=player.volatility)
    rated.update_player(
        [opponent.rating for opponent, _ in games],
        [opponent.rd for opponent, _ in games],
        [score for _, score in games],
    )
    return Glicko(rating=float(rated.rating), rd=float(rated.rd), volatility=float(rated.vol))
