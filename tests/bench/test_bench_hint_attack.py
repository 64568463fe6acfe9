"""bench/hint_attack.py, an attack bench, at a tiny size (tests/bench/runs.py): one server of its own on
a database and a Redis of its own."""

from __future__ import annotations

import pytest

from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_hint_attack_bench(private_redis: str) -> None:
    out = run_server_bench("hint_attack.py", "BENCH_HINT_REDIS_URL", private_redis)
    assert "GET /api/me" in out
