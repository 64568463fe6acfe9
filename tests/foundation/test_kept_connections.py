"""The test process keeps its database connections (tests/settings.py, CONN_MAX_AGE): an in-process
socket consumer's database calls, each closed around by channels as in a server, use one
connection instead of opening one each, and a kept connection that has died is found so
(CONN_HEALTH_CHECKS) and replaced before a call uses it."""

from __future__ import annotations

import asyncio

import psycopg
import pytest
from asgiref.sync import ThreadSensitiveContext
from channels.db import database_sync_to_async
from django.db import connection

from tripeaks.infra.socket_threads import closing_connections


def _pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


# Closed after in the call's own context, as the sockets' calls are (`closing_connections`):
# channels closes old connections outside that context, where after some tests (sockets opened
# at once, tests/play/test_socket_open_hops.py) the call's connection is not found, so its
# health check was never asked for again and a dead connection was used.
_backend_pid = database_sync_to_async(closing_connections(_pid))


@database_sync_to_async
def _close() -> None:
    connection.close()


def _end_backend(pid: int, settings: dict[str, str]) -> None:
    """The backend `pid` ended from a session of its own, as a PostgreSQL restart would end it,
    and gone before this returns: `pg_terminate_backend` without a timeout only signals it, and a
    health check that ran before it had exited found it alive (the next query then failed with
    `AdminShutdown`, seen on a fresh clone)."""
    with psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        user=settings["USER"] or None,
        dbname=settings["NAME"],
        autocommit=True,
    ) as admin:
        ended = admin.execute("SELECT pg_terminate_backend(%s, %s)", [pid, 10_000]).fetchone()
    assert ended == (True,)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_consumers_database_calls_share_one_connection() -> None:
    async with ThreadSensitiveContext():  # a consumer's calls share a thread of their own
        first = await _backend_pid()
        assert await _backend_pid() == first
        assert await _backend_pid() == first
        await _close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_kept_connection_that_died_is_replaced_before_the_next_call() -> None:
    # In a thread of the test's own, as a consumer's calls are: on the process's shared sync
    # thread, whatever an earlier test left on its connection was this test's too, and a dead
    # connection left there failed every later test of the process that reached it (18, seen on
    # a fresh clone).
    async with ThreadSensitiveContext():
        first = await _backend_pid()
        try:
            await asyncio.to_thread(_end_backend, first, connection.settings_dict)
            assert await _backend_pid() != first  # and no error: the dead one was not used
        finally:
            await _close()
