"""The row-lock clause of hand-written SQL, as the ORM's `select_for_update` writes it."""

from __future__ import annotations

from django.db import connection


def for_update(of: str = "") -> str:
    """The clause, with its leading space, that locks the rows a SELECT reads (those of the table
    aliased `of` only, when given)."""
    return " " + connection.ops.for_update_sql(of=(of,) if of else ())
