"""Rows of a model written by statements made once, for little CPU: several rows updated in one
statement (`update_rows`; `update_statement` to send it with a read), new rows inserted in one
(`insert_rows`; `insert_row` for one).

`QuerySet.bulk_update` is one statement too, but it builds a `CASE WHEN` expression for every
field of every row, and compiling those took more CPU than the rest of a race's end (its seats
and its players' ratings, profiled under bench/race_load.py) and several times that of saving a
finished game's statistics row by row (leaderboard/services.py). `UPDATE ... FROM (VALUES ...)`
writes the same columns by primary key, as `bulk_update` does (no field's `pre_save`).

`Model.objects.create` compiles its INSERT anew for every row: on a finish and a next game's
start (a result row, a board line, a game row) the compiling cost more CPU than the round trip.
`insert_row` writes what `create` writes (every concrete field, each through its `pre_save` and
`get_db_prep_save`, the database's own key read back; `_Column`: a value that call would keep
as it is, or wrap in psycopg's integer of its column's size, is kept or wrapped without it), with a statement made once a model and
bound on the server (`bound_cursor`), and sends no `pre_save`/`post_save` signal, as
`bulk_create` does not (no receiver in the project listens for one).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from uuid import UUID

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import Field, Model


def update_rows(rows: Sequence[Model], fields: Sequence[str]) -> None:
    """Write `fields` of every row in `rows` (stored instances of one model) in one statement."""
    if not rows:
        return
    run(update_statement(rows, fields))


Statement = tuple[str, list[Any]]


def run(statement: Statement) -> None:
    """Run a statement (`update_statement`'s) with its parameters."""
    sql, values = statement
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


def update_statement(rows: Sequence[Model], fields: Sequence[str]) -> Statement:
    """`update_rows`' statement and its parameters, not run: for a caller that sends it in the
    same round trip as a read of its own (a data-modifying `WITH`). `rows` is not empty."""
    sql, columns = _statement(type(rows[0]), tuple(fields), len(rows))
    return sql, _values(rows, columns, _connection(), adding=False)


# Fields whose `get_db_prep_save` stores a value of these exact types as it is (None too), or
# for an integer column, as psycopg's integer of the column's size: Django's own classes only
# (a subclass may prepare its values otherwise). tests/play/test_row_values.py holds every
# column of the finish's and the start's rows to Django's answers.
_KEPT: dict[type[Field[Any, Any]], frozenset[type]] = {
    models.CharField: frozenset({str}),
    models.TextField: frozenset({str}),
    models.BooleanField: frozenset({bool}),
    models.FloatField: frozenset({float}),  # `float(value)`
    models.DateField: frozenset({date}),  # (a `datetime` is made a date: not its exact type)
    models.UUIDField: frozenset({UUID}),  # a native type on PostgreSQL
    models.AutoField: frozenset({int}),  # `int(value)`, and no integer wrapper for a key
    models.BigAutoField: frozenset({int}),
    models.SmallAutoField: frozenset({int}),
    # An aware datetime too (`_Column.aware`): a naive one is warned of and made aware.
    models.DateTimeField: frozenset(),
}
# Keys whose foreign keys keep their values: an auto-incremented key's int, a UUID.
_KEY_TYPES: dict[type[Field[Any, Any]], frozenset[type]] = {
    kind: _KEPT[kind] for kind in (models.AutoField, models.BigAutoField, models.UUIDField)
}
_SIZED = (
    models.IntegerField,
    models.BigIntegerField,
    models.SmallIntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.PositiveBigIntegerField,
)


@dataclass(frozen=True, slots=True)
class _Column:
    """A field written by a statement, and how its values are adapted without Django's chain of
    calls (`get_db_prep_save`: 3-5 calls a value, some 700 a game's end, 300 a start) where it
    would give them back unchanged: the types it keeps, the integer type it wraps an int in."""

    field: Field[Any, Any]
    kept: frozenset[type]
    sized: Callable[[int], int] | None
    # Its own `pre_save` (an `auto_now_add`): else the value is the row's attribute (as Django's
    # date and time fields' own `pre_save` gives it when they are set by neither `auto_now`).
    pre_save: bool
    # A `DateTimeField`, which keeps an aware datetime as it is.
    aware: bool = False

    @classmethod
    def of(cls, field: Field[Any, Any], ops: Any) -> _Column:
        kind = type(field)
        known = kind in _KEPT
        kept = _KEPT.get(kind, frozenset())
        sized = None
        if kind in _SIZED:
            sized = getattr(ops, "integerfield_type_map", {}).get(field.get_internal_type())
        elif isinstance(field, models.ForeignKey) and kind in (
            models.ForeignKey,
            models.OneToOneField,
        ):
            # The key's own `get_db_prep_save`, by way of the foreign key's (None stays None).
            kept = _KEY_TYPES.get(type(field.target_field), frozenset())
            known = bool(kept)
        if known or sized is not None:
            kept |= {type(None)}
        aware = kind is models.DateTimeField
        return cls(field, kept, sized, _own_pre_save(field), aware)


# Django's date and time fields' `pre_save`: the row's attribute unless `auto_now` or
# `auto_now_add` sets the value.
_DATED_PRE_SAVE = (models.DateField.pre_save, models.DateTimeField.pre_save)


def _own_pre_save(field: Field[Any, Any]) -> bool:
    """Does `field`'s `pre_save` do more than read the row's attribute?"""
    pre_save = type(field).pre_save
    if pre_save in _DATED_PRE_SAVE:
        return bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))
    return pre_save is not Field.pre_save


