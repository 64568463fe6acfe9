"""Race load benchmark: players race in 4-player races over WebSocket against real servers.

    .venv/bin/python -m bench.race_load [--players 40] [--cap 20] [--servers 2] [--rate 5]

It makes its own PostgreSQL database (tripeaks_bench_race, or `BENCH_DATABASE_URL`) and uses
Redis database 5 (or `BENCH_REDIS_URL`), starts `--servers` server processes (Uvicorn, as
bench/play_load.py does) and seats `--players` players in races of 4, each race's players spread
over the servers (so every race's progress crosses servers through Redis). Each player opens the
race socket (/ws/races/{id}/) and, at the start instant, its game socket, and plays random legal
moves at `--rate` a second until the race ends (someone clears, or the `--cap` ends it). Measured:
the move round trip (sent -> the stored view back) and the progress latency (a move sent -> each
opponent's race socket showing it), p50/p99. First one race of 4 runs alone: the baseline the
figures are compared with. Afterwards it checks every race finished with places and every game
replays to its stored state.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from bench.play_load import (
    ROOT,
    bench_env,
    choose,
    create_database,
    make_players,
    percentile,
    start_servers,
    stop_servers,
    verify_replays,
)

BENCH_DB = "tripeaks_bench_race"
SEATS = 4
# Issue #19's goals: a move's round trip p99 < 50 ms, its progress at the opponents p99 < 100 ms.
GOAL_P99_MS = {"move round trip": 50.0, "progress": 100.0}


@dataclass
class Tally:
    moves: list[float] = field(default_factory=list)
    progress: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: set[str] = field(default_factory=set)
    races: set[str] = field(default_factory=set)
    # (username, seq) -> when the move that made that seq was sent (this process's clock)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)


def open_races(players: list[tuple[str, str]], names: list[str], cap_s: float) -> list[str]:
    """(In this process.) Races of 4, each with a proven deal, their countdowns begun."""
    from django.contrib.auth import get_user_model

    from tripeaks.engine.rules import Rules
    from tripeaks.play.deals import make_random_deal
    from tripeaks.races import services

    users = {user.username: user for user in get_user_model().objects.filter(username__in=names)}
    races = []
    for start in range(0, len(names) - len(names) % SEATS, SEATS):
        group = [users[name] for name in names[start : start + SEATS]]
        make_random_deal(Rules(), "classic", claimed=False)  # the pool the countdown claims from
        race = services.create_race(host=group[0], rules=Rules(), seats=SEATS, cap_s=cap_s)
        for user in group[1:]:
            services.join_race(race_id=race.pk, user=user)
        races.append(str(race.pk))
    return races


async def racer(
    port: int, session: str, name: str, race_id: str, rate: float, tally: Tally, seed: int
) -> None:
    import websockets

    chooser = random.Random(seed)
    headers = {"Cookie": f"sessionid={session}", "Origin": f"http://127.0.0.1:{port}"}
    base = f"ws://127.0.0.1:{port}"
    seen: dict[str, int] = {}
    started = asyncio.Event()
    game_id: list[str] = []
    over = asyncio.Event()

    async def watch(race_socket: Any) -> None:
        async for text in race_socket:
            frame = json.loads(text)
            if frame.get("type") != "race":
                continue
            race = frame["race"]
            now = time.monotonic()
            for line in race["players"]:
                other, seq = line["username"], line["seq"]
                if other == name or seq is None or seq <= seen.get(other, 0):
                    continue
                for s in range(seen.get(other, 0) + 1, seq + 1):
                    at = tally.sent.get((other, s))
                    if at is not None:
                        tally.progress.append((now - at) * 1000)
                seen[other] = seq
            if race["game"] and not game_id:
                game_id.append(race["game"])
                started.set()
            if race["state"] == "finished":
                over.set()
                return

    async with websockets.connect(
        f"{base}/ws/races/{race_id}/", additional_headers=headers
    ) as race_socket:
        watcher = asyncio.ensure_future(watch(race_socket))
        await asyncio.wait_for(started.wait(), 30)
        tally.games.add(game_id[0])
        async with websockets.connect(
            f"{base}/ws/games/{game_id[0]}/", additional_headers=headers
        ) as game_socket:
            view = json.loads(await game_socket.recv())["game"]
            while not over.is_set() and view["status"] in ("playing", "stuck"):
                move = choose(view, chooser)
                if move["action"] == "resign":
                    break  # nothing to do but wait for the race's end
                tally.sent[(name, view["seq"] + 1)] = sent = time.monotonic()
                await game_socket.send(json.dumps({"seq": view["seq"], **move}))
                reply = json.loads(await asyncio.wait_for(game_socket.recv(), 15))
                if reply.get("type") != "view":
                    tally.errors.append(str(reply.get("code")))
                    view = reply.get("game") or view
                    continue
                tally.moves.append((time.monotonic() - sent) * 1000)
                view = reply["game"]
                if rate:
                    await asyncio.sleep(1 / rate)
        await asyncio.wait_for(over.wait(), 120)
        await watcher


async def run(
    players: list[tuple[str, str]],
    names: list[str],
    races: list[str],
    ports: list[int],
    rate: float,
) -> tuple[Tally, float]:
    tally = Tally(races=set(races))
    started = time.monotonic()
    jobs = []
    for i, ((session, _token), name) in enumerate(zip(players, names, strict=True)):
        race_id = races[i // SEATS]
        jobs.append(racer(ports[i % len(ports)], session, name, race_id, rate, tally, i))
    outcomes = await asyncio.gather(*jobs, return_exceptions=True)
    tally.errors += [f"{type(o).__name__}: {o}" for o in outcomes if isinstance(o, BaseException)]
    return tally, time.monotonic() - started


def check_races(races: set[str]) -> tuple[int, int]:
    """(races finished with every player placed, races not)."""
    from tripeaks.races.models import Race

    good = bad = 0
    for race in Race.objects.filter(pk__in=races).prefetch_related("entries"):
        placed = all(seat.place for seat in race.entries.all() if seat.game_id)
        if race.state == "finished" and placed:
            good += 1
        else:
            bad += 1
    return good, bad


def report(label: str, tally: Tally, elapsed: float) -> None:
    print(
        f"{label:>12}: {len(tally.moves)} moves in {elapsed:.1f} s; move round trip "
        f"p50 {percentile(tally.moves, 0.5):.1f} ms, p99 {percentile(tally.moves, 0.99):.1f} ms; "
        f"progress to the opponents' race sockets ({len(tally.progress)} seen) "
        f"p50 {percentile(tally.progress, 0.5):.1f} ms, p99 {percentile(tally.progress, 0.99):.1f} ms; "
        f"errors {len(tally.errors)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=40, help="a multiple of 4")
    parser.add_argument("--cap", type=float, default=20.0, help="each race's time cap, seconds")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--rate", type=float, default=5.0, help="moves a second each player")
    parser.add_argument("--port", type=int, default=18700)
    args = parser.parse_args(argv)
    if not SEATS <= args.players <= 400 or args.players % SEATS or not 1 <= args.servers <= 8:
        parser.error("keep it bounded: 4-400 players (a multiple of 4), 1-8 servers")
    if not 1 <= args.cap <= 600 or not 0 <= args.rate <= 100:
        parser.error("keep it bounded: a cap of 1-600 s, a rate of 0-100")

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    env = bench_env()
    env["DATABASE_URL"] = os.environ.get(
        "BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{BENCH_DB}"
    )
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    create_database(env["DATABASE_URL"])
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    from django.core.cache import cache

    cache.clear()
    names = [f"racer{i}" for i in range(args.players + SEATS)]
    players = make_players(args.players + SEATS, "racer")
    ports = [args.port + i for i in range(args.servers)]
    servers = start_servers(args.servers, args.port, env)
    try:
        baseline_races = open_races(players[:SEATS], names[:SEATS], args.cap)
        baseline, baseline_elapsed = asyncio.run(
            run(players[:SEATS], names[:SEATS], baseline_races, ports, args.rate)
        )
        races = open_races(players[SEATS:], names[SEATS:], args.cap)
        tally, elapsed = asyncio.run(run(players[SEATS:], names[SEATS:], races, ports, args.rate))
    finally:
        stop_servers(servers)
        from tripeaks.config.celery import app as celery_app

        celery_app.control.purge()
    print(
        f"TriPeaks race load: {args.players} players in {args.players // SEATS} races of {SEATS}, "
        f"{args.servers} Uvicorn servers, {os.cpu_count()} cores, loopback; {args.rate:g} moves/s "
        f"each, cap {args.cap:g} s"
    )
    report("1 race", baseline, baseline_elapsed)
    report(f"{args.players // SEATS} races", tally, elapsed)
    for what, values, base in (
        ("move round trip", tally.moves, baseline.moves),
        ("progress", tally.progress, baseline.progress),
    ):
        p99, base_p99, goal = percentile(values, 0.99), percentile(base, 0.99), GOAL_P99_MS[what]
        print(
            f"{what} p99 vs 1 race: {p99 / base_p99:.2f}x; vs goal {goal:.0f} ms: "
            f"{p99 / goal:.2f}x (below 1 meets it)"
        )
    if tally.errors or baseline.errors:
        print("errors:", sorted(set(tally.errors + baseline.errors))[:5])
    good, bad = check_races(tally.races | baseline.races)
    print(f"races finished with every player placed: {good}; not: {bad}")
    checked, differ = verify_replays(tally.games | baseline.games)
    print(f"replayed {checked} games from their move logs: {differ} differ from their stored state")
    return 1 if bad or differ or not tally.progress else 0


if __name__ == "__main__":
    raise SystemExit(main())
