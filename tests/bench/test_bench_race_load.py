"""bench/race_load.py at a tiny size (tests/bench/runs.py): races over two servers of its own."""

from __future__ import annotations

import pytest

from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_race_load(private_redis: str) -> None:
    out = run_server_bench("race_load.py", "BENCH_REDIS_URL", private_redis, span=2)
    assert "not: 0" in out and ": 0 differ from their stored state" in out
