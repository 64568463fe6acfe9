"""A transactional test's cleanup that leaves the database as Django's flush does, faster.

After every transactional test (``transaction=True``, ``transactional_db``, the browser tests)
Django's ``TransactionTestCase`` runs ``manage.py flush``: one TRUNCATE of every table, then the
``post_migrate`` signal, which writes the content types and permissions back. TRUNCATE makes new
files for every table and index, and on two busy cores the whole flush took 1.3 to 2 s, for each
of the suite's ~160 transactional tests.

The flushed state is known: every table empty but ``django_content_type`` and ``auth_permission``,
which hold what ``post_migrate`` wrote (the only receivers of that signal here are
``create_contenttypes`` and ``create_permissions``; :func:`install` checks). So after the first real
flush this records a fingerprint of those two tables, and after each later test, if they still
match it, empties the other tables with DELETE in one transaction (Django's foreign keys are
DEFERRABLE INITIALLY DEFERRED: the order does not matter). The result is the flushed state, the
content types with their ids unchanged (a real flush numbers them anew; nothing relies on either).
When the fingerprint differs (a test wrote a permission, say), or the DELETE fails, or the test
case asks for anything but a plain flush (``available_apps``, serialized rollback, reset
sequences), Django's own flush runs, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.management import call_command
from django.db import DatabaseError, connections, transaction
from django.db.models.signals import post_migrate
from django.test import TransactionTestCase

KEPT = ("django_content_type", "auth_permission")
FINGERPRINT = """
SELECT (SELECT md5(coalesce(string_agg(id || ':' || app_label || '.' || model, ',' ORDER BY id), ''))
          FROM django_content_type),
       (SELECT md5(coalesce(string_agg(
                 id || ':' || content_type_id || ':' || codename || ':' || name, ',' ORDER BY id), ''))
          FROM auth_permission)
"""
EXPECTED_RECEIVERS = {"create_contenttypes", "create_permissions"}

# database alias -> the fingerprint of the kept tables right after a real flush
_flushed: dict[str, tuple[str, str]] = {}


def _fingerprint(alias: str) -> tuple[str, str]:
    with connections[alias].cursor() as cursor:
        cursor.execute(FINGERPRINT)
        row = cursor.fetchone()
    assert row is not None
    return (row[0], row[1])


def _other_tables(alias: str) -> list[str]:
    connection = connections[alias]
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    return sorted(set(tables) - set(KEPT))


def _all_empty(alias: str, tables: list[str]) -> bool:
    quote = connections[alias].ops.quote_name
    with connections[alias].cursor() as cursor:
        cursor.execute(
            "SELECT " + " OR ".join(f"EXISTS (SELECT 1 FROM {quote(t)})" for t in tables)
        )
        row = cursor.fetchone()
    return row is not None and not row[0]


def _delete_all(alias: str, tables: list[str]) -> None:
    quote = connections[alias].ops.quote_name
    statements = ["SET CONSTRAINTS ALL DEFERRED"] + [f"DELETE FROM {quote(t)}" for t in tables]
    with transaction.atomic(using=alias), connections[alias].cursor() as cursor:
        cursor.execute("; ".join(statements))


def _fast_flush(alias: str) -> bool:
    """Empty the database as a flush would; False if only Django's flush can (then nothing
    was changed)."""
    known = _flushed.get(alias)
    if known is None or _fingerprint(alias) != known:
        return False
    try:
        _delete_all(alias, _other_tables(alias))
    except DatabaseError:
        return False
    return True


def install() -> Callable[[], None]:
    """Patch TransactionTestCase's cleanup; returns the function that undoes it."""
    receivers = {getattr(r, "__name__", "") for r in post_migrate._live_receivers(None)[0]}
    if receivers != EXPECTED_RECEIVERS:
        return lambda: None  # another receiver writes on flush: keep Django's flush only

    django_teardown = TransactionTestCase._fixture_teardown

    def _fixture_teardown(self: Any) -> None:
        plain = not (self.available_apps is not None or self.serialized_rollback)
        if not plain:
            django_teardown(self)
            return
        for alias in self._databases_names(include_mirrors=False):
            if _fast_flush(alias):
                continue
            # Django's flush of this database, exactly as its _fixture_teardown calls it here.
            call_command(
                "flush",
                verbosity=0,
                interactive=False,
                database=alias,
                reset_sequences=False,
                allow_cascade=False,
                inhibit_post_migrate=False,
            )
            # The flushed state, if it is what this module expects it to be.
            _flushed.pop(alias, None)
            if _all_empty(alias, _other_tables(alias)):
                _flushed[alias] = _fingerprint(alias)

    TransactionTestCase._fixture_teardown = _fixture_teardown  # type: ignore[method-assign]

    def undo() -> None:
        TransactionTestCase._fixture_teardown = django_teardown  # type: ignore[method-assign]
        _flushed.clear()

    return undo
