"""bench/race_load.py at a tiny size (tests/bench/runs.py): races over two servers of its own and
two Redis servers (the bench's and one it starts), then a solo phase on the same servers."""

from __future__ import annotations

import pytest

from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_race_load(private_redis: str) -> None:
    out = run_server_bench("race_load.py", "BENCH_REDIS_URL", private_redis, span=2)
    assert "not: 0" in out and ": 0 differ from their stored state" in out
    assert out.count("progress frames missed (a gap in a player's seq): 0\n") == 2  # both runs
    assert "over 2 Redis server(s)" in out
    assert "servers' CPU a solo move" in out and "race / solo" in out
    assert "servers' CPU before the first start" in out
