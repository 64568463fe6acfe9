"""Writes of ratings: ``rate_race``.

A race of n players is scored as its pairwise results: each player beat everyone placed below
them (1), drew with everyone sharing their place (0.5) and lost to everyone above (0). Each
player's race is one Glicko-2 rating period of n - 1 games against the other players' ratings
from *before* the race: every new rating is worked out from the old ones, then all are written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from tripeaks.engine.rules import Rules, RulesError
from tripeaks.infra.bulk_rows import update_rows
from tripeaks.ratings import glicko
from tripeaks.ratings.models import RACE_NAME_MAX, Rating, RatingEvent

# A player's rating is provisional (shown with "?", off the board) until this many rated races.
PROVISIONAL_RACES = 10


def is_provisional(races: int) -> bool:
    return races < PROVISIONAL_RACES


@dataclass(frozen=True)
class RatingChange:
    """What one race did to one player's rating (rating and rd on the Glicko scale)."""

    before: float
    after: float
    rd: float
    provisional: bool
    rd_before: float = glicko.START.rd
    races: int = 0
    place: int = 0

    @property
    def change(self) -> int:
        """The change as the player sees it: the difference of the two shown (rounded) ratings."""
        return round(self.after) - round(self.before)

    def as_json(self) -> dict[str, Any]:
        """For the results screen: the exact values, and the rounded ones a player reads."""
        return {
            **asdict(self),
            "shown_before": round(self.before),
            "shown_after": round(self.after),
            "change": self.change,
        }


def _score(mine: int, theirs: int) -> float:
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def _check(rules_key: str, placings: Sequence[tuple[int, int]], race: str) -> str:
    if len(race) > RACE_NAME_MAX:
        raise ValueError(f"a race's name is at most {RACE_NAME_MAX} characters")
    try:
        key = Rules.from_key(rules_key).key
    except RulesError as error:
        raise ValueError(str(error)) from None
    users = [user_id for user_id, _ in placings]
    if len(set(users)) != len(users):
        raise ValueError("a player appears twice in the placings")
    if any(
        isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= len(placings)
        for _, place in placings
    ):
        raise ValueError("a place is a whole number from 1 (the best) to the number of players")
    return key


@transaction.atomic
def rate_race(
    *, rules_key: str, placings: Sequence[tuple[int, int]], race: str = ""
) -> dict[int, RatingChange]:
    """Rate a finished race: ``placings`` are (user id, place), place 1 the best, ties share one.

    Returns each player's ``RatingChange``. Call it inside the transaction that finishes the race.
    ``race`` (optional, e.g. ``"race-17"``) names the race in each player's history and makes the
    rating once-only: a second call for the same race changes nothing and returns the changes the
    first one made. A race of fewer than two players is not rated (``{}``).

    Rows are locked in user-id order, so concurrent races with players in common wait for each
    other instead of deadlocking, and none loses the other's update.
    """
    key = _check(rules_key, placings, race)
    if len(placings) < 2:
        return {}
    places = dict(placings)
    users = sorted(places)
    # Every player gets a row (first race: the starting rating), inserted in user-id order: two
    # races inserting the same new players wait for each other in the same order.
    Rating.objects.bulk_create(
        [Rating(user_id=user_id, rules_key=key) for user_id in users], ignore_conflicts=True
    )
    rows = {
        row.user_id: row
        for row in Rating.objects.select_for_update()
        .filter(rules_key=key, user_id__in=users)
        .order_by("user_id")
    }
    if race:
        done = RatingEvent.objects.filter(race=race, user_id__in=users)
        if done.exists():
            return _recorded(done, rows)
    old = {
        user_id: glicko.Glicko(row.rating, row.rd, row.volatility) for user_id, row in rows.items()
    }
    changes: dict[int, RatingChange] = {}
    now = timezone.now()
    for user_id in users:
        games = [
            (old[other], _score(places[user_id], places[other]))
            for other in users
            if other != user_id
        ]
        new = glicko.rate_period(old[user_id], games)
        row = rows[user_id]
        row.rating, row.rd, row.volatility = new.rating, new.rd, new.volatility
        row.races += 1
        row.updated_at = now
        changes[user_id] = RatingChange(
            before=old[user_id].rating,
            after=new.rating,
            rd=new.rd,
            provisional=is_provisional(row.races),
            rd_before=old[user_id].rd,
            races=row.races,
            place=places[user_id],
        )
    update_rows(
        [rows[user_id] for user_id in users], ["rating", "rd", "volatility", "races", "updated_at"]
    )
    RatingEvent.objects.bulk_create(
        [
            RatingEvent(
                user_id=user_id,
                rules_key=key,
                race=race,
                place=change.place,
                players=len(users),
                rating_before=change.before,
                rating_after=change.after,
                rd_before=change.rd_before,
                rd_after=change.rd,
            )
            for user_id, change in changes.items()
        ]
    )
    return changes


def _recorded(events: Any, rows: dict[int, Rating]) -> dict[int, RatingChange]:
    return {
        event.user_id: RatingChange(
            before=event.rating_before,
            after=event.rating_after,
            rd=event.rd_after,
            provisional=is_provisional(rows[event.user_id].races),
            rd_before=event.rd_before,
            races=rows[event.user_id].races,
            place=event.place,
        )
        for event in events
    }
