"""Group commit for socket moves: many games' moves stored by one PostgreSQL statement.

Each event loop (one per server process) has one writer with its own connection. Moves queue
while the batch before them commits; the next batch takes them all, one per game, and stores them
in a single statement that is its own transaction (`move_store.batch_statement`: the columns of
the locked path's `move_store.store_move`, from the models). A move is applied only where its
game is still at the seq the move was worked out from (and unfinished), so a move stored by
another tab, server or the REST API in between makes this one miss; the caller then takes the
locked path. One commit, one WAL flush, covers the whole batch: that is what lets a process store
thousands of moves a second, each durable before it is acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import deque
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import psycopg
from django.db import connections

from tripeaks.infra.socket_outage import UNAVAILABLE
from tripeaks.play import move_store
from tripeaks.play.errors import PlayError
from tripeaks.play.models import Game
from tripeaks.play.move_store import LoggedMove

log = logging.getLogger("tripeaks.events")

MAX_BATCH = 500
APPLICATION_NAME = "tripeaks-move-writer"


class StoreUnavailable(PlayError):
    """PostgreSQL could not be reached; whether the move was stored is for a retry to find out."""

    status_code = 503
    code = "unavailable"


@dataclass(frozen=True)
class MoveRow:
    """A game row's new fields and its new move-log row, worked out in memory."""

    game: Game
    expected_seq: int
    move: LoggedMove


@dataclass
class _Waiting:
    row: MoveRow
    future: asyncio.Future[bool]


class MoveWriter:
    def __init__(self) -> None:
        self._queue: deque[_Waiting] = deque()
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._draining: asyncio.Task[None] | None = None
        self._statement = move_store.batch_statement()
        self.batches_written = 0

    async def store(self, row: MoveRow) -> bool:
        """Store `row` durably: True once committed, False if its game is no longer at its seq."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.append(_Waiting(row, future))
        if self._draining is None or self._draining.done():
            self._draining = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._queue:
            batch = self._take_batch()
            try:
                stored = await self._write_retrying([waiting.row for waiting in batch])
            except Exception as error:  # whatever it was, no waiting move may hang
                log.warning("could not store a batch of moves", exc_info=True)
                failure = StoreUnavailable(UNAVAILABLE)
                failure.__cause__ = error
                for waiting in batch:
                    if not waiting.future.done():
                        waiting.future.set_exception(failure)
                continue
            self.batches_written += 1
            for waiting in batch:
                if not waiting.future.done():
                    waiting.future.set_result(waiting.row.game.pk in stored)

    async def _write_retrying(self, rows: list[MoveRow]) -> set[UUID]:
        """One retry on a new connection: the seq guard makes a batch that did commit before its
        connection broke miss the second time, so nothing is stored twice."""
        try:
            return await self._write(rows)
        except psycopg.OperationalError:
            await self._drop_connection()
        try:
            return await self._write(rows)
        except psycopg.Error:
            await self._drop_connection()
            raise

    def _take_batch(self) -> list[_Waiting]:
        """The oldest moves, at most one per game: a second move on a game waits for the next
        batch, where the seq check sees the first one."""
        batch: list[_Waiting] = []
        games: set[UUID] = set()
        later: list[_Waiting] = []
        while self._queue and len(batch) < MAX_BATCH:
            waiting = self._queue.popleft()
            if waiting.row.game.pk in games:
                later.append(waiting)
            else:
                games.add(waiting.row.game.pk)
                batch.append(waiting)
        self._queue.extendleft(reversed(later))
        return batch

    async def _write(self, rows: list[MoveRow]) -> set[UUID]:
        connection = await self._connect()
        arguments = move_store.batch_arguments(
            [move_store.batch_record(row.game, row.expected_seq, row.move) for row in rows]
        )
        cursor = await connection.execute(self._statement, arguments)
        return {game_id for (game_id,) in await cursor.fetchall()}

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        if self._connection is None or self._connection.closed:
            # Django's own parameters (host, TLS, timeouts, adapters), but for an async connection.
            params = connections["default"].get_connection_params()
            params.pop("cursor_factory")  # a sync cursor class
            self._connection = await psycopg.AsyncConnection.connect(
                **params, autocommit=True, application_name=APPLICATION_NAME
            )
        return self._connection

    async def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(psycopg.Error):
                await connection.close()

    @property
    def backend_pid(self) -> int | None:
        """The PostgreSQL backend serving this writer, while it has a connection."""
        connection = self._connection
        return None if connection is None or connection.closed else connection.info.backend_pid

    def close_now(self) -> None:
        """Close the connection from outside its loop (the loop may be gone)."""
        connection, self._connection = self._connection, None
        if connection is not None and not connection.closed:
            connection.pgconn.finish()


_writers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, MoveWriter] = (
    weakref.WeakKeyDictionary()
)


def writer() -> MoveWriter:
    loop = asyncio.get_running_loop()
    found = _writers.get(loop)
    if found is None:
        for other_loop, other in list(_writers.items()):
            if other_loop.is_closed():
                other.close_now()
                del _writers[other_loop]
        found = _writers[loop] = MoveWriter()
    return found


def close_all() -> None:
    """Close every writer's connection (tests, before their database goes away)."""
    for other in list(_writers.values()):
        other.close_now()
    _writers.clear()
