"""A test process's new database connection waits for a free slot when PostgreSQL has none
(tests/conftest.py, `waits_for_a_connection_slot`): the machine's server is shared, and a run
failed at random with "too many clients already" while other runs' benches held its slots."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import psycopg
import pytest
from django.db import connection
from django.db.backends.postgresql.base import DatabaseWrapper


def _admin(settings: dict[str, Any], user: str | None = None) -> psycopg.Connection[Any]:
    return psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        user=user or settings["USER"] or None,
        dbname="postgres",
        autocommit=True,
    )


@pytest.mark.django_db
def test_a_connection_refused_for_want_of_a_slot_is_made_once_one_is_free() -> None:
    settings = connection.settings_dict
    role = f"slot_{uuid.uuid4().hex[:12]}"
    with _admin(settings) as admin:
        # The role's own limit refuses its second connection as a full server refuses any (53300).
        admin.execute(f"CREATE ROLE {role} LOGIN CONNECTION LIMIT 1")
        try:
            holder = _admin(settings, role)
            threading.Timer(1.0, holder.close).start()
            probe = DatabaseWrapper({**settings, "USER": role, "NAME": "postgres"}, alias="slot")
            probe.ensure_connection()  # refused until the holder lets its slot go
            with probe.cursor() as cursor:
                cursor.execute("SELECT current_user")
                assert cursor.fetchone() == (role,)
            probe.close()
        finally:
            admin.execute(f"DROP ROLE IF EXISTS {role}")
