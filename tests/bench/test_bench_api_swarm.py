"""bench/api_swarm.py, an attack bench, at a tiny size (tests/bench/runs.py): one server of its own on
a database and a Redis of its own. (Whether its 100 requests in a second pass the gate's 30 a second
depends on how fast a busy machine answers them: only that it runs to its end is checked.)"""

from __future__ import annotations

import pytest

from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_api_swarm_bench(private_redis: str) -> None:
    out = run_server_bench("api_swarm.py", "BENCH_SOCKETS_REDIS_URL", private_redis)
    assert '"answers"' in out and "server CPU ms per swarm request" in out
