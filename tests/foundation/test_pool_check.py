"""The database pool's check of a connection before it hands it out (tripeaks/infra/pool_check.py),
on the real PostgreSQL: a healthy connection costs no round trip, a connection the database
closed is never handed out."""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection as django_connection
from psycopg_pool import ConnectionPool

from tripeaks.infra.pool_check import check_quietly


def conninfo() -> str:
    params = django_connection.get_connection_params()
    options = {k: v for k, v in params.items() if k not in ("context", "cursor_factory")}
    return psycopg.conninfo.make_conninfo(**options)


@pytest.fixture
def watcher() -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    with psycopg.connect(conninfo(), autocommit=True) as watching:
        yield watching


def last_statement(watching: psycopg.Connection[tuple[object, ...]], pid: int) -> object:
    row = watching.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    assert row is not None
    return row[0]


def terminated(watching: psycopg.Connection[tuple[object, ...]], pid: int) -> None:
    watching.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while watching.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
        assert time.monotonic() < deadline, "the backend did not end"
        time.sleep(0.02)


@pytest.mark.django_db
def test_a_healthy_idle_connection_is_checked_without_a_statement(
    watcher: psycopg.Connection[tuple[object, ...]],
) -> None:
    """Psycopg's own check (Django's with CONN_HEALTH_CHECKS) sends an empty statement: the
    backend's last statement would be "" after it."""
    with psycopg.connect(conninfo(), autocommit=True) as pooled:
        pooled.execute("SELECT 1 AS before_the_check")
        check_quietly(pooled)
        check_quietly(pooled)
        assert last_statement(watcher, pooled.info.backend_pid) == "SELECT 1 AS before_the_check"
        assert pooled.execute("SELECT 2").fetchone() == (2,)


@pytest.mark.django_db
def test_a_connection_the_database_closed_fails_the_check(
    watcher: psycopg.Connection[tuple[object, ...]],
) -> None:
    with psycopg.connect(conninfo(), autocommit=True) as pooled:
        terminated(watcher, pooled.info.backend_pid)
        with pytest.raises(psycopg.OperationalError):
            check_quietly(pooled)


@pytest.mark.django_db
def test_the_pool_replaces_a_terminated_connection_before_handing_it_out(
    watcher: psycopg.Connection[tuple[object, ...]],
) -> None:
    """As after a database restart: the pool's only idle connection was closed by the server;
    the next checkout gets a new one that works, and the request never sees the dead one."""
    with ConnectionPool(
        conninfo(), min_size=1, max_size=1, check=check_quietly, kwargs={"autocommit": True}
    ) as pool:
        with pool.connection() as first:
            dead = first.info.backend_pid
        terminated(watcher, dead)
        with pool.connection() as second:
            assert second.info.backend_pid != dead
            assert second.execute("SELECT 3").fetchone() == (3,)


@pytest.mark.django_db
def test_the_projects_backend_pool_hands_out_connections_checked_by_their_socket(
    watcher: psycopg.Connection[tuple[object, ...]],
) -> None:
    """The backend production runs (tripeaks.infra.postgresql, with the pool and our check, as
    tripeaks/config/settings.py configures it): a connection handed out again was sent nothing
    in between; one the database closed meanwhile is replaced."""
    from django.db import connections

    from tripeaks.infra.postgresql.base import DatabaseWrapper

    pooled = {"min_size": 1, "max_size": 1, "check": check_quietly}
    options = {**connections["default"].settings_dict["OPTIONS"], "pool": pooled}
    wrapper = DatabaseWrapper(
        {**connections["default"].settings_dict, "OPTIONS": options, "CONN_MAX_AGE": 0},
        alias="pool_check_test",
    )
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 1 AS handed_back")
        pid = wrapper.connection.info.backend_pid
        wrapper.close()  # back to the pool
        with wrapper.cursor() as cursor:
            assert wrapper.connection.info.backend_pid == pid
            assert last_statement(watcher, pid) == "SELECT 1 AS handed_back"
            cursor.execute("SELECT 4")
            assert cursor.fetchone() == (4,)
        wrapper.close()
        terminated(watcher, pid)
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT 5")
            assert cursor.fetchone() == (5,)
            assert wrapper.connection.info.backend_pid != pid
    finally:
        wrapper.close()
        wrapper.close_pool()
