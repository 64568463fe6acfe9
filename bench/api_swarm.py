"""One account swarms the API (issue #35): what does a refused request cost, and does another
player's move stay fast?

    .venv/bin/python -m bench.api_swarm [--rate 300] [--threads 8] [--seconds 15] [--port 8797]

One server (the production profile: DRF's rates and the front gate's as configured), two players.
The victim plays the daily over REST in a process of its own, a move every 0.25 s (as in
bench.socket_flood), quiet and then while the attacker's `--threads` threads send `GET /api/me`
with its token, `--rate` a second in all (each thread on a kept-alive connection, at its share of
the rate, or as fast as it is answered if that is slower: the same attack whatever a refusal
costs). It prints the victim's move p50/p99 in each phase, how the swarm was answered and the
server's CPU time per swarm request (the phase's CPU time over the quiet one's, shared among the
swarm's requests).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.database import create_migrated_database
from bench.hint_attack import call, solver_bench_env
from bench.play_load import FRONT_GATE_RATES, start_servers, stop_servers
from bench.socket_flood import BENCH_DB, phase, setup


def swarmer(port: int, token: str, gap: float, until: float) -> Counter[str]:
    """GET /api/me on one connection every `gap` seconds until `until`: how each was answered."""
    answers: Counter[str] = Counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Token {token}"}
    due = time.monotonic()
    while time.monotonic() < until:
        due += gap
        time.sleep(max(0.0, due - time.monotonic()))
        try:
            connection.request("GET", "/api/me", headers=headers)
            response = connection.getresponse()
            response.read()
            answers[str(response.status)] += 1
        except (OSError, http.client.HTTPException) as error:
            answers[type(error).__name__] += 1
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.close()
    return answers


async def swarm(port: int, token: str, rate: float, threads: int, until: float) -> Counter[str]:
    loop = asyncio.get_running_loop()
    gap = threads / rate
    with ThreadPoolExecutor(threads) as pool:
        done = await asyncio.gather(
            *(loop.run_in_executor(pool, swarmer, port, token, gap, until) for _ in range(threads))
        )
    return sum(done, Counter())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=300, help="the swarm's requests a second")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--port", type=int, default=8797)
    args = parser.parse_args(argv)
    env = solver_bench_env(BENCH_DB, "BENCH_SOCKETS_REDIS_URL", "redis://127.0.0.1:6379/2")
    for name in (*FRONT_GATE_RATES, "THROTTLE_USER", "THROTTLE_ANON"):  # the production rates
        env.pop(name)
    os.environ.update(env)
    create_migrated_database(env["DATABASE_URL"], env)
    (_, victim_token), (_, attacker_token) = setup()
    servers = start_servers(1, args.port, env)
    try:
        status, _ = call(args.port, attacker_token, "GET", "/api/me")
        assert status == 200, status

        def flood(until: float) -> Any:
            return swarm(args.port, attacker_token, args.rate, args.threads, until)

        server = servers[0].pid
        report = {
            "quiet": phase(args.port, victim_token, args.seconds, server),
            "swarm": phase(args.port, victim_token, args.seconds, server, flood),
        }
    finally:
        stop_servers(servers)
    quiet = report["quiet"]["victim's REST moves"]
    swarmed = report["swarm"]["victim's REST moves"]
    report["p99 swarm / quiet"] = round(swarmed["p99_ms"] / max(quiet["p99_ms"], 0.1), 2)
    answers = report["swarm"].pop("attacker's socket opens")
    report["swarm"].pop("server CPU ms per open")
    report["swarm"]["answers"] = answers
    requests = sum(answers.values())
    extra = report["swarm"]["server CPU s"] - report["quiet"]["server CPU s"]
    report["swarm requests"] = requests
    report["server CPU ms per swarm request"] = round(extra * 1000 / max(requests, 1), 3)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
