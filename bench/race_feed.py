"""What a race move's news costs the servers' CPU, alone: `python -m bench.race_feed [--moves 4000]`.

A race move's progress beyond the move itself (issue #37 item 3), in two processes on the real
Redis (`BENCH_REDIS_URL`, default database 5): the mover's server (2 race sockets of the race,
`contest_feed.publish` every `--gap` seconds, as a game socket's move does) and another server
(2 race sockets, hearing it through Redis). Each race socket is a real `RaceConsumer` writing its
frames through Uvicorn's websockets-sansio protocol to a TCP connection. Printed: each process's
CPU a move (the mover's less a loop that only sleeps as often). The bench `race_load` measures
the same inside the whole race (its race / solo ratio), where a run's noise on a shared machine
is larger than the news's share; this measures the news alone, so two trees can be compared
side by side (alternate them: only figures of one sitting compare).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import time
from multiprocessing.synchronize import Event
from typing import Any

import uvloop

from bench.play_load import bench_env

CONTEST = f"race-feed-bench-{os.getpid()}"


async def no_app(scope: Any, receive: Any, send: Any) -> None:
    """The sockets here are driven by hand: Uvicorn's protocol needs an application, unused."""


async def race_sockets(first: int, count: int) -> list[Any]:
    """`count` race sockets of one race (players `first`...), each writing to a TCP sink."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState
    from websockets.protocol import State

    from tripeaks.infra import contest_feed
    from tripeaks.races import consumers
    from tripeaks.stack.socket_denial import DenialCompletesHandshake

    loop = asyncio.get_running_loop()
    server = await loop.create_server(asyncio.Protocol, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    config = Config(app=no_app, ws=DenialCompletesHandshake, ws_ping_interval=None)
    config.load()
    players = [
        {"username": f"racer{j}", "status": "playing", "seq": 0, "cards_left": 28,
         "stock_left": 23, "streak": 0, "moves": 0, "time_ms": 0}
        for j in range(4)
    ]  # fmt: skip
    made = []
    for i in range(first, first + count):
        transport, _ = await loop.create_connection(asyncio.Protocol, "127.0.0.1", port)
        protocol = DenialCompletesHandshake(config, ServerState(), {})
        protocol.transport, protocol.handshake_complete = transport, True
        protocol.conn.state = State.OPEN
        socket = consumers.RaceConsumer()
        socket.scope = {"user": type("User", (), {"pk": i + 1})(), "url_route": {"kwargs": {}}}
        socket.base_send = protocol.send
        socket.users = {str(j + 1): f"racer{j}" for j in range(4)}
        socket.frame = {"state": "running", "version": 3, "players": [dict(p) for p in players]}
        socket.cap_at = time.time() + 3600
        await contest_feed.listen(CONTEST, socket.news)
        made.append(socket)
    return made


def other_server(ready: Event, go: Event, done: Event, out: Any) -> None:
    async def main() -> None:
        await race_sockets(2, 2)
        ready.set()
        while not go.is_set():
            await asyncio.sleep(0.001)
        start = time.process_time()
        while not done.is_set():
            await asyncio.sleep(0.05)
        out.put(time.process_time() - start)

    uvloop.run(main())


async def mover(
    moves: int, gap: float, ready: Event, go: Event, done: Event
) -> tuple[float, float]:
    from tripeaks.infra import contest_feed

    await race_sockets(0, 2)
    await asyncio.to_thread(ready.wait)
    news = {"game": "g", "status": "playing", "cards_left": 20, "stock_left": 10, "streak": 2,
            "time_ms": 1234, "finished": False, "stored_at": int(time.time() * 1000)}  # fmt: skip
    go.set()
    start = time.process_time()
    for i in range(moves):
        contest_feed.publish(CONTEST, {**news, "player": 1 + i % 4, "seq": i // 4 + 1, "moves": i})
        await asyncio.sleep(gap)
    await asyncio.sleep(0.5)
    used = time.process_time() - start
    done.set()
    start = time.process_time()
    for _ in range(moves):
        await asyncio.sleep(gap)
    await asyncio.sleep(0.5)
    return used, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.race_feed", description=__doc__)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--gap", type=float, default=0.002, help="seconds between moves")
    args = parser.parse_args()
    env = bench_env()
    env["DEBUG"] = "1"  # no database here: the settings' production checks are not the point
    os.environ.update(env)
    import django

    django.setup()
    context = multiprocessing.get_context("fork")
    ready, go, done, out = context.Event(), context.Event(), context.Event(), context.Queue()
    other = context.Process(target=other_server, args=(ready, go, done, out))
    other.start()
    used, idle = uvloop.run(mover(args.moves, args.gap, ready, go, done))
    there = out.get(timeout=30)
    other.join(10)
    print(
        f"a race move's news, {args.moves} moves, one every {args.gap * 1000:g} ms, 2 race sockets "
        f"on each server: the mover's server {(used - idle) / args.moves * 1e6:.1f} us a move "
        f"(less a loop sleeping as often: {idle / args.moves * 1e6:.1f} us), the other server "
        f"{there / args.moves * 1e6:.1f} us; load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
