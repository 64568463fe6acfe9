"""The ranking orders of the boards, in one place (product rules: ../shared/DESIGN.md).

- Daily deal: wins first, then shorter server time, then fewer moves, then who finished first.
- Numbered deal: fewest cards left, then fewest moves, then who got there first.
- The last column, the result's id, only makes the order total (two runs finishing at the same
  microsecond): the earlier stored run ranks first.

Every order ascends on every column, so "is this line ahead of that one?" is a row comparison
``(a, b, c, ...) < (x, y, z, ...)`` that PostgreSQL answers by walking the board's index.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

DAILY_ORDER = ("lost", "time_ms", "moves", "finished_at", "result_id")
NUMBERED_ORDER = ("cards_left", "moves", "finished_at", "result_id")
ORDERS = {"daily": DAILY_ORDER, "numbered": NUMBERED_ORDER}


# A board line's columns in its board's order: a sort key, a cursor's position.
Column = int | float | datetime
Key = tuple[Column, ...]


class Run(Protocol):
    """A Result or a DealBest: both carry these."""

    @property
    def cards_left(self) -> int: ...
    @property
    def moves(self) -> int: ...
    @property
    def time_ms(self) -> int: ...
    @property
    def finished_at(self) -> datetime: ...


class Line(Run, Protocol):
    """A board line (DealBest, FirstTry, or the rows a board's set is rebuilt from)."""

    @property
    def lost(self) -> bool: ...
    @property
    def result_id(self) -> int: ...


def order_of(mode: str) -> tuple[str, ...]:
    return ORDERS[mode]


def run_key(mode: str, run: Run, *, won: bool, tie: int) -> Key:
    """The sort key of a run on `mode`'s board (smaller ranks higher); `tie` is the id column."""
    if mode == "daily":
        return (not won, run.time_ms, run.moves, run.finished_at, tie)
    return (run.cards_left, run.moves, run.finished_at, tie)


def line_key(mode: str, line: Line) -> Key:
    """The sort key of a DealBest line (its columns, in the board's order)."""
    return tuple(getattr(line, column) for column in order_of(mode))


def improves(mode: str, new: Run, old: Run) -> bool:
    """Does run `new` rank strictly higher than `old` (ties go to the earlier run, i.e. `old`)?"""
    a = run_key(mode, new, won=_won(new), tie=0)[:-1]
    b = run_key(mode, old, won=_won(old), tie=0)[:-1]
    return a < b


def _won(run: Run) -> bool:
    """A Result says `won`; a board line says `lost`."""
    won = getattr(run, "won", None)
    if won is None:
        return not getattr(run, "lost")  # noqa: B009 (a board line has it; a Run need not)
    return bool(won)


def redis_member(mode: str, line: Line, player_id: int) -> str:
    """A fixed-width string whose byte order is the board order (for a Redis sorted set whose
    scores are all 0, so members sort lexicographically); the player id ends it."""
    micros = int(line.finished_at.timestamp() * 1_000_000)
    if mode == "daily":
        head = f"{int(line.lost):1d}{min(line.time_ms, 10**13 - 1):013d}{min(line.moves, 10**9 - 1):09d}"
    else:
        head = f"{line.cards_left:02d}{min(line.moves, 10**9 - 1):09d}"
    return f"{head}{micros:017d}{line.result_id:019d}:{player_id}"
