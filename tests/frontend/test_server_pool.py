"""The browser tests' forked server takes its database connections from a pool, as production's
processes do (conftest `_in_the_server_process`; the test process itself has none,
tests/settings.py). Without one, each request and each socket's database call opened a
connection and closed it: ~19 PostgreSQL backends started and ended a browser test."""

from __future__ import annotations

import urllib.request
from typing import Any

from django.db import connection


def _server_backends() -> set[int]:
    """The backends of this database's test servers (`_connections_of`) now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND application_name LIKE 'tripeaks-test-server-%%'"
        )
        return {pid for (pid,) in cursor.fetchall()}


def test_the_servers_requests_reuse_their_database_connections(
    server_url: str, transactional_db: Any
) -> None:
    urllib.request.urlopen(f"{server_url}/api/today", timeout=30).read()
    kept = _server_backends()
    for _ in range(10):
        urllib.request.urlopen(f"{server_url}/api/today", timeout=30).read()
        assert _server_backends() == kept
    assert kept, "no connection of the server's outlived its request"
