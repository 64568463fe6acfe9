"""Glicko-2 as Glickman publishes it, checked against his own worked example and his steps.

Glickman, "Example of the Glicko-2 system" (2012), section 3: a 1500 player with RD 200 and
volatility 0.06 beats a 1400 (RD 30), loses to a 1550 (RD 100) and to a 1700 (RD 300) in one
rating period; the paper gets r' = 1464.06, RD' = 151.52, sigma' = 0.05999 (tau = 0.5).
"""

from __future__ import annotations

import math

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


SCALE = 173.7178


def paper_f(x: float, *, delta: float, phi: float, v: float, a: float, tau: float) -> float:
    """Step 5's f(x), written out from the paper (on the Glicko-2 scale)."""
    ex = math.exp(x)
    return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2


def paper_steps_3_and_4(
    mu: float, games: list[tuple[Glicko, float]]
) -> tuple[float, float, list[tuple[float, float]]]:
    """v, Delta, and each opponent's (g, s - E), written out from the paper."""
    terms = []
    for opponent, score in games:
        g = 1 / math.sqrt(1 + 3 * (opponent.rd / SCALE) ** 2 / math.pi**2)
        e = 1 / (1 + math.exp(-g * (mu - (opponent.rating - 1500) / SCALE)))
        terms.append((g, e, score))
    v = 1 / sum(g**2 * e * (1 - e) for g, e, _ in terms)
    delta = v * sum(g * (s - e) for g, e, s in terms)
    return v, delta, [(g, s - e) for g, e, s in terms]


@pytest.mark.parametrize(
    ("player", "games"),
    [
        (Glicko(1500, 200, 0.06), PAPER_GAMES),
        # Far from 1500, where a function with mu^2 for phi^2 (the glicko2 package's) held the
        # volatility nearly still.
        (Glicko(2200, 50, 0.06), [(Glicko(1400, 50, 0.06), 0.0)] * 7),
        (Glicko(1000, 80, 0.06), [(Glicko(2000, 80, 0.06), 1.0)] * 3),
    ],
)
def test_the_new_volatility_is_the_root_of_the_papers_step_5(
    player: Glicko, games: list[tuple[Glicko, float]]
) -> None:
    mu, phi = (player.rating - 1500) / SCALE, player.rd / SCALE
    v, delta, terms = paper_steps_3_and_4(mu, games)
    new = rate_period(player, games)
    root = paper_f(
        math.log(new.volatility**2),
        delta=delta,
        phi=phi,
        v=v,
        a=math.log(player.volatility**2),
        tau=glicko.TAU,
    )
    assert root == pytest.approx(0, abs=1e-4)
    # ... and after the volatility, rd and rating are the paper's steps 6, 7 and 8.
    phi_star = math.sqrt(phi**2 + new.volatility**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * sum(g * surprise for g, surprise in terms)
    assert new.rd == pytest.approx(SCALE * new_phi, abs=1e-9)
    assert new.rating == pytest.approx(SCALE * new_mu + 1500, abs=1e-9)


def test_a_surprise_far_from_1500_raises_the_volatility_as_the_paper_says() -> None:
    games = [(Glicko(1400, 50, 0.06), 0.0)] * 7
    new = rate_period(Glicko(2200, 50, 0.06), games)
    # The glicko2 package (2.1.0), with mu^2 in step 5's f, gave 0.0601371 here.
    assert new.volatility > 0.0601371 + 0.0003
    assert new.volatility == pytest.approx(0.06064, abs=0.00001)


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
