"""Django's database sessions, their row read with one plain statement.

Django's store reads the row through the ORM: the query built and compiled anew for every request
and socket that carries the session cookie, some 300 us of CPU a read where the statement's own
work is a tenth of it (bench/README.md, "Stop 53, lead"). What is stored, how it is signed, when
it expires and how it is written stay Django's: only the two reads by key are statements here.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import connections, router
from django.utils import timezone


def _table(model: type[AbstractBaseSession]) -> str:
    return connections[router.db_for_read(model)].ops.quote_name(model._meta.db_table)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> AbstractBaseSession | None:
        key = self.session_key
        row = None
        if key is not None:
            with connections[router.db_for_read(self.model)].cursor() as cursor:
                cursor.execute(
                    f"SELECT session_data, expire_date FROM {_table(self.model)}"
                    " WHERE session_key = %s AND expire_date > %s",
                    [key, timezone.now()],
                )
                row = cursor.fetchone()
        if key is None or row is None:
            self._session_key = None
            return None
        return self.model(session_key=key, session_data=row[0], expire_date=row[1])

    def exists(self, session_key: str) -> bool:
        with connections[router.db_for_read(self.model)].cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {_table(self.model)} WHERE session_key = %s", [session_key]
            )
            return cursor.fetchone() is not None
