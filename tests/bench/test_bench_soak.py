"""bench/soak.py at a tiny size (tests/bench/runs.py): a private stack (tests/reliability/stack.py),
two players for three seconds, every game replayed from its move log. In a file of its own, as
the other benches that start servers (test_every_bench_runs.py): with it, that file took 30-37 s
alone on a loaded machine, the soak 12.6 s of it."""

from __future__ import annotations

import pytest

from tests.bench.runs import TINY, run_bench

pytestmark = pytest.mark.slow


def test_soak() -> None:
    out = run_bench(TINY["soak.py"])
    assert "differ" in out
