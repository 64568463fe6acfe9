"""What a socket message costs the server before any game: the bare echo against the same echo
behind the game sockets' dispatch and behind Channels' own consumer, side by side in one run.

    .venv/bin/python -m bench.socket_floor [--sockets 200] [--seconds 15] [--rounds 2]

Each echo (bench/echo_server.py: `bare`, `direct`, `channels`) runs in a server process of its
own on the game servers' Uvicorn options; `--sockets` sockets each send a move's frame and wait
for it back, with no pause, for `--seconds` (bench/play_load.py's echo players). The report gives
the server's CPU a message and each against the bare echo of the same round: the floor under
issue #37's ratio (a move against the bare echo), which the stack's Channels sits on.
The consumers' channel layer is the project's (its Redis: `BENCH_REDIS_URL`).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys

from bench.play_load import bench_env, cpu_seconds, run_echo, start_echo_server, stop_servers

APPS = ("bare", "direct", "channels")


def measure(
    app: str, sockets: int, seconds: float, port: int, env: dict[str, str]
) -> tuple[int, float]:
    """The messages `app`'s echo sent back and the server's CPU seconds a message."""
    server = start_echo_server(port, env, app)
    try:
        tally, _, cpu = asyncio.run(
            run_echo(sockets, port, seconds, lambda: cpu_seconds(server.pid))
        )
    finally:
        stop_servers([server])
    if not tally.moves_in_all:
        raise SystemExit(f"the {app} echo sent nothing back")
    return tally.moves_in_all, cpu / tally.moves_in_all


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.socket_floor", description=__doc__)
    parser.add_argument("--sockets", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--port", type=int, default=18690)
    args = parser.parse_args(argv)
    if not (1 <= args.sockets <= 1000 and 0.5 <= args.seconds <= 60 and 1 <= args.rounds <= 5):
        parser.error("sockets 1-1000, seconds 0.5-60, rounds 1-5")
    env = bench_env()
    ratios: dict[str, list[float]] = {app: [] for app in APPS[1:]}
    for round_ in range(1, args.rounds + 1):
        bare = 0.0
        for app in APPS:
            messages, cost = measure(app, args.sockets, args.seconds, args.port, env)
            line = (
                f"round {round_}, {app} echo, {args.sockets} sockets: {messages} messages,"
                f" {cost * 1000:.4f} ms of server CPU a message"
            )
            if app == "bare":
                bare = cost
            else:
                ratios[app].append(cost / bare)
                line += f", {ratios[app][-1]:.2f}x the bare echo"
            print(line, flush=True)
    for app, values in ratios.items():
        median = statistics.median(values)
        print(f"{app} echo vs the bare echo, median of {len(values)} rounds: {median:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
