"""The all-time boards: players ranked by what their clean first tries add up to."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, F, OuterRef, Q

from leaderboard.boards import Key
from leaderboard.models import ALL_RULES, BoardExclusion, PlayerStats
from leaderboard.payloads import AllTimeLine
from leaderboard.selectors.cursors import BadCursor, decode_cursor, encode_cursor
from leaderboard.selectors.deal_boards import DEFAULT_LIMIT, Page
from leaderboard.selectors.shapes import player_payload
from tripeaks.play.visitors import Visitor

WIN_RATE_MIN_GAMES = 20


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


def _ahead_of(board: AllTimeBoard, values: Key, player_id: int) -> Q:
    """Rows ranking strictly before (values..., player_id) in board order."""
    ahead = Q()
    equal = Q()
    for column, value in zip(board.order, values, strict=True):
        ahead |= equal & Q(**{f"{column}__gt": value})
        equal &= Q(**{column: value})
    return ahead | (equal & Q(player_id__lt=player_id))


def _alltime_line(board: AllTimeBoard, stats: PlayerStats, rank: int) -> AllTimeLine:
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
    viewer: Visitor | None = None,
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
        player_id = key[-1]
        if not isinstance(player_id, int):  # decoded as `types` says: never
            raise BadCursor("malformed cursor")
        ordered = ordered.exclude(_ahead_of(board, key[:-1], player_id)).exclude(
            player_id=player_id
        )
    rows = list(ordered[: limit + 1])
    page = [_alltime_line(board, s, start + i + 1) for i, s in enumerate(rows[:limit])]
    next_cursor = None
    if len(rows) > limit:
        last = rows[limit - 1]
        values = tuple(getattr(last, c) for c in board.order) + (last.player_id,)
        next_cursor = encode_cursor(kind, start + limit, values)
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
