"""bench/play_load.py at a tiny size (tests/bench/runs.py): servers of its own, every game replayed."""

from __future__ import annotations

import pytest

from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_play_load(private_redis: str) -> None:
    out = run_server_bench("play_load.py", "BENCH_REDIS_URL", private_redis, span=2)
    assert ": 0 differ from their stored state" in out
