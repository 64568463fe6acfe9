"""Rebuild statistics, bests and records from the results table (the truth).

Written independently of the incremental path (``services.results`` and ``services.stats``:
aggregates and set-based SQL here, one result at a time there; this module imports none of their
code, its streaks included), so a test can check that the two always agree.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Min, Q, QuerySet, Sum

from leaderboard import cache
from leaderboard.boards import order_of
from leaderboard.models import (
    ALL_RULES,
    ALL_TIME_RUNS,
    BOARD_MODES,
    Attempt,
    DealBest,
    DealRecord,
    FirstTry,
    PlayerStats,
    Result,
)


def _streaks(outcomes: Iterable[bool]) -> tuple[int, int]:
    current = best = 0
    for won in outcomes:
        current = current + 1 if won else 0
        best = max(best, current)
    return current, best


def _daily_streaks(days: list[date]) -> tuple[int, int]:
    """(the run of consecutive days ending at the last one, the longest run) of sorted days."""
    current = best = 0
    for i, day in enumerate(days):
        current = current + 1 if i and (day - days[i - 1]).days == 1 else 1
        best = max(best, current)
    return current, best


@transaction.atomic
def recompute_stats(player_ids: Iterable[int] | None = None) -> int:
    """Replace the statistics of these players (default: everybody); returns rows written."""
    results = Result.objects.filter(ranked=True, in_stats=True)
    stats = PlayerStats.objects.all()
    if player_ids is not None:
        ids = list(player_ids)
        results = results.filter(player_id__in=ids)
        stats = stats.filter(player_id__in=ids)
    # Lock what is replaced: a game finishing meanwhile waits, then counts on top.
    list(stats.select_for_update().values_list("pk", flat=True))
    stats.delete()
    rows = _counted(results)
    _count_streaks(results, rows)
    PlayerStats.objects.bulk_create(rows.values(), batch_size=2000)
    return len(rows)


def _counted(results: QuerySet[Result]) -> dict[tuple[int, str], PlayerStats]:
    """The statistics rows of `results`' players, per rule set and overall, with their counts."""
    rows: dict[tuple[int, str], PlayerStats] = {}
    for group in (("player_id", "rules_key"), ("player_id",)):
        aggregates = results.values(*group).annotate(
            n=Count("id"),
            w=Count("id", filter=Q(won=True)),
            total=Sum("time_ms", filter=Q(won=True)),
            fastest=Min("time_ms", filter=Q(won=True)),
            board_n=Count("id", filter=ALL_TIME_RUNS),
            board_w=Count("id", filter=ALL_TIME_RUNS & Q(won=True)),
        )
        for row in aggregates:
            key = (row["player_id"], row.get("rules_key", ALL_RULES))
            rows[key] = PlayerStats(
                player_id=key[0],
                rules_key=key[1],
                played=row["n"],
                won=row["w"],
                win_rate=row["w"] / row["n"],
                total_win_ms=row["total"] or 0,
                best_win_ms=row["fastest"],
                board_played=row["board_n"],
                board_won=row["board_w"],
                board_win_rate=row["board_w"] / row["board_n"] if row["board_n"] else 0.0,
            )
    return rows


def _count_streaks(results: QuerySet[Result], rows: dict[tuple[int, str], PlayerStats]) -> None:
    """Set the rows' streaks (of wins, of daily wins, of clean daily first tries) from
    `results` in the order they finished."""
    outcomes: dict[tuple[int, str], list[bool]] = defaultdict(list)
    daily: dict[tuple[int, str], set[date]] = defaultdict(set)
    board_daily: dict[tuple[int, str], set[date]] = defaultdict(set)
    ordered = results.order_by("finished_at", "id").values_list(
        "player_id", "rules_key", "won", "mode", "day", "attempt", "assisted", "hidden", "held"
    )
    for player_id, rules_key, won, mode, day, attempt, assisted, hidden, held in ordered.iterator(
        chunk_size=5000
    ):
        counts_all_time = attempt == Attempt.FIRST_TRY and not (assisted or hidden or held)
        for key in ((player_id, rules_key), (player_id, ALL_RULES)):
            outcomes[key].append(won)
            if won and mode == "daily" and day is not None:
                daily[key].add(day)
                if counts_all_time:
                    board_daily[key].add(day)
    for key, stat in rows.items():
        stat.current_streak, stat.best_streak = _streaks(outcomes[key])
        days = sorted(daily[key])
        stat.daily_won = len(days)
        stat.daily_streak, stat.best_daily_streak = _daily_streaks(days)
        stat.last_daily_day = days[-1] if days else None
        days = sorted(board_daily[key])
        stat.board_daily_won = len(days)
        stat.board_daily_streak, stat.board_best_daily_streak = _daily_streaks(days)
        stat.board_last_daily_day = days[-1] if days else None


