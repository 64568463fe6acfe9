"""Rows of hand-written SQL as model instances, converted as the ORM would: on the finishing path
the ORM's compiling costs more CPU than the round trip."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model
from django.db.models.expressions import Col

from leaderboard.models import DealBest, DealRecord
from tripeaks.infra.bulk_rows import Statement

_Row = TypeVar("_Row", bound=Model)


def select_rows(
    model: type[_Row], sql: str, columns: Sequence[Col], params: Sequence[Any]
) -> list[tuple[_Row, tuple[Any, ...]]]:
    """The rows of `sql`, whose `columns` are the model's concrete fields (in order), then any
    more: an instance of each row with the values of the rest, all converted as the ORM would.
    Hand-written SQL, as on the finishing path the ORM's compile costs more CPU than the round
    trip."""
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself: the proxy looks it up each read
    ops = db.ops
    converters = [
        (i, column, funcs)
        for i, column in enumerate(columns)
        if (funcs := ops.get_db_converters(column) + column.get_db_converters(db))
    ]
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    names = [field.attname for field in model._meta.concrete_fields]
    selected = []
    for row in rows:
        values = list(row)
        for i, column, funcs in converters:
            for convert in funcs:
                values[i] = convert(values[i], column, db)
        instance = model.from_db(db.alias, names, values[: len(names)])
        selected.append((instance, tuple(values[len(names) :])))
    return selected


def player_line(
    player_id: int, deal_id: int, after: Statement | None = None
) -> tuple[DealBest | None, int | None]:
    """The player's line on the deal's board, if any, with the board's size (its record's
    `lines`): one statement, for the finish that ranks a run and the game-over view. `after`:
    a write (the finish's statistics `UPDATE`) run first in the same statement, as a `WITH`: one
    round trip where two were (a write of other tables, which the read does not see)."""
    sql, columns = _line_sql()
    params: list[object] = [
        DealBest.player.field.get_db_prep_value(player_id, connection),
        DealBest.deal.field.get_db_prep_value(deal_id, connection),
    ]
    if after is not None:
        sql, params = f"WITH written AS ({after[0]}) {sql}", [*after[1], *params]
    if found := select_rows(DealBest, sql, columns, params):  # one line at most
        best, (lines,) = found[0]
        return best, lines
    return None, None


@functools.cache
def _line_sql() -> tuple[str, list[Col]]:
    quote = connection.ops.quote_name
    line = DealBest._meta
    player, deal = quote(DealBest.player.field.column), quote(DealBest.deal.field.column)
    lines = DealRecord.lines.field
    sql = (
        f"SELECT {', '.join(f'b.{quote(field.column)}' for field in line.concrete_fields)},"
        f" (SELECT r.{quote(lines.column)} FROM {quote(DealRecord._meta.db_table)} r"
        f" WHERE r.{quote(DealRecord.deal.field.column)} = b.{deal})"
        f" FROM {quote(line.db_table)} b WHERE b.{player} = %s AND b.{deal} = %s"
    )
    return sql, [*(field.get_col("b") for field in line.concrete_fields), lines.get_col("r")]
