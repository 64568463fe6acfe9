"""An arena's scoring, in one place (stated in docs/arenas.md and on the arena page).

- A won game scores `WIN` (2) points; a win while on fire scores `FIRE_WIN` (4).
- On fire: after `FIRE_AFTER` (2) wins in a row; the third win in a row and each one after it
  scores double, until a game is not won.
- A game not won (stuck, lost, resigned, or given up by starting the next) scores 0 and ends the
  streak.
- Only games that end before the arena ends count (grace 0 s); a game that ends later scores
  nothing and changes nothing.
- Standings: points, then wins, then whoever reached their points first, then who joined first.
- A game held for staff (flagged by the timing check, or a possible second account) scores
  nothing and leaves the streak alone until staff accept it; then the player's line is worked out
  again from their counted games in order (`tally`). A game staff hide never counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

WIN = 2
FIRE_WIN = 4
FIRE_AFTER = 2


def on_fire(streak: int) -> bool:
    return streak >= FIRE_AFTER


@dataclass(frozen=True, slots=True)
class Scored:
    points: int
    streak: int


def score_game(*, won: bool, streak: int) -> Scored:
    """A finished game's points, and the streak after it, from the streak before it."""
    if not won:
        return Scored(points=0, streak=0)
    return Scored(points=FIRE_WIN if on_fire(streak) else WIN, streak=streak + 1)


def rules_payload() -> dict[str, int]:
    """The scoring as the API states it."""
    return {"win": WIN, "fire_win": FIRE_WIN, "fire_after": FIRE_AFTER, "grace_seconds": 0}


@dataclass(frozen=True, slots=True)
class Tally:
    games: int = 0
    wins: int = 0
    points: int = 0
    points_at: datetime | None = None
    streak: int = 0
    best_streak: int = 0


def tally(games: Iterable[tuple[bool, datetime]]) -> Tally:
    """A player's line from their counted games (won, finished at), in the order they ended:
    the same sums ``score_game`` adds up one finish at a time."""
    line = Tally()
    for won, finished_at in games:
        scored = score_game(won=won, streak=line.streak)
        line = Tally(
            games=line.games + 1,
            wins=line.wins + won,
            points=line.points + scored.points,
            points_at=finished_at if scored.points else line.points_at,
            streak=scored.streak,
            best_streak=max(line.best_streak, scored.streak),
        )
    return line
