"""A game socket's opening, in one process: what each costs, counted where counts do not depend on
the machine's load.

    .venv/bin/python -m bench.game_opening [--players 50] [--rounds 3] [--profile] [--burst N]

It makes its own PostgreSQL database (tripeaks_bench_game_opening, or `BENCH_DATABASE_URL`) and a
Redis server of its own (or `BENCH_REDIS_URL`: then other users' commands count too), starts a
daily game for each of `--players` players, then, each round: opens every player's game socket
through the whole socket stack (Channels' test communicator on the real application, a real
session cookie), one after another, each until its first view, and closes them. Printed per
opening: this process's CPU (every thread's), the worker-thread hops (connections taken), the SQL
statements, the Redis commands (INFO commandstats, by command) and the channel-layer calls. The
first round opens games whose clocks run (just started), later rounds games whose clocks the
previous round's closing stopped (a page coming back). `--profile`: the Python function calls of
an opening (cProfile, the event loop's thread only), and the top functions by own time.
`--burst N`: each player opens N sockets on its game at once instead of one, as a flood's first
opens that its address's rate lets through (10) reach the consumer: those over the game's cap
(`SOCKETS_PER_GAME`) are closed 4409; the figures are then a burst's (a player's).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import os
import pstats
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bench.play_load import make_players
from bench.race_load import private_redis
from bench.race_opening import Work, set_up_django, signed_in_socket

BENCH_DB = "tripeaks_bench_game_opening"
LAYER_CALLS = ("group_add", "group_join", "group_discard", "group_send", "send")


@dataclass
class Opened:
    """What a round's openings cost: CPU seconds, database work, channel-layer calls by method,
    Redis round trips by first command, Redis commands by name (scripts' own included)."""

    cpu: float
    work: Work
    calls: Counter[str]
    trips: Counter[str]
    commands: Counter[str]


@contextlib.contextmanager
def own_redis() -> Iterator[str]:
    """`BENCH_REDIS_URL`, or a Redis server of the bench's own for the while."""
    if os.environ.get("BENCH_REDIS_URL"):
        yield os.environ["BENCH_REDIS_URL"]
        return
    with private_redis() as url:
        yield url


def redis_commands(url: str) -> Counter[str]:
    """Every command the server has run so far, by name (INFO commandstats)."""
    import redis

    stats = redis.Redis.from_url(url).info("commandstats")
    return Counter({name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()})


@contextlib.contextmanager
def layer_calls() -> Iterator[Counter[str]]:
    """The channel layer's calls meanwhile, by method."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    calls: Counter[str] = Counter()
    # (`group_join`: the project's layer's, where it has one.)
    originals = {name: getattr(layer, name) for name in LAYER_CALLS if hasattr(layer, name)}

    inside: list[str] = []  # (a call the layer makes of its own: not counted again)

    def counted(name: str) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            if not inside:
                calls[name] += 1
            inside.append(name)
            try:
                return await originals[name](*args, **kwargs)
            finally:
                inside.pop()

        return call

    for name in originals:
        setattr(layer, name, counted(name))
    try:
        yield calls
    finally:
        for name in originals:
            delattr(layer, name)


@contextlib.contextmanager
def round_trips() -> Iterator[Counter[str]]:
    """Commands (or pipelines, or scripts) sent to Redis meanwhile from this process, each a
    round trip, by its first command's name."""
    from redis import connection
    from redis.asyncio import connection as async_connection

    trips: Counter[str] = Counter()

    def name(command: Any) -> str:
        packed = command if isinstance(command, bytes | str) else b"".join(command)
        packed = packed.encode() if isinstance(packed, str) else packed
        return packed.split(b"\r\n")[2].decode().lower()

    sync_send = connection.AbstractConnection.send_packed_command
    async_send = async_connection.AbstractConnection.send_packed_command

    def counted(self: Any, command: Any, check_health: bool = True) -> Any:
        trips[name(command)] += 1
        return sync_send(self, command, check_health)

    async def async_counted(self: Any, command: Any, check_health: bool = True) -> Any:
        trips[name(command)] += 1
        return await async_send(self, command, check_health)

    connection.AbstractConnection.send_packed_command = counted  # type: ignore[method-assign]
    async_connection.AbstractConnection.send_packed_command = async_counted  # type: ignore[method-assign]
    try:
        yield trips
    finally:
        connection.AbstractConnection.send_packed_command = sync_send  # type: ignore[method-assign]
        async_connection.AbstractConnection.send_packed_command = async_send  # type: ignore[method-assign]


async def open_burst(application: Any, game: str, session: str, burst: int) -> list[Any]:
    """`burst` sockets of one player opened on its game at once, as a flood's first opens come:
    each until its first view or its close (over the game's cap: 4409). The open ones."""
    from channels.testing import WebsocketCommunicator

    sockets = [
        WebsocketCommunicator(
            application,
            f"/ws/games/{game}/",
            headers=[
                (b"origin", b"http://127.0.0.1"),
                (b"cookie", f"sessionid={session}".encode()),
            ],
        )
        for _ in range(burst)
    ]
    await asyncio.gather(*(socket.connect(timeout=30) for socket in sockets))
    answers = [await socket.receive_output(timeout=30) for socket in sockets]
    kept = [s for s, a in zip(sockets, answers, strict=True) if a["type"] == "websocket.send"]
    assert all(a.get("code") == 4409 for a in answers if a["type"] != "websocket.send"), answers
    return kept


async def open_sockets(
    games: list[str],
    sessions: list[str],
    redis_url: str,
    profile: cProfile.Profile | None,
    burst: int = 0,
) -> Opened:
    """Every player's game socket opened (its first view received), one after another: CPU,
    database work, channel-layer calls, Redis round trips and commands. Then closed. With
    `burst`, each player opens that many at once on its game (`open_burst`)."""
    from tripeaks.config.asgi import application

    sockets = []
    before = redis_commands(redis_url)
    with Work() as work, layer_calls() as calls, round_trips() as trips:
        began = time.process_time()
        if profile is not None:
            profile.enable()
        for game, session in zip(games, sessions, strict=True):
            if burst:
                sockets += await open_burst(application, game, session, burst)
                continue
            socket = await signed_in_socket(application, f"/ws/games/{game}/", session)
            assert '"view"' in await socket.receive_from(timeout=30)
            sockets.append(socket)
        if profile is not None:
            profile.disable()
        used = time.process_time() - began
    commands = redis_commands(redis_url) - before
    commands["info"] -= 1  # (this bench's own look)
    for socket in sockets:
        await socket.disconnect()
    return Opened(used, work, calls, trips, +commands)


def start_games(count: int) -> tuple[list[str], list[str]]:
    """Players with a signed-in session each, and a daily game each: (sessions, games)."""
    from django.contrib.auth import get_user_model

    from tripeaks.engine.rules import Rules
    from tripeaks.play import services

    sessions = [session for session, _token in make_players(count, "gameopener")]
    users = get_user_model().objects.filter(username__startswith="gameopener")
    by_name = {user.username: user for user in users}
    games = []
    for i in range(count):
        request = {"mode": "daily", "layout": "classic", "rules": Rules()}
        game = services.start_requested_game(by_name[f"gameopener{i}"], request)  # type: ignore[arg-type]
        games.append(str(game.pk))
    return sessions, games


def report_round(round_: int, count: int, opened: Opened, burst: int = 0) -> None:
    used, work, calls, commands = opened.cpu, opened.work, opened.calls, opened.commands
    clock = "running" if round_ == 1 else "stopped"
    what = f"a burst of {burst} opens" if burst else "a game socket's opening"
    print(
        f"round {round_} (clocks {clock}): {what} {used / count * 1000:.2f} ms "
        f"of CPU, {work.hops / count:.2f} hops, {work.statements / count:.2f} statements, "
        f"{sum(opened.trips.values()) / count:.2f} Redis round trips "
        f"({sum(commands.values()) / count:.2f} commands), "
        f"{sum(calls.values()) / count:.2f} channel-layer calls"
    )
    print("  trips: " + ", ".join(f"{k} {v / count:.2f}" for k, v in opened.trips.most_common()))
    print("  Redis: " + ", ".join(f"{k} {v / count:.2f}" for k, v in commands.most_common()))
    print("  layer: " + ", ".join(f"{k} {v / count:.2f}" for k, v in calls.most_common()))


def report_profile(profile: cProfile.Profile, count: int) -> None:
    stats = pstats.Stats(profile)
    calls = sum(entry[1] for entry in stats.stats.values())  # type: ignore[attr-defined]
    print(f"profile: {calls / count:.0f} Python function calls a player (event loop's thread)")
    stats.sort_stats("tottime").print_stats(15)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--burst",
        type=int,
        default=0,
        metavar="N",
        help="each player opens N sockets at once on its game (a flood's first opens that"
        " its address's rate lets through: those over the game's cap are closed 4409)",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.players <= 400 or not 1 <= args.rounds <= 10:
        parser.error("keep it bounded: 1-400 players, 1-10 rounds")
    with own_redis() as redis_url:
        os.environ["BENCH_REDIS_URL"] = redis_url
        set_up_django(BENCH_DB)
        from django.db import close_old_connections

        sessions, games = start_games(args.players)
        close_old_connections()
        print(f"game_opening: {args.players} players, load average {os.getloadavg()[0]:.1f}")
        for round_ in range(1, args.rounds + 1):
            profile = cProfile.Profile() if args.profile else None
            measured = asyncio.run(open_sockets(games, sessions, redis_url, profile, args.burst))
            report_round(round_, args.players, measured, args.burst)
            if profile is not None:
                report_profile(profile, args.players)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
