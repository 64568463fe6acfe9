"""solver.SharedSearch, the review's searches of one game: the answers of `solve` from every
position, with what one search learns kept for the next, and searches held to a draw limit."""

from __future__ import annotations

import random

import pytest

from tests.engine.solver_cases import brute_force_min_draws
from tests.engine.test_review import positions_of, random_game, replay_from
from tripeaks.engine.deal import from_seed
from tripeaks.engine.layout import CLASSIC
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import Budget, SharedSearch, solve

NOWRAP = Rules(wrap=False)


@pytest.mark.parametrize(("layout", "rules"), [("classic", Rules()), ("twin-peaks", NOWRAP)])
def test_a_shared_search_answers_as_solve_from_every_position_of_games(
    layout: str, rules: Rules
) -> None:
    for seed in range(6):
        deal = from_seed(seed, get_layout(layout))
        search = SharedSearch(deal, rules)
        moves = random_game(deal, rules, random.Random(seed), undo_share=0.05)
        for position in positions_of(deal, rules, moves):
            shared = search.solve(position)
            assert shared.winnable == solve(deal, rules, position).winnable
            if shared.winnable:
                assert replay_from(deal, rules, position, shared.line).status == "won"


def test_what_a_search_learned_saves_the_next_its_nodes() -> None:
    deal = from_seed(3, CLASSIC)
    moves = random_game(deal, Rules(), random.Random(3))
    positions = positions_of(deal, Rules(), moves)
    shared, alone = Budget(), Budget()
    search = SharedSearch(deal, Rules())
    for position in positions:
        search.solve(position, budget=shared)
        solve(deal, Rules(), position, budget=alone)
    assert shared.nodes < alone.nodes / 2


@pytest.mark.parametrize("layout", ["pyramid", "cascade"])
def test_a_search_within_a_draw_limit_wins_only_within_it(layout: str) -> None:
    rules = NOWRAP
    for seed in range(8):
        deal = from_seed(seed, get_layout(layout))
        moves = random_game(deal, rules, random.Random(seed), play_share=0.6)
        positions = positions_of(deal, rules, moves)
        full = SharedSearch(deal, rules)
        for position in positions:
            full.solve(position)  # the memo of lost states the limited searches start from
        fewest_of = {
            position: brute_force_min_draws(deal, rules, position) for position in positions
        }
        for limit in (4, 8, 12, 20):
            within = full.within(limit)
            for position, fewest in fewest_of.items():
                found = within.solve(position)
                assert found.winnable == (fewest is not None and position.drawn + fewest <= limit)
                if found.winnable:
                    assert replay_from(deal, rules, position, found.line).drawn <= limit


def test_what_a_limited_search_learns_stays_its_own() -> None:
    # From the deal, no win within 0 draws; with the whole stock, a win.
    deal = from_seed(0, CLASSIC)
    search = SharedSearch(deal, Rules())
    start = positions_of(deal, Rules(), [])[0]
    assert not search.within(0).solve(start).winnable
    assert search.solve(start).winnable


def test_a_limit_cannot_be_widened() -> None:
    search = SharedSearch(from_seed(0, CLASSIC), Rules(), max_draws=5)
    assert search.within(3) is not search
    with pytest.raises(ValueError, match="cannot widen"):
        search.within(6)
