"""Soak: simulated players play whole games over WebSocket for minutes, on a private stack.

    .venv/bin/python -m bench.soak [--players 300] [--minutes 10] [--servers 2] [--json out.json]

It starts a private PostgreSQL cluster and Redis server on free ports (tests/reliability/stack.py:
nothing shared is touched), `--servers` Uvicorn server processes and one Celery worker, signs in
`--players` players and has each play the daily deal move by move over /ws/games/{id}/ (the
players of bench/play_load.py), starting the next game on the same socket when one ends, as the
page does, for `--minutes`.

It reports moves/s, round-trip p50/p99 and errors (overall and per sample window), the resident
memory of every process (each server, the worker, Redis, PostgreSQL's processes summed)
at the start, every `--sample-seconds` and at the end, and afterwards replays every game in the
database from its move log and compares it with the stored state.

Rates: the per-player limits are production's (moves 20/s, game starts 30/min); the per-address
ones are raised, since every simulated player comes from 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.play_load import (  # noqa: E402
    Tally,
    percentile,
    player,
    rss_kb,
)
from tests.reliability.stack import Stack  # noqa: E402

SOAK_ENV = {
    "THROTTLE_MOVES": "20/s",
    "THROTTLE_GAME_STARTS": "30/min",
    "THROTTLE_MOVES_ADDRESS": "100000/s",
    "THROTTLE_GAME_STARTS_ADDRESS": "100000/min",
    "SOCKETS_PER_ADDRESS": "0",  # hundreds of players, one address (as bench.play_load)
    "LOG_LEVEL": "WARNING",
}


def pss_kb(pid: int) -> int:
    """Proportional set size: shared pages (PostgreSQL's shared buffers) counted once overall."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def memory(stack: Stack, named: dict[str, int]) -> dict[str, float]:
    """MB resident per process; PostgreSQL: the PSS of all the cluster's processes summed (RSS
    would count the shared buffers once per backend)."""
    sizes = {name: rss_kb(pid) / 1024 for name, pid in named.items()}
    postgres = 0
    for pid in stack.postgres_pids():
        with contextlib.suppress(OSError):  # a backend that just exited
            postgres += pss_kb(pid)
    sizes["postgres (PSS, all)"] = postgres / 1024
    return sizes


async def sampler(
    stack: Stack,
    named: dict[str, int],
    tally: Tally,
    until: float,
    every: float,
    samples: list[dict[str, Any]],
) -> None:
    started = time.monotonic()
    last_count = 0
    last_time = started
    while True:
        await asyncio.sleep(max(0.0, min(every, until - time.monotonic())))
        now = time.monotonic()
        window = tally.latencies[last_count:]
        samples.append(
            {
                "t_s": round(now - started),
                "moves_per_s": round(len(window) / max(1e-9, now - last_time), 1),
                "p99_ms": round(percentile(window, 0.99), 1) if window else None,
                "errors_total": len(tally.errors),
                "rss_mb": {k: round(v, 1) for k, v in memory(stack, named).items()},
            }
        )
        line = samples[-1]
        print(
            f"  t={line['t_s']:4d}s  {line['moves_per_s']:7.1f} moves/s  p99 {line['p99_ms']} ms  "
            f"errors {line['errors_total']}  RSS MB {line['rss_mb']}",
            flush=True,
        )
        last_count, last_time = len(tally.latencies), now
        if now >= until - 0.5:
            return


async def soak(
    stack: Stack,
    players: list[tuple[str, str]],
    ports: list[int],
    seconds: float,
    every: float,
    named: dict[str, int],
    think_s: float = 0.0,
) -> tuple[Tally, float, list[dict[str, Any]]]:
    tally = Tally()
    samples: list[dict[str, Any]] = []
    # One thread per player for its REST game starts (see bench/play_load.run_players).
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=len(players)))
    started = time.monotonic()
    until = started + seconds
    await asyncio.gather(
        sampler(stack, named, tally, until, every, samples),
        *(
            player(ports[i % len(ports)], session, token, until, tally, i, think_s, True)
            for i, (session, token) in enumerate(players)
        ),
    )
    return tally, time.monotonic() - started, samples


