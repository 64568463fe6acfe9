"""What the transaction that finishes a game learnt about the run, kept with its ``Result`` so that
the game-over view and the live board need not read it back (a game's ending move used to read
six rows again after its commit, while every other finish on the deal queued behind it)."""

from __future__ import annotations

from dataclasses import dataclass

from leaderboard.models import DealBest, FirstTry, PlayerStats


@dataclass
class Standing:
    # The player's statistics row of the run's rule set, as updated.
    stats: PlayerStats | None = None
    # The player's line on the deal's board (this run's or an earlier better one), if it ranks.
    line: DealBest | None = None
    # The board's number of lines and version as this finish left them; None when not learnt.
    lines: int | None = None
    version: int | None = None
    # The line's rank, once the board's set holds it (after commit).
    rank: int | None = None
    # The run's line on the daily deal's first-try board, when it is the player's first try.
    first_try: FirstTry | None = None
    # Its rank and the first-try board's size, once its set holds it (after commit).
    first_try_rank: int | None = None
    first_try_lines: int | None = None
