"""A race's first seconds, in one process: what a race socket's opening and a race's start cost.

    .venv/bin/python -m bench.race_opening [--races 25] [--rounds 3] [--calls]

It makes its own PostgreSQL database (tripeaks_bench_race_opening, or `BENCH_DATABASE_URL`) and
uses Redis database 5 (or `BENCH_REDIS_URL`), opens `--races` races of 4 (their countdowns
begun), then, each round: opens every racer's race socket through the whole socket stack
(Channels' test communicator on the real application, a real session cookie), one after
another, and closes them; then begins each race as a socket's timer does
(`advance_race_clock(wait=False)`, its broadcast after the commit included). Printed per open and
per start: this process's CPU (every thread's: the event loop's and the worker threads'), the
worker-thread hops (connections taken) and the SQL statements; with `--calls`, the Python and C
function calls a start makes (counted by a profile hook, which slows the starts: read the CPU of
a run without it). The counts do not depend on the machine's load; the CPU does less than a wall
clock (the machine's other work slows caches).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.database import create_migrated_database
from bench.play_load import ROOT, bench_env, make_players
from bench.race_load import SEATS, open_races

BENCH_DB = "tripeaks_bench_race_opening"


@dataclass
class Work:
    """Connections taken (worker-thread hops) and statements run, on any thread."""

    hops: int = 0
    statements: int = 0
    wrapped: list[Any] = field(default_factory=list)

    def __enter__(self) -> Work:
        from django.db.backends.signals import connection_created

        connection_created.connect(self._taken)
        return self

    def __exit__(self, *exc: object) -> None:
        from django.db.backends.signals import connection_created

        connection_created.disconnect(self._taken)
        for connection in self.wrapped:
            connection.execute_wrappers.remove(self._count)

    def _count(self, execute: Callable[..., Any], *args: Any) -> Any:
        self.statements += 1
        return execute(*args)

    def _taken(self, sender: object, connection: Any, **kwargs: object) -> None:
        self.hops += 1
        self.watch(connection)

    def watch(self, connection: Any) -> None:
        if self._count not in connection.execute_wrappers:
            connection.execute_wrappers.append(self._count)
            self.wrapped.append(connection)


async def signed_in_socket(application: Any, path: str, session: str) -> Any:
    """A socket of `path` opened through the whole `application` with `session`'s cookie (a
    Channels `WebsocketCommunicator`, connected)."""
    from channels.testing import WebsocketCommunicator

    socket = WebsocketCommunicator(
        application,
        path,
        headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", f"sessionid={session}".encode())],
    )
    connected, _ = await socket.connect(timeout=30)
    assert connected, f"{path} refused the socket"
    return socket


async def open_sockets(races: list[str], sessions: list[str]) -> tuple[float, Work]:
    """Every racer's race socket opened (its first frame received), one after another; CPU."""
    from tripeaks.config.asgi import application

    sockets = []
    with Work() as work:
        began = time.process_time()
        for i, session in enumerate(sessions):
            socket = await signed_in_socket(application, f"/ws/races/{races[i // SEATS]}/", session)
            await socket.receive_from(timeout=30)
            sockets.append(socket)
        used = time.process_time() - began
    for socket in sockets:
        await socket.disconnect()
    return used, work


class Calls:
    """Python and C function calls made on this thread meanwhile (`sys.setprofile`): a count the
    machine's load does not move, unlike the CPU time (which the profiling itself inflates)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled, self.count = enabled, 0

    def _called(self, frame: object, event: str, arg: object) -> None:
        if event in ("call", "c_call"):
            self.count += 1

    def __enter__(self) -> Calls:
        if self.enabled:
            sys.setprofile(self._called)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            sys.setprofile(None)


def start_races(races: list[str], calls: Calls | None = None) -> tuple[float, Work]:
    """Each race begun as a socket's timer begins it, its broadcast included; CPU (and, with
    `calls`, the function calls made)."""
    from django.db import connection
    from django.utils import timezone

    from tripeaks.races import clock
    from tripeaks.races.models import Race

    Race.objects.filter(pk__in=races).update(starts_at=timezone.now())
    with Work() as work, calls or Calls(False):
        work.watch(connection)
        began = time.process_time()
        for race_id in races:
            assert clock.advance_race_clock(race_id=race_id, wait=False)
        used = time.process_time() - began
    return used, work


def reset(races: list[str]) -> None:
    """The races in their countdown, their games gone, and their start an hour away (no socket's
    timer begins them while they open): the next round begins them again."""
    from datetime import timedelta

    from django.utils import timezone

    from tripeaks.play.models import Game
    from tripeaks.races.models import Race, Seat

    games = list(Seat.objects.filter(race_id__in=races).values_list("game_id", flat=True))
    Seat.objects.filter(race_id__in=races).update(game=None, status="waiting")
    Game.objects.filter(pk__in=[game for game in games if game]).delete()
    later = timezone.now() + timedelta(hours=1)
    Race.objects.filter(pk__in=races).update(state="countdown", starts_at=later, ends_at=None)


def set_up_django(bench_db: str) -> None:
    """This process's Django on a migrated database of the bench's own (`BENCH_DATABASE_URL`, else
    `bench_db` on the local server), with the bench's settings and an empty cache."""
    env = bench_env()
    env["DATABASE_URL"] = os.environ.get(
        "BENCH_DATABASE_URL", f"postgres://postgres@127.0.0.1:5432/{bench_db}"
    )
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    create_migrated_database(env["DATABASE_URL"], env)
    import django

    django.setup()
    from django.core.cache import cache

    cache.clear()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--races", type=int, default=25)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--calls", action="store_true", help="count the starts' function calls (slows them)"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.races <= 100 or not 1 <= args.rounds <= 10:
        parser.error("keep it bounded: 1-100 races, 1-10 rounds")
    set_up_django(BENCH_DB)
    from django.db import close_old_connections

    count = args.races * SEATS
    sessions = [session for session, _token in make_players(count, "opener")]
    races = open_races([f"opener{i}" for i in range(count)], 60.0)
    reset(races)
    close_old_connections()
    print(f"race_opening: {args.races} races of {SEATS}, load average {os.getloadavg()[0]:.1f}")
    for round_ in range(1, args.rounds + 1):
        opened, opens = asyncio.run(open_sockets(races, sessions))
        calls = Calls(args.calls)
        started, starts = start_races(races, calls)
        reset(races)
        print(
            f"round {round_}: a race socket's opening {opened / count * 1000:.2f} ms of CPU, "
            f"{opens.hops / count:.2f} hops, {opens.statements / count:.2f} statements; a start "
            f"{started / args.races * 1000:.2f} ms of CPU, {starts.hops / args.races:.2f} hops, "
            f"{starts.statements / args.races:.2f} statements"
            + (f", {calls.count / args.races:.0f} function calls" if args.calls else "")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
