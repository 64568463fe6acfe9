"""The server's game clock: time with the cards visible (docs/fair-play.md, "One clock").

It starts when the deal is shown (the game's start), stops while paused (the cards are hidden),
starts again on resume (they are shown again) and stops at the end. The ranked time is this clock,
and the fair-play check times every move from the same moments (the move log's server times).
"""

from __future__ import annotations

from datetime import datetime

from tripeaks.play.models import Game


def clock_ms(game: Game, now: datetime) -> int:
    running = 0
    if game.running_since is not None:
        running = max(0, int((now - game.running_since).total_seconds() * 1000))
    return game.elapsed_ms + running


def stop_clock(game: Game, now: datetime) -> None:
    game.elapsed_ms = clock_ms(game, now)
    game.running_since = None


def start_clock(game: Game, now: datetime) -> None:
    if game.running_since is None:
        game.running_since = now
