"""What play tells the apps above it, without importing them.

`game_finished` is sent inside the transaction that stores a game's end (with the game row
locked), so a receiver's writes (a race's places, an arena's points) commit with the finish or not
at all. Keyword arguments: `game` (the finished Game), `result` (its leaderboard Result or None).
"""

from __future__ import annotations

from django.dispatch import Signal

game_finished = Signal()