def trend(samples: list[dict[str, Any]], name: str) -> float:
    """MB per minute of the least-squares line through a process's samples after the first."""
    points = [(s["t_s"] / 60, s["rss_mb"][name]) for s in samples[1:]]
    if len(points) < 2:
        return 0.0
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    var = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / var if var else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--sample-seconds", type=float, default=60.0)
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="time between a player's moves, on average over players (bench/play_load's paced "
        "players; 0: as fast as the server answers)",
    )
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args(argv)
    if (
        not 1 <= args.players <= 2000
        or not 0.05 <= args.minutes <= 60
        or not 1 <= args.servers <= 8
    ):
        parser.error("keep it bounded: 1-2000 players, 0.05-60 minutes, 1-8 servers")
    every = min(args.sample_seconds, args.minutes * 60 / 3)

    print(
        f"starting a private stack ({args.servers} Uvicorn servers, 1 Celery worker)...", flush=True
    )
    stack = Stack.create(overrides=SOAK_ENV)
    try:
        os.environ.update(stack.env())
        import django

        django.setup()
        from bench.play_load import setup_players, verify_replays
        from tripeaks.play.models import Game

        players = setup_players(args.players)
        servers = [stack.start_server(f"soak-{i}") for i in range(args.servers)]
        worker = stack.start_worker("soak-worker")
        named = {f"server {i}": s.popen.pid for i, s in enumerate(servers)}
        named["celery worker"] = worker.popen.pid
        named["redis"] = stack.redis_pid() or 0
        rss_start = memory(stack, named)
        print(f"RSS at start (MB): { {k: round(v, 1) for k, v in rss_start.items()} }", flush=True)
        print(f"{args.players} players for {args.minutes:g} min...", flush=True)
        tally, elapsed, samples = asyncio.run(
            soak(
                stack,
                players,
                [s.port or 0 for s in servers],
                args.minutes * 60,
                every,
                named,
                args.think_ms / 1000,
            )
        )
        rss_end = memory(stack, named)
        for server in servers:
            server.stop()
        ids = {str(pk) for pk in Game.objects.values_list("pk", flat=True)}
        checked, bad = verify_replays(ids)
    finally:
        stack.close()

    rate = len(tally.latencies) / elapsed
    figures = {
        "players": args.players,
        "servers": args.servers,
        "think_ms": args.think_ms,
        "cores": os.cpu_count(),
        "seconds": round(elapsed, 1),
        "moves": len(tally.latencies),
        "moves_per_s": round(rate, 1),
        "p50_ms": round(percentile(tally.latencies, 0.5), 1),
        "p95_ms": round(percentile(tally.latencies, 0.95), 1),
        "p99_ms": round(percentile(tally.latencies, 0.99), 1),
        "max_ms": round(max(tally.latencies, default=0.0), 1),
        "errors": len(tally.errors),
        "error_kinds": sorted(set(tally.errors))[:10],
        "games_started": len(tally.games),
        "rss_start_mb": {k: round(v, 1) for k, v in rss_start.items()},
        "rss_end_mb": {k: round(v, 1) for k, v in rss_end.items()},
        "rss_trend_mb_per_min": {k: round(trend(samples, k), 2) for k in rss_start},
        "samples": samples,
        "games_replayed": checked,
        "replay_mismatches": bad,
    }
    print(
        f"\nTriPeaks soak: {args.players} players (think {args.think_ms:g} ms), "
        f"{args.servers} Uvicorn servers, "
        f"{os.cpu_count()} cores, loopback, private PostgreSQL and Redis"
    )
    print(
        f"{figures['moves']} moves in {elapsed:.0f} s = {rate:.1f} moves/s; round trip "
        f"p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, p99 {figures['p99_ms']} ms, "
        f"max {figures['max_ms']} ms; errors {figures['errors']}; games {len(tally.games)}"
    )
    for name in rss_start:
        print(
            f"{name:>15} RSS: {rss_start[name]:7.1f} MB at start, {rss_end[name]:7.1f} MB at end, "
            f"trend {figures['rss_trend_mb_per_min'][name]:+.2f} MB/min"
        )
    if tally.errors:
        print("errors:", figures["error_kinds"])
    print(f"replayed {checked} games from their move logs: {bad} differ from their stored state")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 1 if bad or tally.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
