"""The deal service's solver searches, remembered for the test process when they are
deterministic.

A daily deal is the same for every test of a process (the run's DEAL_SECRET and the date), and
tests start the same few custom deals again and again; each test's database starts empty, so the
service proved and measured them anew every time: the solver took a fifth of the suite's Python
time (sampled with py-spy). A search with no wall-clock limit is deterministic (the node budget
gives the same outcome on every machine, tripeaks/engine/solver.py), so its first answer is the
answer. A remembered answer charges its nodes to the caller's budget, as the search would have,
and the search runs for real when they would overrun it. Searches under a deadline (a request's
budget) always run: their outcome depends on the machine.

The engine's own tests call the solver directly and are not affected.

The shipped deals' check (tripeaks/play/seeding.py, `check`: each line replayed to its win) is
remembered the same way, by the entry: loading the shipped file replays its 2,160 lines (2-3 s of
CPU), and tests/play/test_seed_deals.py loaded it whole four times. Only a line that won is
remembered; one that fails is replayed, and refused, every time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tripeaks.engine.solver import Budget
from tripeaks.play import deals, seeding

Search = Callable[..., Any]


def remembered(search: Search) -> Search:
    memo: dict[tuple[Any, ...], tuple[Any, int]] = {}

    @functools.wraps(search)
    def wrapper(*args: Any, budget: Budget | None = None) -> Any:
        if budget is not None and budget.seconds is not None:
            return search(*args, budget=budget)
        hit = memo.get(args)
        if hit is not None:
            answer, nodes = hit
            if budget is None:
                return answer
            if budget.max_nodes is None or budget.nodes + nodes <= budget.max_nodes:
                budget.nodes += nodes
                return answer
        counting = budget if budget is not None else Budget()
        before = counting.nodes
        answer = search(*args, budget=counting)
        memo[args] = (answer, counting.nodes - before)
        return answer

    return wrapper


@contextmanager
def installed() -> Iterator[None]:
    """The deal service (tripeaks/play/deals.py) searches, and the shipped deals are checked,
    through the memo while it lasts."""
    service: Any = deals
    shipped: Any = seeding
    solve, par, check = service.solve, service.par, shipped.check
    service.solve, service.par = remembered(solve), remembered(par)
    shipped.check = functools.cache(check)  # an exception is not cached: a bad line fails anew
    try:
        yield
    finally:
        service.solve, service.par, shipped.check = solve, par, check
