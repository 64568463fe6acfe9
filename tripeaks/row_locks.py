"""The row-lock clause of hand-written SQL, as the ORM's `select_for_update` writes it."""

from __future__ import annotations

from django.db import connection


def for_update(of: str = "") -> str:
    """The clause, with its leading space, that locks the rows a SELECT reads (those of the table
    aliased `of` only, where the database can say so), or "" on a database without row locks
    (SQLite: its writers take turns)."""
    features = connection.features
    if not features.has_select_for_update:
        return ""
    tables = (of,) if of and features.has_select_for_update_of else ()
    return " " + connection.ops.for_update_sql(of=tables)
