"""The score a player sees and the server records, derived from the position alone.

The scheme (the one the Hevagames reference plays):
- 10 points for every layout card cleared. The score is computed from the current position, so an
  undo takes the points of the undone play back, and a restart takes all of them back.
- On a win only: 10 more for every card still in the stock, and a win bonus of
  500 - 2 per move - 1/2 per elapsed second, never below zero, rounded down to a whole point.
Drawing scores nothing; a lost (resigned) game keeps its card points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tripeaks.engine.game import State

CARD_POINTS = 10
STOCK_POINTS = 10
WIN_BONUS = 500
WIN_BONUS_PER_MOVE = 2
WIN_BONUS_PER_SECOND = 0.5


@dataclass(frozen=True, slots=True)
class Score:
    """A score and how it was made, to show the player."""

    cards: int
    stock: int
    win_bonus: int

    @property
    def total(self) -> int:
        return self.cards + self.stock + self.win_bonus


def score_breakdown(state: State, elapsed_seconds: float) -> Score:
    """The parts of the score of `state` after `elapsed_seconds` on the server's clock."""
    return Score(*_parts(state, elapsed_seconds))


def score(state: State, elapsed_seconds: float) -> int:
    """The score of `state` after `elapsed_seconds`: see the module docstring for the scheme.
    (Summed from the parts with no `Score` made: every move's step asks.)"""
    return sum(_parts(state, elapsed_seconds))


def _parts(state: State, elapsed_seconds: float) -> tuple[int, int, int]:
    """The card points, the stock points and the win bonus."""
    if not math.isfinite(elapsed_seconds) or elapsed_seconds < 0:
        raise ValueError(
            f"elapsed time must be a finite number of seconds, at least 0, not {elapsed_seconds!r}"
        )
    cards = CARD_POINTS * state.position.removed.bit_count()
    if state.status != "won":
        return cards, 0, 0
    raw = WIN_BONUS - WIN_BONUS_PER_MOVE * state.moves - WIN_BONUS_PER_SECOND * elapsed_seconds
    return cards, STOCK_POINTS * state.stock_left, max(0, math.floor(raw))


def longest_streak(state: State) -> int:
    """The most layout cards played one after another without a draw, along the current line of
    play (the positions since the deal or the last restart, after undos). Shown, never scored."""
    line = (*state.history, state.position)
    best = run = 0
    for before, after in zip(line, line[1:], strict=False):
        if after.removed != before.removed:
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best
