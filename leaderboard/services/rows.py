"""A player's line on a deal's board, read by one hand-written statement (`tripeaks/infra/model_rows.py`):
on the finishing path the ORM's compiling costs more CPU than the round trip."""

from __future__ import annotations

import functools

from django.db import DEFAULT_DB_ALIAS, connection, connections

from leaderboard.models import DealBest, DealRecord
from tripeaks.infra.bulk_rows import Statement
from tripeaks.infra.model_rows import Selected, columns, field_columns, select_rows


def player_line(
    player_id: int, deal_id: int, after: Statement | None = None
) -> tuple[DealBest | None, int | None]:
    """The player's line on the deal's board, if any, with the board's size (its record's
    `lines`): one statement, for the finish that ranks a run and the game-over view. `after`:
    a write (the finish's statistics `UPDATE`) run first in the same statement, as a `WITH`: one
    round trip where two were (a write of other tables, which the read does not see)."""
    sql, columns = _line_sql()
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself: the proxy looks it up each use
    params: list[object] = [
        DealBest.player.field.get_db_prep_value(player_id, db),
        DealBest.deal.field.get_db_prep_value(deal_id, db),
    ]
    if after is not None:
        sql, params = f"WITH written AS ({after[0]}) {sql}", [*after[1], *params]
    if found := select_rows(DealBest, sql, columns, params):  # one line at most
        best, (lines,) = found[0]
        return best, lines
    return None, None


@functools.cache
def _line_sql() -> tuple[str, Selected]:
    quote = connection.ops.quote_name
    line = DealBest._meta
    player, deal = quote(DealBest.player.field.column), quote(DealBest.deal.field.column)
    lines = DealRecord.lines.field
    sql = (
        f"SELECT {columns(DealBest, 'b')[0]},"
        f" (SELECT r.{quote(lines.column)} FROM {quote(DealRecord._meta.db_table)} r"
        f" WHERE r.{quote(DealRecord.deal.field.column)} = b.{deal})"
        f" FROM {quote(line.db_table)} b WHERE b.{player} = %s AND b.{deal} = %s"
    )
    return sql, Selected([*field_columns(DealBest, "b"), lines.get_col("r")])
