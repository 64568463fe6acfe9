"""Group commit for socket moves: the recorder stores many games' moves with one statement.

Each event loop (one per server process) has one writer. Moves queue while the batch before
them commits; the next batch takes them all, one per game, and hands them to
`recorder.record_moves`, the one function that stores moves, which writes them in a single
statement that is its own transaction (`move_store.write`). The batch runs in the writer's own
thread, on that thread's Django connection (Django's settings, from the process's pool): the
event loop never waits on the database. A move is applied only where its game is still at the
seq the move was worked out from (and unfinished), so a move stored by another tab, server or the
REST API in between makes this one miss; the caller then takes the locked path. One commit, one
WAL flush, covers the whole batch: that is what lets a process store thousands of moves a second,
each durable before it is acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar
from uuid import UUID

from django.db import DatabaseError, OperationalError, connection

from tripeaks.infra.loop_local import PerLoop
from tripeaks.infra.socket_outage import UNAVAILABLE
from tripeaks.play import recorder
from tripeaks.play.errors import PlayError
from tripeaks.play.models import Game
from tripeaks.play.steps import Step

log = logging.getLogger("tripeaks.events")

MAX_BATCH = 500


class StoreUnavailable(PlayError):
    """PostgreSQL could not be reached; whether the move was stored is for a retry to find out."""

    status_code = 503
    code = "unavailable"


@dataclass
class _Waiting:
    game: Game
    step: Step
    future: asyncio.Future[Game | None]


R = TypeVar("R")


@dataclass
class _Job(Generic[R]):
    call: Callable[[], R]
    future: asyncio.Future[R]


class WriterThread:
    """The writer's one thread, fed by a queue: a batch goes over with a put and comes back with
    one `call_soon_threadsafe` (through `run_in_executor`, with its executor's and its chained
    futures, each hand-off cost some 30 us of CPU; this way 18, in one process on uvloop). Its
    Django connection is the writer's, taken from the pool once. Its results go to `loop`'s
    futures."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._jobs: queue.SimpleQueue[_Job[object] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="move-writer", daemon=True)
        self._thread.start()

    def run(self, call: Callable[[], R]) -> asyncio.Future[R]:
        """`call` in the thread: its result (or its exception) on the loop's future."""
        future: asyncio.Future[R] = self._loop.create_future()
        self._jobs.put(_Job(call, future))  # type: ignore[arg-type]
        return future

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                result = job.call()
            except BaseException as error:  # noqa: BLE001 (handed to the waiting coroutine)
                _settle(job.future, None, error)
            else:
                _settle(job.future, result, None)
        connection.close()  # `connection` is this thread's own

    def stop(self, timeout: float) -> None:
        """Give the thread's connection back and end the thread (from any thread)."""
        self._jobs.put(None)
        self._thread.join(timeout)


def _settle(future: asyncio.Future[R], result: R | None, error: BaseException | None) -> None:
    def settle() -> None:
        if future.done():  # its waiter was cancelled
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
        future.get_loop().call_soon_threadsafe(settle)


class MoveWriter:
    """The running loop's writer (`writer()`), made on that loop, which it keeps for its futures
    and task (on Python 3.11 every `asyncio.get_running_loop()` is a `getpid` system call)."""

    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._queue: deque[_Waiting] = deque()
        self._draining: asyncio.Task[None] | None = None
        self._thread = WriterThread(self._loop)
        self._backend_pid: int | None = None
        self.batches_written = 0

    async def store(self, game: Game, step: Step) -> Game | None:
        """Store `step` (worked out on `game`) durably: the game as it now stands once committed,
        None if its row is no longer at the step's seq. A step that ends its game is not for a
        batch: its result is recorded under the game's lock (`services.finish_copy`)."""
        if step.finishes:
            raise ValueError("a game-ending step is stored with its result, not in a batch")
        future: asyncio.Future[Game | None] = self._loop.create_future()
        self._queue.append(_Waiting(game, step, future))
        if self._draining is None or self._draining.done():
            self._draining = self._loop.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._queue:
            batch = self._take_batch()
            moves = [(waiting.game, waiting.step) for waiting in batch]
            try:
                recorded = await self._thread.run(functools.partial(self._write_retrying, moves))
            except Exception as error:  # whatever it was, no waiting move may hang
                log.warning("could not store a batch of moves", exc_info=True)
                failure = StoreUnavailable(UNAVAILABLE)
                failure.__cause__ = error
                for waiting in batch:
                    if not waiting.future.done():
                        waiting.future.set_exception(failure)
                continue
            self.batches_written += 1
            for waiting, stored in zip(batch, recorded, strict=True):
                if not waiting.future.done():
                    waiting.future.set_result(None if stored is None else stored.game)

    def _write_retrying(self, moves: list[tuple[Game, Step]]) -> list[recorder.Recorded | None]:
        """In the writer's thread. One retry on a new connection: the seq guard makes a batch
        that did commit before its connection broke miss the second time, so nothing is stored
        twice."""
        try:
            return self._write(moves)
        except OperationalError:
            connection.close()
        try:
            return self._write(moves)
        except DatabaseError:
            connection.close()
            raise

    def _write(self, moves: list[tuple[Game, Step]]) -> list[recorder.Recorded | None]:
        recorded = recorder.record_moves(moves)
        raw = connection.connection
        self._backend_pid = None if raw is None else raw.info.backend_pid
        return recorded

    def _take_batch(self) -> list[_Waiting]:
        """The oldest moves, at most one per game: a second move on a game waits for the next
        batch, where the seq check sees the first one."""
        batch: list[_Waiting] = []
        games: set[UUID] = set()
        later: list[_Waiting] = []
        while self._queue and len(batch) < MAX_BATCH:
            waiting = self._queue.popleft()
            if waiting.game.pk in games:
                later.append(waiting)
            else:
                games.add(waiting.game.pk)
                batch.append(waiting)
        self._queue.extendleft(reversed(later))
        return batch

    @property
    def backend_pid(self) -> int | None:
        """The PostgreSQL backend that served this writer's last batch."""
        return self._backend_pid

    def close_now(self) -> None:
        """Give the thread's connection back and end the thread (from outside its loop, which
        may be gone)."""
        self._thread.stop(timeout=10)


_writers = PerLoop(MoveWriter, close=MoveWriter.close_now)


def writer() -> MoveWriter:
    """The running loop's writer (a writer of a loop that has closed is closed as one is made)."""
    return _writers.get()


def close_all() -> None:
    """Close every writer's connection (tests, before their database goes away)."""
    _writers.clear()
