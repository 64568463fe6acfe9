"""The Glicko-2 wrapper: the library's maths, checked against Glickman's own worked example.

Glickman, "Example of the Glicko-2 system" (2012), section 3: a 1500 player with RD 200 and
volatility 0.06 beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD 300) in one
rating period; the paper gets r' = 1464.06, RD' = 151.52, sigma' = 0.05999 (tau = 0.5).
"""

from __future__ import annotations

import math

import glicko2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripeaks.ratings import glicko
from tripeaks.ratings.glicko import Glicko, rate_period

PAPER_GAMES = [
    (Glicko(1400, 30, 0.06), 1.0),
    (Glicko(1550, 100, 0.06), 0.0),
    (Glicko(1700, 300, 0.06), 0.0),
]


def test_the_papers_worked_example() -> None:
    new = rate_period(Glicko(1500, 200, 0.06), PAPER_GAMES)
    # The paper rounds its intermediate steps; these are its printed figures.
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_tau_is_the_papers_example_value() -> None:
    assert glicko.TAU == 0.5


def paper_f(x: float, *, delta: float, phi: float, v: float, a: float, tau: float) -> float:
    """Step 5's f(x), written out from the paper (on the Glicko-2 scale)."""
    ex = math.exp(x)
    return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2


@pytest.mark.parametrize(
    ("player", "games"),
    [
        (Glicko(1500, 200, 0.06), PAPER_GAMES),
        # Far from 1500 the library's own f (mu^2 for phi^2) holds the volatility nearly still.
        (Glicko(2200, 50, 0.06), [(Glicko(1400, 50, 0.06), 0.0)] * 7),
        (Glicko(1000, 80, 0.06), [(Glicko(2000, 80, 0.06), 1.0)] * 3),
    ],
)
def test_the_new_volatility_is_the_root_of_the_papers_step_5(
    player: Glicko, games: list[tuple[Glicko, float]]
) -> None:
    scale = 173.7178
    mus = [(o.rating - 1500) / scale for o, _ in games]
    phis = [o.rd / scale for o, _ in games]
    scores = [s for _, s in games]
    probe = glicko2.Player(player.rating, player.rd, player.volatility)
    v = probe._v(mus, phis)
    delta = probe._delta(mus, phis, scores, v)
    new = rate_period(player, games)
    root = paper_f(
        math.log(new.volatility**2),
        delta=delta,
        phi=player.rd / scale,
        v=v,
        a=math.log(player.volatility**2),
        tau=glicko.TAU,
    )
    assert root == pytest.approx(0, abs=1e-4)
    # ... and after the volatility, rd and rating are the library's own steps 6 and 7.
    plain = glicko2.Player(player.rating, player.rd, player.volatility)
    plain.update_player([o.rating for o, _ in games], [o.rd for o, _ in games], scores)
    assert abs(new.volatility - plain.vol) < 0.001
    assert new.rating == pytest.approx(plain.rating, abs=0.1)


def test_a_surprise_far_from_1500_raises_the_volatility_as_the_paper_says() -> None:
    games = [(Glicko(1400, 50, 0.06), 0.0)] * 7
    plain = glicko2.Player(2200, 50, 0.06)
    plain.update_player([1400] * 7, [50] * 7, [0] * 7)
    new = rate_period(Glicko(2200, 50, 0.06), games)
    assert new.volatility > plain.vol + 0.0003


def test_a_period_without_games_changes_nothing_and_scores_are_checked() -> None:
    assert rate_period(glicko.START, []) == glicko.START
    with pytest.raises(ValueError, match="score"):
        rate_period(glicko.START, [(glicko.START, 2.0)])


ratings = st.floats(min_value=500, max_value=3000)
deviations = st.floats(min_value=30, max_value=350)
volatilities = st.floats(min_value=0.03, max_value=0.1)
players = st.builds(Glicko, ratings, deviations, volatilities)


@settings(max_examples=300, deadline=None)
@given(
    player=players,
    opponents=st.lists(players, min_size=1, max_size=15),
    scores=st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=15, max_size=15),
)
def test_any_period_gives_a_sane_rating(
    player: Glicko, opponents: list[Glicko], scores: list[float]
) -> None:
    games = list(zip(opponents, scores, strict=False))
    new = rate_period(player, games)
    assert all(math.isfinite(x) for x in (new.rating, new.rd, new.volatility))
    assert 0 < new.volatility < 1
    # The RD grows at most by the period's volatility (Glickman's step 6).
    assert new.rd <= math.hypot(player.rd, new.volatility * 173.7178) + 1e-9
    # Winning every game never lowers a rating; losing every game never raises it.
    if all(score == 1.0 for _, score in games):
        assert new.rating > player.rating
    if all(score == 0.0 for _, score in games):
        assert new.rating < player.rating
