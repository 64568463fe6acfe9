"""The flood guard's cost a socket frame, in one process (issue #37, item 4).

    .venv/bin/python -m bench.frame_rates [--sockets 1,8] [--frames 400] [--rounds 3]
                                          [--rates 1000000/s,1000000/s]

Each socket is a player of its own behind one address (as bench/play_load.py's are) and sends
`--frames` frames, one after the other, as fast as the guard admits them, the sockets side by side
on one event loop (uvloop, as the servers run): `throttle_async.FloodGuard.admit` against the
player's and the address's move rates (`--rates`, default the play bench's: none refused). Printed
for each number of sockets: the process's CPU a frame admitted (the Redis server's own is not in
it), the Redis script calls a frame and the frames refused, the median over the rounds, with the
machine's load average. Redis: `BENCH_REDIS_URL` (default database 5, as the play bench's); each
round's players and address are new (windows of their own). The branch and its base run this same
file in turn (copy it into the base's tree): only figures of one sitting compare.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import time
from typing import Any

import uvloop


class Socket:
    """A socket the guard may refuse: its refusals are only counted."""

    refused = 0

    async def send(self, text_data: str) -> None:
        Socket.refused += 1

    async def close(self, code: int) -> None:
        Socket.refused += 1


async def round_of(sockets: int, frames: int) -> tuple[float, int, int]:
    """CPU seconds, script calls and frames admitted of one round."""
    from tripeaks.infra import redis_client, throttle_async, throttling

    client, calls = redis_client.async_client(), [0]
    evalsha = client.evalsha

    async def counted(*args: Any) -> Any:
        calls[0] += 1
        return await evalsha(*args)

    client.evalsha = counted  # type: ignore[method-assign]
    address = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250)}"
    tag = secrets.token_hex(4)

    async def play(n: int) -> int:
        limits = throttling.play_limits("move", user_id=f"{tag}-{n}", address=address)
        guard, socket = throttle_async.FloodGuard(10**9), Socket()
        return sum([await guard.admit(socket, limits) for _ in range(frames)])  # type: ignore[arg-type]

    start = time.process_time()
    admitted = sum(await asyncio.gather(*(play(n) for n in range(sockets))))
    used = time.process_time() - start
    client.evalsha = evalsha  # type: ignore[method-assign]
    return used, calls[0], admitted


async def rounds_of(sockets: int, frames: int, rounds: int) -> list[tuple[float, int, int]]:
    """`rounds` rounds on one event loop, after one that opens its Redis connections."""
    await round_of(sockets, 10)
    return [await round_of(sockets, frames) for _ in range(rounds)]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.frame_rates", description=__doc__)
    parser.add_argument("--sockets", default="1,8")
    parser.add_argument("--frames", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rates", default="1000000/s,1000000/s")
    args = parser.parse_args()
    player, address = args.rates.split(",")
    os.environ.update(
        REDIS_URL=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5"),
        DEBUG="1",  # no database here: the settings' production checks are not the point
        THROTTLE_MOVES=player,
        THROTTLE_MOVES_ADDRESS=address,
        DJANGO_SETTINGS_MODULE="tripeaks.config.settings",
    )
    import django

    django.setup()
    for sockets in (int(n) for n in args.sockets.split(",")):
        rounds = uvloop.run(rounds_of(sockets, args.frames, args.rounds))
        frames = sockets * args.frames
        cpu = statistics.median(used / max(1, admitted) for used, _, admitted in rounds)
        calls = statistics.median(n / frames for _, n, _ in rounds)
        refused = statistics.median(frames - admitted for _, _, admitted in rounds)
        print(
            f"{sockets} socket(s), {args.frames} frames each: {cpu * 1e6:.1f} us of CPU a frame "
            f"admitted, {calls:.3f} Redis calls a frame, {refused:g} refused; "
            f"load average {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
