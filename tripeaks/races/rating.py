"""The race's one door to ratings: the rating quick match pairs by, and rating a finished race.

Until the ratings app is installed, pairing is by queue time only (everyone 1500) and a race
changes no rating."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_RATING = 1500.0


@dataclass(frozen=True)
class Change:
    before: float
    after: float


def rating_for_pairing(user_id: int, rules_key: str) -> float:
    return DEFAULT_RATING


def rate(*, rules_key: str, placings: Sequence[tuple[int, int]]) -> dict[int, Change]:
    """Rate a finished race inside its finishing transaction: user id -> the change."""
    return {}
