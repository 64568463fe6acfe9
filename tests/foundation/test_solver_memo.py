"""The test process's memo of deterministic solver searches (tests/solver_memo.py) answers as the
search would: the same answer, its nodes charged to the caller's budget, and the real search (and
its BudgetExceeded) when the budget could not have paid for it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.solver_memo import remembered
from tripeaks.engine.deal import from_seed
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import Budget, BudgetExceeded, par

DEAL = from_seed(7, get_layout("classic"))
RULES = Rules()


def counted(search: Any) -> tuple[Any, list[int]]:
    calls: list[int] = []

    def counting(*args: Any, budget: Budget | None = None) -> Any:
        calls.append(1)
        return search(*args, budget=budget)

    return remembered(counting), calls


def nodes_of_a_real_search() -> int:
    budget = Budget()
    par(DEAL, RULES, budget=budget)
    return budget.nodes


def test_a_second_search_is_answered_from_the_memo_and_charged() -> None:
    memo_par, calls = counted(par)
    first = memo_par(DEAL, RULES)
    budget = Budget(max_nodes=10**9)
    assert memo_par(DEAL, RULES, budget=budget) == first == par(DEAL, RULES)
    assert len(calls) == 1
    assert budget.nodes == nodes_of_a_real_search() > 0


def test_a_budget_too_small_for_the_remembered_search_runs_it_and_runs_out() -> None:
    memo_par, calls = counted(par)
    memo_par(DEAL, RULES)
    with pytest.raises(BudgetExceeded):
        memo_par(DEAL, RULES, budget=Budget(max_nodes=nodes_of_a_real_search() - 1))
    assert len(calls) == 2


def test_a_search_under_a_deadline_always_runs() -> None:
    memo_par, calls = counted(par)
    memo_par(DEAL, RULES)
    memo_par(DEAL, RULES, budget=Budget(seconds=60))
    assert len(calls) == 2
