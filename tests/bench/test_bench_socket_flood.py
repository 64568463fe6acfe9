"""bench/socket_flood.py, an attack bench, at a tiny size (tests/bench/runs.py): one server of its own on
a database and a Redis of its own."""

from __future__ import annotations

import pytest

from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_socket_flood_bench(private_redis: str) -> None:
    out = run_server_bench("socket_flood.py", "BENCH_SOCKETS_REDIS_URL", private_redis)
    assert "closed 4409" in out
    assert '"fresh address"' in out and '"spent address"' in out  # the first bursts, alone
