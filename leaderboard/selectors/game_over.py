"""What the game-over view shows of a finished game: the run, par, rank, news and statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING

from leaderboard.models import (
    Attempt,
    DealRecord,
    FirstTry,
    PlayerStats,
    Result,
    Standing,
)
from leaderboard.payloads import Announcement, GameOverPayload
from leaderboard.selectors.deal_boards import first_try_standing, rank_of_line
from leaderboard.selectors.shapes import line_payload, result_payload, stats_payload
from leaderboard.services.rows import player_line

if TYPE_CHECKING:
    from tripeaks.play.models import Game


def announcements(result: Result) -> list[Announcement]:
    what = f"deal #{result.number}" if result.mode == "numbered" else "today's deal"
    if result.mode == "daily" and result.day:
        what = f"the daily deal of {result.day.isoformat()}"
    news: list[Announcement] = []
    if result.first_win:
        news.append({"kind": "first_win", "text": f"You are the first to win {what}!"})
    if result.new_record:
        news.append({"kind": "record", "text": f"New record on {what}!"})
    if result.personal_best:
        news.append({"kind": "personal_best", "text": f"You beat your own best on {what}."})
    return news


def result_for_game(game: Game, result: Result | None = None) -> GameOverPayload | None:
    """What the game-over view shows: the run, par, rank, news, and updated statistics.

    `result` is the one the game's finish has just made; without it, it is read."""
    if result is None:
        result = Result.objects.filter(game_id=game.pk).first()
    if result is None:
        return None
    par = game.deal.par
    payload: GameOverPayload = {
        **result_payload(result),
        "par": par,
        "matched_par": bool(result.won and par is not None and result.moves <= par),
        "announcements": announcements(result),
        "board": None,
        "stats": None,
        "first_try": None,
    }
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
        # A run off the boards (`line_read`): the finish read the player's earlier line already.
        if own is None and not standing.line_read:
            # A run that did not rank (held, flagged): the line is the player's earlier best.
            own, lines = player_line(result.player_id, result.deal_id)
            if own is not None and type(game).player.is_cached(game):
                own.player = game.player  # the line's name
        elif lines is None and not standing.line_read:
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
                "best": {**line_payload(own, 0), "rank": None},
            }
    stats = standing.stats
    if stats is None:
        stats = PlayerStats.objects.filter(
            player_id=result.player_id, rules_key=result.rules_key
        ).first()
    payload["stats"] = stats_payload(stats)
    return payload
