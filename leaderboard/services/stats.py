"""A player's statistics rows on the finishing path: locked (with what fair play must know of the
run, asked in the same query), the result counted in, and stored with one statement. Streaks of
daily wins are counted on as days come; a day won out of order is counted again from the
results.

``services.recompute`` rebuilds the same rows from the results with its own code, so a test can
check that the two agree.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING

from django.db import DEFAULT_DB_ALIAS, connection, connections

from leaderboard import fairplay
from leaderboard.models import ALL_RULES, ALL_TIME_RUNS, PlayerStats, Result
from tripeaks.infra.bulk_rows import Statement, update_statement
from tripeaks.infra.model_rows import Selected, columns, field_columns, select_rows
from tripeaks.infra.row_locks import for_update

if TYPE_CHECKING:
    from tripeaks.play.models import Game


def lock_stats(game: Game, rules_key: str) -> tuple[Sequence[PlayerStats], fairplay.Facts]:
    """The player's statistics rows of the rule set and overall, locked (made for a new player),
    and what fair play must know of the run (``fairplay``), asked in the query that locks them."""
    player_id = game.player_id
    wanted = sorted({rules_key, ALL_RULES})
    answers_sql, answers_params = fairplay.columns(game)
    sql, selected = _lock_stats_sql(len(wanted), answers_sql)
    db = connections[DEFAULT_DB_ALIAS]  # the connection itself: the proxy looks it up each use
    player = PlayerStats.player.field.get_db_prep_value(player_id, db)
    params = [*answers_params, wanted[0], player, *wanted]
    rows = select_rows(PlayerStats, sql, selected, params)
    if len(rows) != len(wanted):  # a new player: make their rows
        PlayerStats.objects.bulk_create(
            [PlayerStats(player_id=player_id, rules_key=key) for key in wanted],
            ignore_conflicts=True,
        )
        rows = select_rows(PlayerStats, sql, selected, params)
    facts = fairplay.facts(game, rows[0][1])  # the first row's (the others' are NULL)
    return [stats for stats, _ in rows], facts


@functools.cache
def _lock_stats_sql(keys: int, answers: str) -> tuple[str, Selected]:
    """``SELECT ... FOR UPDATE`` of a player's statistics rows of `keys` rule keys, in rules key
    order, with the `answers` columns of ``fairplay`` on the first row only (the first key's:
    the others' are NULL, so the move log's arrays are sent and loaded once, not once a row);
    and what each column holds."""
    quote = connection.ops.quote_name
    meta = PlayerStats._meta
    player, rules_key = (
        quote(PlayerStats.player.field.column),
        quote(PlayerStats.rules_key.field.column),
    )
    sql = (
        f"SELECT {columns(PlayerStats, 's')[0]}, a.*"
        f" FROM {quote(meta.db_table)} s"
        f" LEFT JOIN LATERAL (SELECT {answers}) a ON s.{rules_key} = %s"
        f" WHERE s.{player} = %s"
        f" AND s.{rules_key} IN ({', '.join(['%s'] * keys)})"
        f" ORDER BY s.{rules_key}{for_update(of='s')}"
    )
    return sql, Selected([*field_columns(PlayerStats, "s"), *fairplay.answer_types()])


def count_in_stats(
    result: Result, rows: Sequence[PlayerStats]
) -> tuple[PlayerStats | None, Statement]:
    """Count the result in the player's locked statistics rows: their row of its rule set, and
    the statement that stores them all (every column ``save()`` writes but the identity, never
    counted), for the caller to run (``bulk_rows.run``) or to send with its next read."""
    own = None
    for stats in rows:
        stats.played += 1
        if result.won:
            stats.won += 1
            stats.current_streak += 1
            stats.best_streak = max(stats.best_streak, stats.current_streak)
            stats.total_win_ms += result.time_ms
            if stats.best_win_ms is None or result.time_ms < stats.best_win_ms:
                stats.best_win_ms = result.time_ms
        else:
            stats.current_streak = 0
        stats.win_rate = stats.won / stats.played
        if result.won and result.mode == "daily" and result.day is not None:
            _count_daily_win(stats, result.day)
        if result.counts_all_time:
            _count_on_boards(stats, result)
        if stats.rules_key == result.rules_key:
            own = stats
    return own, update_statement(rows, _COUNTED)


_COUNTED = [
    field.name
    for field in PlayerStats._meta.concrete_fields
    if not field.primary_key and field.name not in ("player", "rules_key")
]


def _count_daily_win(stats: PlayerStats, day: date) -> None:
    last = stats.last_daily_day
    if last == day:
        return  # that day was already won
    if last is None or day > last:
        stats.daily_streak = stats.daily_streak + 1 if last == day - timedelta(days=1) else 1
        stats.last_daily_day = day
        stats.daily_won += 1
        stats.best_daily_streak = max(stats.best_daily_streak, stats.daily_streak)
        return
    # An older day won after a newer one (rare: a game finished after the next day's): count
    # the won days again from the results, which already include this one.
    days = won_daily_days(stats.player_id, stats.rules_key)
    stats.daily_won = len(days)
    stats.daily_streak, stats.best_daily_streak = daily_streaks(days)
    stats.last_daily_day = days[-1] if days else None


def _count_on_boards(stats: PlayerStats, result: Result) -> None:
    """Count a clean first try in what the all-time boards rank (``board_*``)."""
    stats.board_played += 1
    stats.board_won += result.won
    stats.board_win_rate = stats.board_won / stats.board_played
    if not (result.won and result.mode == "daily" and result.day is not None):
        return
    last, day = stats.board_last_daily_day, result.day
    if last == day:
        return
    if last is None or day > last:
        streak = stats.board_daily_streak + 1 if last == day - timedelta(days=1) else 1
        stats.board_daily_streak, stats.board_last_daily_day = streak, day
        stats.board_daily_won += 1
        stats.board_best_daily_streak = max(stats.board_best_daily_streak, streak)
        return
    days = won_daily_days(stats.player_id, stats.rules_key, all_time_boards=True)
    stats.board_daily_won = len(days)
    stats.board_daily_streak, stats.board_best_daily_streak = daily_streaks(days)
    stats.board_last_daily_day = days[-1] if days else None


def won_daily_days(player_id: int, rules_key: str, *, all_time_boards: bool = False) -> list[date]:
    """The days whose daily deal the player won (`all_time_boards`: with a clean first try)."""
    results = Result.objects.filter(player_id=player_id, mode="daily", won=True, ranked=True)
    if all_time_boards:
        results = results.filter(ALL_TIME_RUNS)
    if rules_key != ALL_RULES:
        results = results.filter(rules_key=rules_key)
    return sorted({day for day in results.values_list("day", flat=True) if day is not None})


def daily_streaks(days: list[date]) -> tuple[int, int]:
    """(the run of consecutive days ending at the last one, the longest run) of sorted days."""
    run = best = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day == previous + timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    return run, best
