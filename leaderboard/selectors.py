"""Reads of the leaderboard: boards, a player's own line and rank, statistics, game-over info.

Every board page is a bounded number of queries whatever its length (no N+1): the lines with
their players in one query, the board's record row, and the viewer's own line and rank.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.db.models.fields.tuple_lookups import (  # type: ignore[import-untyped]
    Tuple,
    TupleGreaterThan,
    TupleLessThan,
)

from leaderboard import cache
from leaderboard.boards import line_key, order_of
from leaderboard.models import (
    ALL_RULES,
    Attempt,
    BoardExclusion,
    BoardLine,
    DealBest,
    DealRecord,
    FirstTry,
    PlayerStats,
    Result,
)
from leaderboard.standing import Standing
from tripeaks.play.dealday import deal_day

if TYPE_CHECKING:
    from tripeaks.play.models import Game

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
RECENT_RESULTS = 20
WIN_RATE_MIN_GAMES = 20


class BadCursor(ValueError):
    """A cursor this server did not hand out (or for another board)."""


# --------------------------------------------------------------------------- shapes


def player_payload(user: Any) -> dict[str, Any]:
    return {"username": user.username, "display_name": user.display_name or user.username}


def line_payload(line: BoardLine, rank: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": player_payload(line.player),
        "won": not line.lost,
        "time_ms": line.time_ms,
        "moves": line.moves,
        "score": line.score,
        "cards_left": line.cards_left,
        "finished_at": line.finished_at.isoformat(),
    }


def _encode_cursor(kind: str, rank: int, key: tuple[Any, ...]) -> str:
    values = [v.isoformat() if isinstance(v, datetime) else v for v in key]
    raw = json.dumps({"b": kind, "r": rank, "k": values}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(kind: str, cursor: str, types: tuple[type, ...]) -> tuple[int, tuple[Any, ...]]:
    """(rank of the last line seen, its sort key) from a cursor, or BadCursor."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("b") != kind:
            raise BadCursor("the cursor belongs to another board")
        rank, values = data["r"], data["k"]
        if type(rank) is not int or rank < 1 or not isinstance(values, list):
            raise BadCursor("malformed cursor")
        if len(values) != len(types):
            raise BadCursor("malformed cursor")
        key: list[Any] = []
        for value, kind_of in zip(values, types, strict=True):
            if kind_of is datetime:
                parsed = datetime.fromisoformat(value)
                if parsed.tzinfo is None:
                    raise BadCursor("malformed cursor")
                key.append(parsed)
            elif kind_of in (int, bool) and type(value) is kind_of:
                key.append(value)
            elif kind_of is float and type(value) in (int, float):
                key.append(float(value))
            else:
                raise BadCursor("malformed cursor")
        return rank, tuple(key)
    except BadCursor:
        raise
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeDecodeError):
        raise BadCursor("malformed cursor") from None


# --------------------------------------------------------------------------- deal boards


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
DAILY_BOARDS: dict[str, type[Any]] = {"first": FirstTry, "best": DealBest}


