"""Fair play: runs whose timing no human can match are held off the boards and flagged for staff;
staff can take a player off every board at once.

The timing is measured from the move log's *server* timestamps (``Move.at``), so nothing the
client sends can make a run look slower or faster than it was played.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Count, Exists, Subquery

TIMED_ACTIONS = ("play", "draw", "undo")


def timing(game_id: Any) -> tuple[Subquery, Subquery, Subquery]:
    """A finished game's timed moves as expressions: how many, when the first and when the last
    was played. ``record_result`` asks them in the query that locks the player's statistics rows,
    which runs anyway; `timing_flag` reads the answers."""
    from tripeaks.play.models import Move

    timed = Move.objects.filter(game_id=game_id, action__in=TIMED_ACTIONS)
    return (
        Subquery(timed.order_by().values("game_id").annotate(count=Count("pk")).values("count")),
        Subquery(timed.order_by("seq").values("at")[:1]),
        Subquery(timed.order_by("-seq").values("at")[:1]),
    )


def timing_flag(moves: int | None, first: datetime | None, last: datetime | None) -> str:
    """Why a finished game's timing (its `timing`) is not humanly possible, or "" when it is."""
    floor_ms = settings.FAIR_PLAY_MIN_MS_PER_MOVE
    if floor_ms <= 0 or first is None or last is None:
        return ""
    moves = moves or 0
    if moves < max(2, settings.FAIR_PLAY_MIN_MOVES):
        return ""
    average_ms = (last - first).total_seconds() * 1000 / (moves - 1)
    if average_ms >= floor_ms:
        return ""
    return f"{moves} moves at {average_ms:.0f} ms a move on average (under {floor_ms} ms)"


def excluded(player_id: Any) -> Exists:
    """Whether staff took the player off the boards, as an expression: ``record_result`` asks it
    in the query that locks the player's statistics rows, which runs anyway."""
    from leaderboard.models import BoardExclusion

    return Exists(BoardExclusion.objects.filter(player_id=player_id))
