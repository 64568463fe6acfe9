"""Rows of hand-written SQL as model instances, converted as the ORM would: on the finishing path
the ORM's compiling costs more CPU than the round trip."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model
from django.db.models.expressions import Col

_Row = TypeVar("_Row", bound=Model)


def select_rows(
    model: type[_Row], sql: str, columns: Sequence[Col], params: Sequence[Any]
) -> list[tuple[_Row, tuple[Any, ...]]]:
    """The rows of `sql`, whose `columns` are the model's concrete fields (in order), then any
    more: an instance of each row with the values of the rest, all converted as the ORM would.
    Hand-written SQL, as on the finishing path the ORM's compile costs more CPU than the round
    trip."""
    ops = connection.ops
    converters = [
        (i, column, funcs)
        for i, column in enumerate(columns)
        if (funcs := ops.get_db_converters(column) + column.get_db_converters(connection))
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    names = [field.attname for field in model._meta.concrete_fields]
    selected = []
    for row in rows:
        values = list(row)
        for i, column, funcs in converters:
            for convert in funcs:
                values[i] = convert(values[i], column, connection)
        instance = model.from_db(connection.alias, names, values[: len(names)])
        selected.append((instance, tuple(values[len(names) :])))
    return selected
