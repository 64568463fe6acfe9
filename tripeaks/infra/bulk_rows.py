"""Several rows of one model updated in one statement, for little CPU.

`QuerySet.bulk_update` is one statement too, but it builds a `CASE WHEN` expression for every
field of every row, and compiling those took more CPU than the rest of a race's end (its seats
and its players' ratings, profiled under bench/race_load.py) and several times that of saving a
finished game's statistics row by row (leaderboard/services.py). `UPDATE ... FROM (VALUES ...)`
writes the same columns by primary key, as `bulk_update` does (no field's `pre_save`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from django.db import connection
from django.db.models import Field, Model


def update_rows(rows: Sequence[Model], fields: Sequence[str]) -> None:
    """Write `fields` of every row in `rows` (stored instances of one model) in one statement."""
    if not rows:
        return
    sql, columns = _statement(type(rows[0]), tuple(fields), len(rows))
    values = [
        field.get_db_prep_save(getattr(row, field.attname), connection)
        for row in rows
        for field in columns
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


def _field(model: type[Model], name: str) -> Field[object, object]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.concrete, name
    return field


@functools.cache
def _statement(
    model: type[Model], fields: tuple[str, ...], count: int
) -> tuple[str, tuple[Field[object, object], ...]]:
    """The statement for `count` rows, and the fields whose values it takes from each row (the
    key first)."""
    quote = connection.ops.quote_name
    pk = model._meta.pk
    assert pk is not None
    written = [_field(model, name) for name in fields]
    columns = (pk, *written)
    row = "(" + ", ".join(f"%s::{field.db_type(connection)}" for field in columns) + ")"
    sql = (
        f"UPDATE {quote(model._meta.db_table)} AS t"
        f" SET {', '.join(f'{quote(f.column)} = v.{quote(f.column)}' for f in written)}"
        f" FROM (VALUES {', '.join([row] * count)})"
        f" AS v ({', '.join(quote(f.column) for f in columns)})"
        f" WHERE t.{quote(pk.column)} = v.{quote(pk.column)}"
    )
    return sql, columns
