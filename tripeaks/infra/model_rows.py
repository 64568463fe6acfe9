"""Rows of hand-written SQL as model instances, made as the ORM makes them.

Where a path is hot enough that the ORM's compiling of a query costs more CPU than its round trip
(a finish's statistics and board line, a session's user, an API token), the statement is written
once from the model's `_meta` and its rows are made here: the same columns in the ORM's order, the
same converters, `Model.from_db`. One place, so every such read lists and makes its rows alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.models import Model
from django.db.models.expressions import Col

_Row = TypeVar("_Row", bound=Model)


def columns(model: type[Model], table: str) -> tuple[str, list[str]]:
    """A model's columns for a SELECT list, each `table.column`, and the names `from_db` takes
    them by, in the ORM's order."""
    quote = connections[router.db_for_read(model)].ops.quote_name
    fields = model._meta.concrete_fields
    listed = ", ".join(f"{table}.{quote(field.column)}" for field in fields)
    return listed, [field.attname for field in fields]


def field_columns(model: type[Model], table: str) -> list[Col]:
    """What each of `columns`' columns holds, for `select_rows`' converters."""
    return [field.get_col(table) for field in model._meta.concrete_fields]


def select_rows(
    model: type[_Row], sql: str, selected: Sequence[Col], params: Sequence[Any]
) -> list[tuple[_Row, tuple[Any, ...]]]:
    """The rows of `sql`, whose `selected` columns are the model's concrete fields (in order),
    then any more: an instance of each row with the values of the rest, all converted as the ORM
    would."""
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself: the proxy looks it up each read
    ops = db.ops
    converters = [
        (i, column, funcs)
        for i, column in enumerate(selected)
        if (funcs := ops.get_db_converters(column) + column.get_db_converters(db))
    ]
    with db.cursor() as cursor:
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
