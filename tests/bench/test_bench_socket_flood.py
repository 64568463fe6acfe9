"""bench/socket_flood.py, an attack bench, at a tiny size (tests/bench/runs.py): one server of its own on
a database and a Redis of its own."""

from __future__ import annotations

import os
import subprocess

import pytest

from bench import socket_flood
from tests.bench.runs import run_server_bench

pytestmark = pytest.mark.slow


def test_socket_flood_bench(private_redis: str) -> None:
    out = run_server_bench("socket_flood.py", "BENCH_SOCKETS_REDIS_URL", private_redis)
    assert "closed 4409" in out
    assert '"fresh address"' in out and '"spent address"' in out  # the first bursts, alone


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="pinning needs two cores")
def test_pinning_puts_the_servers_on_one_core_and_the_clients_on_the_others() -> None:
    cpus = sorted(os.sched_getaffinity(0))
    server, client = (subprocess.Popen(["sleep", "30"]) for _ in range(2))
    try:
        pinned = socket_flood.pin_cores([server.pid], client.pid)
        assert os.sched_getaffinity(server.pid) == {cpus[0]}
        assert os.sched_getaffinity(client.pid) == set(cpus[1:])
        assert pinned == {"server CPUs": cpus[:1], "client CPUs": cpus[1:]}
    finally:
        for process in (server, client):
            process.kill()
            process.wait()
