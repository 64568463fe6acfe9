"""The server's game clock: time with the cards visible (docs/fair-play.md, "One clock").

It starts when the deal is shown (the game's start), stops while paused (the cards are hidden),
starts again on resume (they are shown again) and stops at the end. The ranked time is this clock,
and the fair-play check times every move from the same moments (the move log's server times).

A `Clock` is the game row's two clock columns as a value: stopping or starting it gives a new
one, which a step (`play/steps.py`) carries to the row; nothing here changes a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tripeaks.play.models import Game


@dataclass(frozen=True, slots=True)
class Clock:
    elapsed_ms: int
    running_since: datetime | None

    @classmethod
    def of(cls, game: Game) -> Clock:
        return cls(game.elapsed_ms, game.running_since)

    def ms(self, now: datetime) -> int:
        return _ms(self.elapsed_ms, self.running_since, now)

    def stopped(self, now: datetime) -> Clock:
        return Clock(self.ms(now), None)

    def started(self, now: datetime) -> Clock:
        return self if self.running_since is not None else Clock(self.elapsed_ms, now)


def _ms(elapsed_ms: int, running_since: datetime | None, now: datetime) -> int:
    if running_since is None:
        return elapsed_ms
    return elapsed_ms + max(0, int((now - running_since).total_seconds() * 1000))


def clock_ms(game: Game, now: datetime) -> int:
    """`Clock.of(game).ms(now)`, with no clock made (every move's view asks)."""
    return _ms(game.elapsed_ms, game.running_since, now)
