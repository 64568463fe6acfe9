"""Play's `game_finished` for race games (tripeaks/play/signals.py): inside the finishing
transaction, with the game row locked; it locks the race row only (see services' lock order)."""

from __future__ import annotations

from typing import Any

from tripeaks.play.models import Game


def on_game_finished(sender: Any, game: Game, result: Any, **kwargs: Any) -> None:
    if not game.contest.startswith("race-"):
        return
    from tripeaks.races.services import record_finish

    record_finish(game=game)