def _values(
    rows: Sequence[Model], columns: Sequence[_Column], db: BaseDatabaseWrapper, *, adding: bool
) -> list[Any]:
    """Each row's value of each column, as `get_db_prep_save` makes it (after `pre_save` for a
    row `adding`), in the order of the statement's parameters."""
    values = []
    for row in rows:
        for column in columns:
            field = column.field
            value = field.pre_save(row, adding) if column.pre_save else getattr(row, field.attname)
            kind = type(value)
            if kind in column.kept:
                values.append(value)
            elif kind is int and column.sized is not None:
                values.append(column.sized(value))
            elif kind is datetime and column.aware and value.utcoffset() is not None:
                values.append(value)
            else:
                values.append(field.get_db_prep_save(value, db))
    return values


def _connection() -> BaseDatabaseWrapper:
    """This thread's connection itself: every attribute read through Django's `connection`
    proxy looks the connection up again (asgiref's Local), and a field's `get_db_prep_save`
    reads several: a finish's rows cost some 90 look-ups."""
    return connections[DEFAULT_DB_ALIAS]


def _field(model: type[Model], name: str) -> Field[object, object]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.concrete, name
    return field


@functools.cache
def _statement(
    model: type[Model], fields: tuple[str, ...], count: int
) -> tuple[str, tuple[_Column, ...]]:
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
    return sql, tuple(_Column.of(field, connection.ops) for field in columns)


def bound_cursor(db: BaseDatabaseWrapper | None = None) -> CursorWrapper:
    """A cursor of Django's connection (its wrappers, its error classes, its query log) that
    binds on the server: psycopg prepares a statement on each connection after a few runs, where
    Django's own cursor (client-side binding) has PostgreSQL parse and plan it again every time.
    `db`: this thread's connection, when the caller has it already (`_connection`)."""
    db = db or _connection()
    db.ensure_connection()
    with db.wrap_database_errors:
        raw = psycopg.Cursor(db.connection)
    wrapper = CursorDebugWrapper if db.queries_logged else CursorWrapper
    return wrapper(raw, db)


def insert_row(row: Model) -> None:
    """Insert `row`, a new instance, as `row.save()` would (`Model.objects.create`): `insert_rows`
    of one row."""
    insert_rows([row])


def insert_rows(rows: Sequence[Model]) -> None:
    """Insert `rows`, new instances of one model, in one statement made once for their model and
    count: each field's `pre_save` runs (an `auto_now_add` is set), and the columns the database
    makes (an auto-incremented key) are read back onto each row, in the order of its VALUES."""
    if not rows:
        return
    sql, written, returned = _insert_statement(type(rows[0]), len(rows))
    db = _connection()
    values = _values(rows, written, db, adding=True)
    with bound_cursor(db) as cursor:
        cursor.execute(sql, values)
        made = cursor.fetchall() if returned else [()] * len(rows)
    assert len(made) == len(rows)
    for row, columns in zip(rows, made, strict=True):
        for field, value in zip(returned, columns, strict=True):
            setattr(row, field.attname, value)
        row._state.adding = False
        row._state.db = db.alias


@functools.cache
def _insert_statement(
    model: type[Model], count: int
) -> tuple[str, tuple[_Column, ...], tuple[Field[object, object], ...]]:
    """The INSERT of `count` rows of `model`, the fields whose values it takes from each, and those
    it returns."""
    quote = connection.ops.quote_name
    meta = model._meta
    returned = tuple(meta.db_returning_fields)
    written = tuple(field for field in meta.local_concrete_fields if field not in returned)
    row = f"({', '.join(['%s'] * len(written))})"
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in written)})"
        f" VALUES {', '.join([row] * count)}"
    )
    if returned:
        sql += f" RETURNING {', '.join(quote(field.column) for field in returned)}"
    return sql, tuple(_Column.of(field, connection.ops) for field in written), returned
