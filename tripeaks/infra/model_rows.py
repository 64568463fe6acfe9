"""Rows of hand-written SQL as model instances, made as the ORM makes them.

Where a path is hot enough that the ORM's compiling of a query costs more CPU than its round trip
(a finish's statistics and board line, a session's user, an API token), the statement is written
once from the model's `_meta` and its rows are made here: the same columns in the ORM's order, the
same converters, `Model.from_db`. One place, so every such read lists and makes its rows alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model
from django.db.models.expressions import Col

from tripeaks.infra.bulk_rows import bound_cursor

_Row = TypeVar("_Row", bound=Model)


def columns(model: type[Model], table: str) -> tuple[str, list[str]]:
    """A model's columns for a SELECT list, each `table.column`, and the names `from_db` takes
    them by, in the ORM's order."""
    quote = connections[router.db_for_read(model)].ops.quote_name
    fields = model._meta.concrete_fields
    listed = ", ".join(f"{table}.{quote(field.column)}" for field in fields)
    return listed, [field.attname for field in fields]


def field_columns(model: type[Model], table: str) -> list[Col]:
    """What each of `columns`' columns holds, for a `Selected`."""
    return [field.get_col(table) for field in model._meta.concrete_fields]


Converters = list[tuple[int, Col, list[Callable[..., Any]]]]


class Selected:
    """The columns a hand-written SELECT lists (the model's concrete fields in order, then any
    more), with their converters worked out at the first read: made once with its statement
    (in its `functools.cache`), so a read does not ask every column for them again (two reads of
    a finish asked 42 columns, some 170 Python calls)."""

    def __init__(self, columns: Sequence[Col]) -> None:
        self.columns = tuple(columns)
        self._converters: Converters | None = None

    def converters(self, db: BaseDatabaseWrapper) -> Converters:
        """Each column that has converters on `db` (the default database: every such read's),
        with its index and them."""
        if self._converters is None:
            ops = db.ops
            self._converters = [
                (i, column, funcs)
                for i, column in enumerate(self.columns)
                if (funcs := ops.get_db_converters(column) + column.get_db_converters(db))
            ]
        return self._converters


def select_rows(
    model: type[_Row], sql: str, selected: Selected, params: Sequence[Any]
) -> list[tuple[_Row, tuple[Any, ...]]]:
    """The rows of `sql`, whose `selected` columns are the model's concrete fields (in order),
    then any more: an instance of each row with the values of the rest, all converted as the ORM
    would."""
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself: the proxy looks it up each read
    converters = selected.converters(db)
    with bound_cursor(db) as cursor:  # prepared on the connection after a few runs
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    names = [field.attname for field in model._meta.concrete_fields]
    made = []
    for row in rows:
        values = list(row)
        for i, column, funcs in converters:
            for convert in funcs:
                values[i] = convert(values[i], column, db)
        instance = model.from_db(db.alias, names, values[: len(names)])
        made.append((instance, tuple(values[len(names) :])))
    return made
