"""Play's `game_finished` (tripeaks/play/signals.py), sent inside the transaction that stores a
game's end: the game's analysis is asked of the solver's worker once that commits (a rolled-back
finish asks nothing), deferred to the drain task (review/queue.py)."""

from __future__ import annotations

from django.db import transaction

from tripeaks.play.models import Game
from tripeaks.review.queue import defer_analysis


def on_game_finished(sender: object, game: Game, **kwargs: object) -> None:
    if game.started_at is None:  # no move was made: nothing to review unless somebody asks
        return
    game_id = game.pk
    transaction.on_commit(lambda: defer_analysis(game_id))
