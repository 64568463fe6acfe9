"""bench/solver_share.py, an attack bench, at a tiny size (tests/bench/runs.py): one server of its own on
a database and a Redis of its own."""

from __future__ import annotations

import pytest

from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_solver_share_bench(private_redis: str) -> None:
    out = run_server_bench("solver_share.py", "BENCH_SHARE_REDIS_URL", private_redis)
    assert "victims' 503 share" in out
