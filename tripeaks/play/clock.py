"""The server's game clock: it starts with the first move, stops while paused and at the end."""

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
