"""The daily and numbered deals' boards: a page of lines, a line's rank, the viewer's own line.

A page is a bounded number of queries whatever its length (no N+1): the lines with their players
in one query, the board's record row, and the viewer's own line and rank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

from django.db import connections
from django.db.models import QuerySet
from django.db.models.fields.tuple_lookups import (  # type: ignore[import-untyped]
    Tuple,
    TupleGreaterThan,
    TupleLessThan,
)

from leaderboard import cache
from leaderboard.boards import Key, line_key, order_of
from leaderboard.models import BoardLine, DealBest, DealRecord, FirstTry, Result
from leaderboard.payloads import AllTimeLine, LinePayload
from leaderboard.selectors.cursors import decode_cursor, encode_cursor
from leaderboard.selectors.shapes import line_payload
from tripeaks.play.dealday import deal_day
from tripeaks.play.visitors import Visitor

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


def daily_record(day: date, rules_key: str) -> DealRecord | None:
    return DealRecord.objects.filter(
        mode="daily", day=day, rules_key=rules_key, layout="classic"
    ).first()


def numbered_record(number: int, rules_key: str, layout: str) -> DealRecord | None:
    return DealRecord.objects.filter(
        mode="numbered", number=number, rules_key=rules_key, layout=layout
    ).first()


def _cursor_types(mode: str) -> tuple[type, ...]:
    types = {"lost": bool, "finished_at": datetime}
    return tuple(types.get(column, int) for column in order_of(mode))


# The daily deal's two boards: every player's first try (ranked), and their best run.
DAILY_BOARDS: dict[str, type[BoardLine]] = {"first": FirstTry, "best": DealBest}


_Line = TypeVar("_Line", bound=BoardLine)


def board_lines(deal_id: int, mode: str, model: type[_Line]) -> QuerySet[_Line]:
    lines: QuerySet[_Line] = (
        model._default_manager.filter(deal_id=deal_id, mode=mode)
        .select_related("player")
        .only(
            "player__username",
            "player__display_name",
            "mode",
            "lost",
            "cards_left",
            "moves",
            "time_ms",
            "score",
            "finished_at",
            "result_id",
            "deal_id",
        )
    )
    return lines


@dataclass(frozen=True)
class Rank:
    """A line's 1-based rank, and whether its board's rank set was cold (a daily board whose
    Redis set is not ready, so the rank was counted in PostgreSQL): a read never fills the set,
    the caller may ask ``services.warm_board_cache`` to."""

    value: int
    cold: bool


def line_rank(line: BoardLine) -> Rank:
    """The line's rank: from the Redis set when it is ready (daily deals' boards), else counted
    in PostgreSQL."""
    if line.mode == "daily":
        cached = cache.rank(line)
        if cached is not None:
            return Rank(cached, cold=False)
    db, sql, params = _lines_ahead(type(line), line.deal_id, line.mode, line_key(line.mode, line))
    with connections[db].cursor() as cursor:
        cursor.execute(sql, params)
        (ahead,) = cursor.fetchone()
    return Rank(ahead + 1, cold=line.mode == "daily")


def _lines_ahead(
    model: type[BoardLine], deal_id: int, mode: str, key: Key
) -> tuple[str, str, list[Any]]:
    """The database, statement and parameters that count the lines ahead of `key` on a deal's
    board. The statement is compiled once a board: the ORM built and compiled it for every
    ranked finish (680 us of CPU a count, 110 so)."""
    params = [deal_id, mode, *key]
    found = _ahead_statements.get((model, mode))
    if found is not None:
        return (*found, params)
    ahead = model._default_manager.filter(deal_id=deal_id, mode=mode).filter(
        TupleLessThan(Tuple(*order_of(mode)), key)
    )
    sql, compiled = ahead.values("pk").query.get_compiler(ahead.db).as_sql()
    statement = (ahead.db, f"SELECT COUNT(*) FROM ({sql}) AS a")
    if list(compiled) == params:  # the values go as they are: the statement serves every line
        _ahead_statements[model, mode] = statement
    return (*statement, list(compiled))


# (board model, mode) -> `_lines_ahead`'s database and statement.
_ahead_statements: dict[tuple[type[BoardLine], str], tuple[str, str]] = {}


def rank_of_line(line: BoardLine) -> int:
    """The line's 1-based rank (``line_rank`` without the set's state)."""
    return line_rank(line).value


def first_try_lines(line: FirstTry) -> int:
    """How many lines the first try's board has: from its rank set when it is ready, else
    counted."""
    total = cache.size(line)
    if total is None:
        total = board_lines(line.deal_id, line.mode, FirstTry).count()
    return total


def first_try_standing(line: FirstTry) -> tuple[int, int]:
    """A first try's rank and its board's size: from the rank set when it is ready, else
    counted."""
    return rank_of_line(line), first_try_lines(line)


@dataclass(frozen=True)
class Page:
    lines: Sequence[LinePayload] | Sequence[AllTimeLine]
    next_cursor: str | None
    me: LinePayload | AllTimeLine | None
    total: int
    # The viewer's rank was counted because the board's rank set is cold (see ``Rank``).
    cold: bool = False


def deal_board(
    record: DealRecord | None,
    *,
    limit: int = DEFAULT_LIMIT,
    cursor: str | None = None,
    viewer: Visitor | None = None,
    board: str = "best",
) -> Page:
    """One page of a daily or numbered deal's board, and the viewer's own line and rank.
    `board`: a daily deal's ``first`` (first tries) or ``best`` (best runs) board."""
    if record is None:
        if cursor:
            decode_cursor("deal-none", cursor, ())
        return Page([], None, None, 0)
    mode = record.mode
    model = DAILY_BOARDS[board] if mode == "daily" else DealBest
    kind = f"deal-{record.deal_id}" if model is DealBest else f"first-{record.deal_id}"
    columns = order_of(mode)
    lines = board_lines(record.deal_id, mode, model).order_by(*columns)
    start = 0
    if cursor:
        start, key = decode_cursor(kind, cursor, _cursor_types(mode))
        lines = lines.filter(TupleGreaterThan(Tuple(*columns), key))
    rows = list(lines[: limit + 1])
    page = [line_payload(line, start + i + 1) for i, line in enumerate(rows[:limit])]
    next_cursor = None
    if len(rows) > limit:
        next_cursor = encode_cursor(kind, start + limit, line_key(mode, rows[limit - 1]))
    me = None
    cold = False
    shown = list(zip(page, rows, strict=False))
    if viewer is not None and viewer.is_authenticated:
        mine = next((p for p, r in zip(page, rows, strict=False) if r.player_id == viewer.pk), None)
        if mine is None:
            own = board_lines(record.deal_id, mode, model).filter(player_id=viewer.pk).first()
            if own is not None:
                rank = line_rank(own)
                mine, cold = line_payload(own, rank.value), rank.cold
                shown.append((mine, own))
        me = mine
    total = record.lines if model is DealBest else board_lines(record.deal_id, mode, model).count()
    if record.mode == "daily" and record.day is not None and record.day < deal_day():
        _with_games(shown)
    return Page(page, next_cursor, me, total, cold)


def _with_games(lines: Sequence[tuple[LinePayload, BoardLine]]) -> None:
    """A past daily board's lines with their runs' games (one query): their replays are open."""
    games = dict(
        Result.objects.filter(pk__in=[row.result_id for _, row in lines]).values_list(
            "pk", "game_id"
        )
    )
    for payload, row in lines:
        payload["game"] = str(games[row.result_id])
