"""The race's one door to ratings (tripeaks.ratings): the rating quick match pairs by, and
rating a finished race inside its finishing transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tripeaks.ratings.selectors import rating_of
from tripeaks.ratings.services import rate_race


@dataclass(frozen=True)
class Change:
    before: float
    after: float
    provisional: bool = False


def rating_for_pairing(user_id: int, rules_key: str) -> float:
    return rating_of(user_id, rules_key).rating


def rate(
    *, rules_key: str, placings: Sequence[tuple[int, int]], race: str = ""
) -> dict[int, Change]:
    """Rate a finished race (call it inside the transaction that finishes it): user id -> the
    change. `race` names it in each player's rating history and makes the rating once-only."""
    changes = rate_race(rules_key=rules_key, placings=placings, race=race)
    return {
        user_id: Change(change.before, change.after, change.provisional)
        for user_id, change in changes.items()
    }
