"""How the database pool checks a connection before handing it out: by its socket, not a round trip.

With ``CONN_HEALTH_CHECKS`` Django has psycopg's pool run an empty statement on every connection
it hands out (`ConnectionPool.check_connection`): one more round trip to PostgreSQL for every
request, every socket's database call and every group commit, to find the rare connection that
the database closed (a restart, an administrator's termination). A connection that PostgreSQL
closes is told so on its socket first: a restart's or a termination's ``FATAL`` message and the
close, which make the idle socket readable. An idle pooled connection has nothing else to read
(the project never listens for notifications), so only a readable socket is asked with the round
trip, which fails and has the pool replace the connection. A socket that nothing reaches, a
database host gone without a word, is found by the request that uses it, as it would be by a
check made a moment before it died.
"""

from __future__ import annotations

import select

import psycopg
from psycopg_pool import ConnectionPool


def said_something(connection: psycopg.Connection[object]) -> bool:
    """Whether the connection's socket has anything to read (a message, an end of file)."""
    poll = select.poll()
    poll.register(connection.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poll.poll(0))


def check_quietly(connection: psycopg.Connection[object]) -> None:
    """The pool's check: raises (the pool then makes another connection) for a connection that is
    closed or broken, or whose socket has something to say that an empty statement finds wrong."""
    if connection.closed or connection.broken:
        raise psycopg.OperationalError("the connection is closed")
    if said_something(connection):
        ConnectionPool.check_connection(connection)
