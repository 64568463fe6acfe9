"""Fair play: runs whose timing no human can match are held off the boards and flagged for staff;
staff can take a player off every board at once.

The timing is measured from the move log's *server* timestamps (``Move.at``), so nothing the
client sends can make a run look slower or faster than it was played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db.models import Exists

if TYPE_CHECKING:
    from tripeaks.play.models import Game

TIMED_ACTIONS = ("play", "draw", "undo")


def timing_flag(game: Game) -> str:
    """Why this finished game's timing is not humanly possible, or "" when it is."""
    floor_ms = settings.FAIR_PLAY_MIN_MS_PER_MOVE
    if floor_ms <= 0:
        return ""
    times = list(
        game.log.filter(action__in=TIMED_ACTIONS).order_by("seq").values_list("at", flat=True)
    )
    if len(times) < max(2, settings.FAIR_PLAY_MIN_MOVES):
        return ""
    average_ms = (times[-1] - times[0]).total_seconds() * 1000 / (len(times) - 1)
    if average_ms >= floor_ms:
        return ""
    return f"{len(times)} moves at {average_ms:.0f} ms a move on average (under {floor_ms} ms)"


def excluded(player_id: Any) -> Exists:
    """Whether staff took the player off the boards, as an expression: ``record_result`` asks it
    in the query that locks the player's statistics rows, which runs anyway."""
    from leaderboard.models import BoardExclusion

    return Exists(BoardExclusion.objects.filter(player_id=player_id))
