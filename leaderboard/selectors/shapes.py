"""How the leaderboard's rows look in an answer: players, board lines, statistics, results."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from leaderboard.models import BoardLine, PlayerStats, Result
from leaderboard.payloads import LinePayload, PlayerPayload, ResultPayload, StatsPayload
from tripeaks.play.dealday import deal_day


def player_payload(user: Any) -> PlayerPayload:
    return {"username": user.username, "display_name": user.display_name or user.username}


def line_payload(line: BoardLine, rank: int) -> LinePayload:
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


def stats_payload(stats: PlayerStats | None, today: date | None = None) -> StatsPayload:
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


def result_payload(result: Result) -> ResultPayload:
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
