"""A server's racers at their races: every open race socket's racer noted together.

A race socket notes its player as at their race (`presence.seen`) when it opens, when it closes,
and every `presence.every_s()` while it is open and its player races in it. Each socket kept a
timer of its own for that, and each turn was a worker thread and a Redis round trip: at 1 move
a second a player, one call for every ten moves, 5 % of a race server's CPU (a py-spy of
`bench.race_load`, bench/README.md). Here one task an event loop notes every racer of its open
race sockets in one round trip (`presence.seen_all`), every `presence.every_s()`: as often as
before, for each of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass

from tripeaks.infra.loop_local import PerLoop
from tripeaks.infra.socket_threads import in_a_thread
from tripeaks.races import presence

log = logging.getLogger("tripeaks.events")


@dataclass(frozen=True)
class Racer:
    race_id: str
    user_id: int
    racing: Callable[[], bool]  # does the socket's player race in it now?


@in_a_thread
def _seen_all(racers: list[tuple[str, int]]) -> None:
    try:
        presence.seen_all(racers)
    except Exception:  # best-effort: an absence is claimed only on the server's word
        log.warning("could not note racers as here", exc_info=True)


class _Here:
    """One event loop's race sockets (by socket) and the task that notes their racers."""

    def __init__(self) -> None:
        self.sockets: dict[object, Racer] = {}
        self.task: asyncio.Task[None] | None = None

    async def note(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while self.sockets:
                await asyncio.sleep(presence.every_s())
                due = [(r.race_id, r.user_id) for r in list(self.sockets.values()) if r.racing()]
                if due:
                    await _seen_all(due)


_here = PerLoop(_Here)


async def opened(socket: object, racer: Racer) -> None:
    """`socket` is open: its racer is noted now if racing, and with the others from now on."""
    here = _here.get()
    here.sockets[socket] = racer
    if here.task is None or here.task.done():
        here.task = asyncio.ensure_future(here.note())
    if racer.racing():
        await _seen_all([(racer.race_id, racer.user_id)])


async def closed(socket: object) -> None:
    """`socket` closed: its racer is noted once more if racing (the absence counts from now),
    then no more."""
    here = _here.get()
    racer = here.sockets.pop(socket, None)
    if not here.sockets and here.task is not None:
        here.task.cancel()  # nobody left to note: no timer runs for nobody
        here.task = None
    if racer is not None and racer.racing():
        await _seen_all([(racer.race_id, racer.user_id)])
