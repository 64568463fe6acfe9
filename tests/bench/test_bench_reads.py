"""The read benches at a tiny size (tests/bench/runs.py): the leaderboard's and the access log's."""

from __future__ import annotations

import os

import pytest

from tests.bench.runs import TINY, run_bench

pytestmark = pytest.mark.slow


def test_leaderboard_bench_reseeds_its_own_database(private_redis: str) -> None:
    database = f"tripeaks_bench_test_{os.getpid()}"
    out = run_bench(
        [*TINY["leaderboard_bench.py"], "--database", database], BENCH_REDIS_URL=private_redis
    )
    assert "seeded 300 results by 50 players" in out
    assert f"dropped {database}" in out


def test_access_bench() -> None:
    out = run_bench(TINY["access_bench.py"])
    assert "ratio" in out.lower()
