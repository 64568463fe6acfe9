"""The exact solver's lines (replayed from the start and from positions in play), par against a
plain fewest-draws search, and hints. Its verdicts: test_solver.py."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.solver_baseline import baseline_winnable
from tests.engine.solver_cases import (
    QUICK_LAYOUTS,
    RULE_SETS,
    SMALL_LAYOUTS,
    brute_force_min_draws,
    random_state,
    replay,
)
from tripeaks.engine.deal import from_seed
from tripeaks.engine.game import Draw, Play, Position, Resign, RuleError, apply, new_game
from tripeaks.engine.layout import CLASSIC, Layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import (
    Hint,
    Solution,
    hint,
    line_tokens,
    par,
    solve,
    solve_min_draws,
)

# --------------------------------------------------------------------------- lines


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), rules=st.sampled_from(RULE_SETS))
def test_every_solver_line_replays_to_a_win(seed: int, rules: Rules) -> None:
    deal = from_seed(seed, CLASSIC, rules.start)
    solution = solve(deal, rules)
    if solution.winnable:
        assert replay(deal, rules, solution.line).status == "won"
        fewest = solve_min_draws(deal, rules)
        assert fewest.winnable
        assert replay(deal, rules, fewest.line).status == "won"
        assert fewest.draws <= solution.draws
        assert len(fewest.line) == CLASSIC.size + fewest.draws  # par, checked on its own below
    else:
        assert solution.line == ()
        assert par(deal, rules) is None


def test_solve_from_a_mid_game_position_agrees_with_the_baseline_and_replays() -> None:
    rng = random.Random(7)
    checked = lost = 0
    for seed in range(24):
        rules = RULE_SETS[seed % len(RULE_SETS)]
        deal = from_seed(seed, CLASSIC, rules.start)
        state = random_state(deal, rules, rng, rng.randint(5, 30))
        if state.status != "playing":
            continue
        solution = solve(deal, rules, state.position)
        assert solution.winnable == baseline_winnable(deal, rules, state.position)
        if solution.winnable:
            assert replay(deal, rules, solution.line, state).status == "won"
        else:
            lost += 1
        checked += 1
    assert checked >= 18
    assert lost >= 1  # random play loses some games: the lost branch is exercised


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**64 - 1),
    layout=st.sampled_from((*QUICK_LAYOUTS, *SMALL_LAYOUTS)),
    rules=st.sampled_from(RULE_SETS),
    moves=st.integers(0, 40),
)
def test_solve_from_late_positions_agrees_with_the_baseline_and_replays(
    seed: int, layout: Layout, rules: Rules, moves: int
) -> None:
    # Late in a game most ranks have few cards left: the positions where a card that nothing
    # left can follow fits the waste, and the search does not draw from there.
    deal = from_seed(seed, layout, rules.start)
    state = random_state(deal, rules, random.Random(seed), moves)
    solution = solve(deal, rules, state.position)
    assert solution.winnable == baseline_winnable(deal, rules, state.position)
    if solution.winnable:
        assert replay(deal, rules, solution.line, state).status == "won"


def test_line_tokens_are_positions_and_draws() -> None:
    assert line_tokens((Play(18), Draw(), Play(0))) == [18, "draw", 0]
    assert line_tokens(()) == []


def test_a_won_position_needs_no_moves() -> None:
    deal = from_seed(3, CLASSIC)
    everything = Position((1 << CLASSIC.size) - 1, 5, deal.stock[4])
    assert solve(deal, Rules(), everything) == Solution(True, ())
    assert solve_min_draws(deal, Rules(), everything) == Solution(True, ())


def test_impossible_positions_and_mismatched_starts_are_refused() -> None:
    deal = from_seed(3, CLASSIC)
    with pytest.raises(RuleError):
        solve(deal, Rules(), Position(1, 0, deal.waste))  # a peak top gone while still covered
    with pytest.raises(RuleError):
        solve(deal, Rules(), Position(0, 99, deal.waste))
    with pytest.raises(RuleError):
        solve(deal, Rules(start="empty"))


# --------------------------------------------------------------------------- par and hints


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("layout", SMALL_LAYOUTS)
def test_par_matches_a_brute_force_fewest_draws_search(rules: Rules, layout: Layout) -> None:
    for seed in range(6):
        deal = from_seed(seed, layout, rules.start)
        expected = brute_force_min_draws(deal, rules)
        assert par(deal, rules) == (None if expected is None else layout.size + expected)
        assert solve_min_draws(deal, rules).draws == (expected or 0)


def test_par_on_classic_is_28_plus_the_fewest_draws_and_never_beaten_by_solve() -> None:
    for seed, rules in ((0, Rules()), (1, Rules(wrap=False)), (2, Rules(start="empty"))):
        deal = from_seed(seed, CLASSIC, rules.start)
        fewest = solve_min_draws(deal, rules)
        assert fewest.winnable
        assert par(deal, rules) == CLASSIC.size + fewest.draws
        assert fewest.draws <= solve(deal, rules).draws
        assert replay(deal, rules, fewest.line).status == "won"


def test_hints_are_legal_and_keep_the_game_winnable_with_one_draw_less_when_drawing() -> None:
    rng = random.Random(11)
    winnable_hints = draws = 0
    for i in range(30):
        rules = RULE_SETS[i % len(RULE_SETS)]
        layout = CLASSIC if i % 3 else SMALL_LAYOUTS[i % len(SMALL_LAYOUTS)]
        deal = from_seed(1000 + i, layout, rules.start)
        state = random_state(deal, rules, rng, rng.randint(2, 25))
        given_hint = hint(state)
        fewest = solve_min_draws(deal, rules, state.position)
        assert given_hint.winnable == fewest.winnable == solve(deal, rules, state.position).winnable
        if not given_hint.winnable:
            assert given_hint.move is None
            continue
        if state.status == "won":
            assert given_hint.move is None
            continue
        assert given_hint.move is not None
        after = apply(state, given_hint.move)  # legal, or apply raises
        rest = solve_min_draws(deal, rules, after.position)
        assert rest.winnable
        # The hinted move starts a fewest-draws line.
        assert rest.draws + isinstance(given_hint.move, Draw) == fewest.draws
        winnable_hints += 1
        draws += isinstance(given_hint.move, Draw)
    assert winnable_hints >= 15


def test_hint_on_finished_games() -> None:
    deal = from_seed(0, CLASSIC)
    state = new_game(deal, Rules())
    won = replay(deal, Rules(), solve(deal, Rules()).line)
    assert hint(won) == Hint(None, True)
    assert hint(apply(state, Resign())) == Hint(None, False)