def _order_sql(mode: str) -> str:
    columns = {"lost": "NOT won", "result_id": "id"}
    return ", ".join(columns.get(column, column) for column in order_of(mode))


# A result that ranks on its deal's boards: Result.on_boards, as SQL.
_RANKS = (
    "deal_id = %s AND ranked AND NOT assisted AND NOT hidden AND NOT held"
    f" AND attempt <> '{Attempt.UNRANKED.value}'"
)
_LINE_COLUMNS = (
    "player_id, deal_id, result_id, mode, rules_key, lost, cards_left, moves, time_ms, score,"
    " finished_at"
)
_LINE_VALUES = (
    "player_id, deal_id, id, mode, rules_key, NOT won, cards_left, moves, time_ms, score,"
    " finished_at"
)


@transaction.atomic
def rebuild_deal(deal_id: int) -> None:
    """Rebuild one board deal's lines and record from its results."""
    # The rank set may hold lines that are gone (a hidden run): forget it; reads rebuild it.
    transaction.on_commit(lambda: cache.drop(deal_id))
    record = DealRecord.objects.select_for_update().filter(deal_id=deal_id).first()
    sample = (
        Result.objects.filter(deal_id=deal_id)
        .values("mode", "rules_key", "layout", "day", "number")
        .first()
    )
    DealBest.objects.filter(deal_id=deal_id).delete()
    FirstTry.objects.filter(deal_id=deal_id).delete()
    if sample is None or sample["mode"] not in BOARD_MODES:
        DealRecord.objects.filter(deal_id=deal_id).delete()
        return
    best, first = _insert_lines(deal_id, sample["mode"])
    if best is None:
        DealRecord.objects.filter(deal_id=deal_id).delete()
        return
    best_result = Result.objects.get(pk=best)
    first_result = Result.objects.get(pk=first) if first is not None else None
    fields: dict[str, Any] = {
        **sample,
        "lines": DealBest.objects.filter(deal_id=deal_id).count(),
        "version": (record.version + 1) if record else 0,
        "best": best_result,
        "holder_id": best_result.player_id,
        "set_at": best_result.finished_at,
        "first_winner_id": first_result.player_id if first_result else None,
        "first_win": first_result,
        "first_won_at": first_result.finished_at if first_result else None,
    }
    DealRecord.objects.update_or_create(deal_id=deal_id, defaults=fields)


def _insert_lines(deal_id: int, mode: str) -> tuple[int | None, int | None]:
    """Insert the deal's board lines (each player's best run; a daily deal's first tries too)
    from its results. The ids of the best result and of the first win, if any."""
    order = _order_sql(mode)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO leaderboard_dealbest ({_LINE_COLUMNS})"
            f" SELECT DISTINCT ON (player_id) {_LINE_VALUES}"
            f" FROM leaderboard_result WHERE {_RANKS} ORDER BY player_id, {order}",
            [deal_id],
        )
        if mode == "daily":
            cursor.execute(
                f"INSERT INTO leaderboard_firsttry ({_LINE_COLUMNS}) SELECT {_LINE_VALUES}"
                f" FROM leaderboard_result"
                f" WHERE {_RANKS} AND attempt = '{Attempt.FIRST_TRY.value}'",
                [deal_id],
            )
        cursor.execute(
            f"SELECT id FROM leaderboard_result WHERE {_RANKS} ORDER BY {order} LIMIT 1",
            [deal_id],
        )
        best = cursor.fetchone()
        cursor.execute(
            f"SELECT id FROM leaderboard_result WHERE {_RANKS} AND won"
            " ORDER BY finished_at, id LIMIT 1",
            [deal_id],
        )
        first = cursor.fetchone()
    return (best[0] if best else None), (first[0] if first else None)


def rebuild_boards() -> int:
    """Rebuild every board deal's lines and record; returns how many deals."""
    deal_ids = list(
        Result.objects.filter(mode__in=BOARD_MODES).values_list("deal_id", flat=True).distinct()
    )
    for deal_id in deal_ids:
        rebuild_deal(deal_id)
    return len(deal_ids)
