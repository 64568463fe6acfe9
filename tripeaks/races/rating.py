"""The race's one door to ratings (tripeaks.ratings): the rating quick match pairs by, and
rating a finished race inside its finishing transaction.

A race is a board (docs/fair-play.md, "Contests"): the fair-play checks of the daily (the timing
check, the second-account rule) decide, for each seat, whether its rating change is applied now
or held for staff (``tripeaks.ratings.services.settle_held`` applies or drops it later). The
places stay as played."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model

from leaderboard.fairplay import contest_holds
from tripeaks.ratings.selectors import rating_of
from tripeaks.ratings.services import rate_race

if TYPE_CHECKING:
    from tripeaks.races.models import Race, Seat


@dataclass(frozen=True)
class Change:
    before: float
    after: float | None  # None: held for staff (the change is not applied)
    provisional: bool = False


def rating_for_pairing(user_id: int, rules_key: str) -> float:
    return rating_of(user_id, rules_key).rating


def rate(*, race: Race, seats: Sequence[Seat]) -> dict[int, Change]:
    """Rate a finished race from its placed seats (call it inside the transaction that finishes
    it): user id -> the change. Only accounts are rated, among themselves; a held seat's change
    waits for staff (``after`` None). The race's name makes the rating once-only."""
    games = [seat.game for seat in seats if seat.game is not None]
    reasons = contest_holds(games)
    # A player who never moved has no run to review (and no result): only runs are held.
    held = {game.player_id for game in games if reasons.get(game.pk) and game.started_at}
    changes = rate_race(
        rules_key=race.rules_key,
        placings=[(seat.user_id, seat.place or 0) for seat in seats],
        race=race.group,
        held=held,
        unmoved={game.player_id for game in games if game.started_at is None},
    )
    result = {
        user_id: Change(change.before, change.after, change.provisional)
        for user_id, change in changes.items()
    }
    waiting = get_user_model().objects.filter(pk__in=held - set(result), is_guest=False)
    for user_id in waiting.values_list("pk", flat=True):
        result[user_id] = Change(rating_of(user_id, race.rules_key).rating, None)
    return result
