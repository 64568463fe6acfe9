"""The solver's budget: a node count (deterministic) and a deadline; running out raises, it never
guesses a verdict."""

from __future__ import annotations

import pytest

from tripeaks.engine.deal import from_seed
from tripeaks.engine.game import new_game
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import (
    Budget,
    BudgetExceeded,
    hint,
    par,
    solve,
    solve_min_draws,
    winnable,
)

# `waves` without wrap, seed 5: the depth-first search needs about 170,000 nodes and the
# fewest-draws search (hint, par) over a million (seconds of CPU): an attacker's custom deal.
HARD = from_seed(5, get_layout("waves"))
NOWRAP = Rules(wrap=False)


def test_a_budget_without_limits_counts_the_nodes_and_changes_nothing() -> None:
    deal = from_seed(42, get_layout("classic"))
    counted = Budget()
    assert solve(deal, Rules(), budget=counted) == solve(deal, Rules())
    assert counted.nodes > 0
    again = Budget()
    solve(deal, Rules(), budget=again)
    assert again.nodes == counted.nodes  # deterministic


@pytest.mark.parametrize("search", [solve, solve_min_draws, winnable])
def test_a_search_that_fits_its_node_budget_answers_as_without(search: object) -> None:
    deal = from_seed(42, get_layout("classic"))
    needed = Budget()
    expected = search(deal, Rules(), budget=needed)  # type: ignore[operator]
    exact = Budget(max_nodes=needed.nodes)
    assert search(deal, Rules(), budget=exact) == expected  # type: ignore[operator]
    assert exact.nodes == needed.nodes


def test_one_node_less_raises_instead_of_answering() -> None:
    deal = from_seed(42, get_layout("classic"))
    needed = Budget()
    solve(deal, Rules(), budget=needed)
    short = Budget(max_nodes=needed.nodes - 1)
    with pytest.raises(BudgetExceeded) as raised:
        solve(deal, Rules(), budget=short)
    assert raised.value.budget is short and short.exhausted


def test_the_hard_deal_runs_out_of_a_hint_budget_at_the_same_node_every_time() -> None:
    spent = []
    for _ in range(2):
        budget = Budget(max_nodes=100_000)
        with pytest.raises(BudgetExceeded):
            hint(new_game(HARD, NOWRAP), budget=budget)
        spent.append(budget.nodes)
    assert spent[0] == spent[1] and spent[0] > 100_000
    with pytest.raises(BudgetExceeded):
        par(HARD, NOWRAP, budget=Budget(max_nodes=100_000))


def test_the_deadline_stops_a_search_that_the_node_count_would_let_run() -> None:
    budget = Budget(seconds=0.05)
    with pytest.raises(BudgetExceeded):
        par(HARD, NOWRAP, budget=budget)
    assert budget.exhausted and budget.max_nodes is None


def test_a_budget_is_shared_by_the_searches_given_it_in_turn() -> None:
    deal = from_seed(42, get_layout("classic"))
    one = Budget()
    solve(deal, Rules(), budget=one)
    shared = Budget(max_nodes=one.nodes * 2)
    solve(deal, Rules(), budget=shared)
    solve(deal, Rules(), budget=shared)
    assert shared.nodes == 2 * one.nodes
    with pytest.raises(BudgetExceeded):
        solve(deal, Rules(), budget=shared)


def test_a_spent_budget_refuses_at_once() -> None:
    spent = Budget(max_nodes=0)
    spent.nodes = 1
    with pytest.raises(BudgetExceeded):
        winnable(from_seed(1, get_layout("classic")), Rules(), budget=spent)


def test_a_cooperative_budget_answers_exactly_as_another() -> None:
    deal = from_seed(42, get_layout("classic"))
    plain, cooperative = Budget(), Budget(cooperative=True)
    assert par(deal, Rules(), budget=plain) == par(deal, Rules(), budget=cooperative)
    assert plain.nodes == cooperative.nodes
    with pytest.raises(BudgetExceeded):
        hint(new_game(HARD, NOWRAP), budget=Budget(max_nodes=50_000, cooperative=True))


def test_the_worst_case_bench_runs_in_its_tiny_mode(capsys: pytest.CaptureFixture[str]) -> None:
    from bench.solver_worst_case import main

    assert main(["--tiny", "--layouts", "pyramid", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "| `pyramid` | nowrap | empty |" in out and '"combinations": 4' in out
