"""Reads of the leaderboard."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from leaderboard.models import Result

if TYPE_CHECKING:
    from tripeaks.play.models import Game


def result_for_game(game: Game) -> dict[str, Any] | None:
    result = Result.objects.filter(game_id=game.pk).first()
    if result is None:
        return None
    return {
        "won": result.won,
        "cards_left": result.cards_left,
        "moves": result.moves,
        "time_ms": result.time_ms,
    }
