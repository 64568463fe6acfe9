"""Write paths of the leaderboard: the one call through which play reports a finished game."""

from __future__ import annotations

from typing import TYPE_CHECKING

from leaderboard.models import Result

if TYPE_CHECKING:
    from tripeaks.play.models import Game


def record_result(*, game: Game) -> Result:
    """Store a finished game's result; called once, inside the transaction that finishes the game."""
    assert game.finished_at is not None
    return Result.objects.create(
        player_id=game.player_id,
        game=game,
        deal_id=game.deal_id,
        mode=game.deal.source,
        rules_key=game.deal.rules_key,
        layout=game.deal.layout,
        won=game.status == "won",
        cards_left=game.cards_left,
        moves=game.moves,
        time_ms=game.elapsed_ms,
        score=game.score,
        assisted=game.assisted,
        finished_at=game.finished_at,
    )