def _lines(deal_id: int, mode: str, model: type[Any] = DealBest) -> QuerySet[Any]:
    lines: QuerySet[Any] = (
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


def rank_of_line(line: BoardLine) -> int:
    """The line's 1-based rank: from the Redis set when it is ready (daily deals' boards), else
    counted in PostgreSQL."""
    if line.mode == "daily":
        cached = cache.rank(line)
        if cached is not None:
            return cached
        _queue_rebuild(line.deal_id, cache.board_of(line))
    columns = order_of(line.mode)
    ahead = (
        type(line)
        ._default_manager.filter(deal_id=line.deal_id, mode=line.mode)
        .filter(TupleLessThan(Tuple(*columns), line_key(line.mode, line)))
    )
    return ahead.count() + 1


def first_try_standing(line: FirstTry) -> tuple[int, int]:
    """A first try's rank and its board's size: from the rank set when it is ready, else
    counted."""
    rank = rank_of_line(line)
    total = cache.size(line)
    if total is None:
        total = _lines(line.deal_id, line.mode, FirstTry).count()
    return rank, total


def _queue_rebuild(deal_id: int, board: str = "best") -> None:
    if cache.client() is None:
        return
    from leaderboard.tasks import rebuild_board_cache

    # No broker: the count in PostgreSQL still answers.
    with contextlib.suppress(Exception):
        rebuild_board_cache.delay(deal_id, board)


@dataclass(frozen=True)
class Page:
    lines: list[dict[str, Any]]
    next_cursor: str | None
    me: dict[str, Any] | None
    total: int


def deal_board(
    record: DealRecord | None,
    *,
    limit: int = DEFAULT_LIMIT,
    cursor: str | None = None,
    viewer: Any = None,
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
    lines = _lines(record.deal_id, mode, model).order_by(*columns)
    start = 0
    if cursor:
        start, key = decode_cursor(kind, cursor, _cursor_types(mode))
        lines = lines.filter(TupleGreaterThan(Tuple(*columns), key))
    rows = list(lines[: limit + 1])
    page = [line_payload(line, start + i + 1) for i, line in enumerate(rows[:limit])]
    next_cursor = None
    if len(rows) > limit:
        next_cursor = _encode_cursor(kind, start + limit, line_key(mode, rows[limit - 1]))
    me = None
    if viewer is not None and viewer.is_authenticated:
        mine = next((p for p, r in zip(page, rows, strict=False) if r.player_id == viewer.pk), None)
        if mine is None:
            own = _lines(record.deal_id, mode, model).filter(player_id=viewer.pk).first()
            if own is not None:
                mine = line_payload(own, rank_of_line(own))
        me = mine
    total = record.lines if model is DealBest else _lines(record.deal_id, mode, model).count()
    return Page(page, next_cursor, me, total)


# --------------------------------------------------------------------------- all-time boards


@dataclass(frozen=True)
class AllTimeBoard:
    value: str
    order: tuple[str, ...]  # descending columns, then player ascending
    where: Q


# Counted from clean first tries only (PlayerStats.board_*): no hint, not held, not hidden.
ALLTIME_BOARDS = {
    "daily-wins": AllTimeBoard("board_daily_won", ("board_daily_won",), Q(board_daily_won__gt=0)),
    "daily-streak": AllTimeBoard(
        "board_best_daily_streak",
        ("board_best_daily_streak",),
        Q(board_best_daily_streak__gt=0),
    ),
    "win-rate": AllTimeBoard(
        "board_win_rate",
        ("board_win_rate", "board_played"),
        Q(board_played__gte=WIN_RATE_MIN_GAMES),
    ),
}


def _ahead_of(board: AllTimeBoard, values: tuple[Any, ...], player_id: int) -> Q:
    """Rows ranking strictly before (values..., player_id) in board order."""
    ahead = Q()
    equal = Q()
    for column, value in zip(board.order, values, strict=True):
        ahead |= equal & Q(**{f"{column}__gt": value})
        equal &= Q(**{column: value})
    return ahead | (equal & Q(player_id__lt=player_id))


def _alltime_line(board: AllTimeBoard, stats: PlayerStats, rank: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "player": player_payload(stats.player),
        "value": getattr(stats, board.value),
        "played": stats.board_played,
        "won": stats.board_won,
        "win_rate": stats.board_win_rate,
        "daily_won": stats.board_daily_won,
        "best_daily_streak": stats.board_best_daily_streak,
    }


def alltime_board(
    name: str,
    *,
    rules_key: str = ALL_RULES,
    limit: int = DEFAULT_LIMIT,
    cursor: str | None = None,
    viewer: Any = None,
) -> Page:
    board = ALLTIME_BOARDS[name]
    rows_qs = (
        PlayerStats.objects.filter(board.where, rules_key=rules_key)
        .exclude(Exists(BoardExclusion.objects.filter(player_id=OuterRef("player_id"))))
        .exclude(player__is_guest=True)  # guests never rank (accounts, issue 20)
        .select_related("player")
    )
    ordered = rows_qs.order_by(*(F(c).desc() for c in board.order), "player_id")
    kind = f"alltime-{name}-{rules_key}"
    types = tuple(float if c.endswith("win_rate") else int for c in board.order) + (int,)
    start = 0
    if cursor:
        start, key = decode_cursor(kind, cursor, types)
        ordered = ordered.exclude(_ahead_of(board, key[:-1], key[-1])).exclude(player_id=key[-1])
    rows = list(ordered[: limit + 1])
    page = [_alltime_line(board, s, start + i + 1) for i, s in enumerate(rows[:limit])]
    next_cursor = None
    if len(rows) > limit:
        last = rows[limit - 1]
        values = tuple(getattr(last, c) for c in board.order) + (last.player_id,)
        next_cursor = _encode_cursor(kind, start + limit, values)
    me = None
    if viewer is not None and viewer.is_authenticated:
        mine = next((p for p, r in zip(page, rows, strict=False) if r.player_id == viewer.pk), None)
        if mine is None:
            own = rows_qs.filter(player_id=viewer.pk).first()
            if own is not None:
                values = tuple(getattr(own, c) for c in board.order)
                rank = rows_qs.filter(_ahead_of(board, values, own.player_id)).count() + 1
                mine = _alltime_line(board, own, rank)
        me = mine
    return Page(page, next_cursor, me, rows_qs.count())


# --------------------------------------------------------------------------- statistics


def stats_payload(stats: PlayerStats | None, today: date | None = None) -> dict[str, Any]:
    if stats is None:
        stats = PlayerStats()
    today = today or deal_day()
    alive = stats.last_daily_day is not None and stats.last_daily_day >= today - timedelta(days=1)
    return {
        "played": stats.played,
        "won": stats.won,
        "lost": stats.lost,
        "win_rate": stats.win_rate,
        "current_streak": stats.current_streak,
        "best_streak": stats.best_streak,
        "best_win_ms": stats.best_win_ms,
        "average_win_ms": stats.average_win_ms,
        "daily_won": stats.daily_won,
        # A missed day ends the streak: it is alive while the last won day is today or yesterday.
        "daily_streak": stats.daily_streak if alive else 0,
        "best_daily_streak": stats.best_daily_streak,
        "last_daily_day": stats.last_daily_day.isoformat() if stats.last_daily_day else None,
    }


def result_payload(result: Result) -> dict[str, Any]:
    return {
        "mode": result.mode,
        "rules": result.rules_key,
        "layout": result.layout,
        "day": result.day.isoformat() if result.day else None,
        "number": result.number,
        "won": result.won,
        "cards_left": result.cards_left,
        "moves": result.moves,
        "time_ms": result.time_ms,
        "score": result.score,
        "assisted": result.assisted,
        "ranked": result.ranked,
        "attempt": result.attempt,
        "held": result.held,
        "finished_at": result.finished_at.isoformat(),
    }


def player_stats(user: Any, *, owner: bool = True) -> dict[str, Any]:
    """A player's statistics per rule set and overall, and their last 20 results (2 queries).
    Runs held for review are listed (marked ``held``) to their `owner` only."""
    today = deal_day()
    rows = {s.rules_key: s for s in PlayerStats.objects.filter(player_id=user.pk)}
    recent = Result.objects.filter(player_id=user.pk)
    if not owner:
        recent = recent.filter(held=False)
    recent = recent.order_by("-finished_at", "-id")[:RECENT_RESULTS]
    return {
        "player": player_payload(user),
        "overall": stats_payload(rows.pop(ALL_RULES, None), today),
        "rules": {key: stats_payload(rows[key], today) for key in sorted(rows)},
        "recent": [result_payload(r) for r in recent],
    }


# --------------------------------------------------------------------------- game over


def announcements(result: Result) -> list[dict[str, str]]:
    what = f"deal #{result.number}" if result.mode == "numbered" else "today's deal"
    if result.mode == "daily" and result.day:
        what = f"the daily deal of {result.day.isoformat()}"
    news = []
    if result.first_win:
        news.append({"kind": "first_win", "text": f"You are the first to win {what}!"})
    if result.new_record:
        news.append({"kind": "record", "text": f"New record on {what}!"})
    if result.personal_best:
        news.append({"kind": "personal_best", "text": f"You beat your own best on {what}."})
    return news


def result_for_game(game: Game, result: Result | None = None) -> dict[str, Any] | None:
    """What the game-over view shows: the run, par, rank, news, and updated statistics.

    `result` is the one the game's finish has just made; without it, it is read."""
    if result is None:
        result = Result.objects.filter(game_id=game.pk).first()
    if result is None:
        return None
    par = game.deal.par
    payload = result_payload(result)
    payload.update(
        par=par,
        matched_par=bool(result.won and par is not None and result.moves <= par),
        announcements=announcements(result),
        board=None,
        stats=None,
    )
    payload["first_try"] = None
    if not result.ranked:
        return payload
    standing = result.standing or Standing()
    if result.mode == "daily" and result.attempt == Attempt.FIRST_TRY and result.on_boards:
        # The ranked board: where this first try stands on it.
        rank, lines_now = standing.first_try_rank, standing.first_try_lines
        if rank is None or lines_now is None:
            first = FirstTry.objects.filter(result_id=result.pk).first()
            if first is not None:
                rank, lines_now = first_try_standing(first)
        if rank is not None:
            payload["first_try"] = {"rank": rank, "lines": lines_now}
    if result.mode in ("daily", "numbered"):
        own, lines = standing.line, standing.lines
        if own is None:
            own = _lines(result.deal_id, result.mode).filter(player_id=result.player_id).first()
        if lines is None:
            record = DealRecord.objects.filter(deal_id=result.deal_id).first()
            lines = None if record is None else record.lines
        if own is not None and lines is not None:
            payload["board"] = {
                "mode": result.mode,
                "rules": result.rules_key,
                "day": payload["day"],
                "number": result.number,
                "rank": standing.rank or rank_of_line(own),
                "lines": lines,
                "this_run": own.result_id == result.pk,
                "best": line_payload(own, 0) | {"rank": None},
            }
    stats = standing.stats
    if stats is None:
        stats = PlayerStats.objects.filter(
            player_id=result.player_id, rules_key=result.rules_key
        ).first()
    payload["stats"] = stats_payload(stats)
    return payload
