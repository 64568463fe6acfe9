"""bench/first_card.py at a tiny size (tests/bench/runs.py): two servers of its own (this commit as
its own baseline) on a database and a Redis of its own, one round in English."""

from __future__ import annotations

import pytest

from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_first_card_bench(private_redis: str) -> None:
    out = run_server_bench("first_card.py", "BENCH_REDIS_URL", private_redis, span=2)
    assert "first card" in out and "load average" in out
    assert "newcomer   en" in out and "game page  en" in out
