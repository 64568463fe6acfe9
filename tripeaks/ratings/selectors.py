"""Reads of ratings: one player's rating, their ratings on every rule set, the board."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from django.db.models import QuerySet

from tripeaks.ratings import glicko
from tripeaks.ratings.models import Rating, RatingEvent, RatingFlag
from tripeaks.ratings.services import PROVISIONAL_RACES, RecordedChange, is_provisional

DEFAULT_LIMIT = 100
MAX_LIMIT = 200
HISTORY_LIMIT = 20


class RatingJson(TypedDict):
    rating: int
    rd: int
    races: int
    provisional: bool


class Standing(RatingJson):
    rules: str
    rank: int | None


class HistoryLine(TypedDict):
    race: str
    place: int
    players: int
    before: int
    after: int
    change: int
    rd: int
    at: str


class BoardPlayer(TypedDict):
    username: str
    display_name: str


class BoardLine(TypedDict):
    rank: int
    player: BoardPlayer
    rating: int
    rd: int
    races: int


@dataclass(frozen=True)
class RatingView:
    rating: float
    rd: float
    races: int
    provisional: bool

    def as_json(self) -> RatingJson:
        return {
            "rating": round(self.rating),
            "rd": round(self.rd),
            "races": self.races,
            "provisional": self.provisional,
        }


def _view(row: Rating | None) -> RatingView:
    if row is None:
        return RatingView(glicko.START.rating, glicko.START.rd, 0, True)
    return RatingView(row.rating, row.rd, row.races, is_provisional(row.races))


def rating_of(user_id: int, rules_key: str) -> RatingView:
    """The player's rating on the rule set: 1500 ± 350, provisional, before their first race."""
    return _view(Rating.objects.filter(user_id=user_id, rules_key=rules_key).first())


def ratings_of(user_id: int) -> dict[str, RatingView]:
    """The player's rating on every rule set they raced on, by rule-set key."""
    return {
        row.rules_key: _view(row)
        for row in Rating.objects.filter(user_id=user_id, races__gt=0).order_by("rules_key")
    }


def history_of(user_id: int, rules_key: str, *, limit: int = HISTORY_LIMIT) -> list[HistoryLine]:
    """The player's latest rated races on the rule set, newest first."""
    events = RatingEvent.objects.filter(user_id=user_id, rules_key=rules_key).order_by(
        "-created_at", "-id"
    )[:limit]
    return [
        {
            "race": event.race,
            "place": event.place,
            "players": event.players,
            "before": round(event.rating_before),
            "after": round(event.rating_after),
            "change": round(event.rating_after) - round(event.rating_before),
            "rd": round(event.rd_after),
            "at": event.created_at.isoformat(),
        }
        for event in events
    ]


def race_changes(race: str) -> dict[int, RecordedChange]:
    """What a rated race did to each player's rating, by user id, as ``RatingChange.as_json``
    gives it (a results screen seen again later reads it back). Empty for an unrated race."""
    if not race:
        return {}
    return {
        event.user_id: {
            "before": event.rating_before,
            "after": event.rating_after,
            "rd": event.rd_after,
            "rd_before": event.rd_before,
            "place": event.place,
            "shown_before": round(event.rating_before),
            "shown_after": round(event.rating_after),
            "change": round(event.rating_after) - round(event.rating_before),
        }
        for event in RatingEvent.objects.filter(race=race)
    }


def _on_board() -> QuerySet[Rating]:
    # Guests never rank on a public board; deleted accounts are anonymised, not shown.
    # Staff took a boosted rating off the board (a closed RatingFlag).
    return Rating.objects.filter(
        races__gte=PROVISIONAL_RACES,
        user__is_guest=False,
        user__deleted_at__isnull=True,
        off_board=False,
    )


def ratings_board(rules_key: str, *, limit: int = DEFAULT_LIMIT) -> list[BoardLine]:
    """The best established ratings on the rule set, highest first.

    Provisional players (fewer than ``PROVISIONAL_RACES`` rated races) are left off, as on
    lichess: their rating says too little yet (``provisional_count`` says how many there are).
    """
    rows = (
        _on_board()
        .filter(rules_key=rules_key)
        .select_related("user")
        .order_by("-rating", "user_id")[: max(0, min(limit, MAX_LIMIT))]
    )
    return [
        {
            "rank": rank,
            "player": {
                "username": row.user.username,
                "display_name": getattr(row.user, "display_name", "") or row.user.username,
            },
            "rating": round(row.rating),
            "rd": round(row.rd),
            "races": row.races,
        }
        for rank, row in enumerate(rows, start=1)
    ]


def provisional_count(rules_key: str) -> int:
    """How many players have a provisional rating on the rule set (raced, not yet on the board)."""
    return Rating.objects.filter(
        rules_key=rules_key, races__gt=0, races__lt=PROVISIONAL_RACES
    ).count()


def rank_of(user_id: int, view: RatingView, rules_key: str) -> int | None:
    """The player's place on the board (None while provisional, or off the board: a guest)."""
    if view.provisional:
        return None
    board = _on_board().filter(rules_key=rules_key)
    if not board.filter(user_id=user_id).exists():
        return None
    return int(board.filter(rating__gt=view.rating).count()) + 1


def standing_of(user_id: int, rules_key: str, *, view: RatingView | None = None) -> Standing:
    """The player's rating on the rule set as the API shows it, with their rank on the board."""
    view = view or rating_of(user_id, rules_key)
    return {"rules": rules_key, **view.as_json(), "rank": rank_of(user_id, view, rules_key)}


def open_flags(limit: int = 100) -> list[RatingFlag]:
    """Accounts flagged for staff (wins against feeders) nobody has looked at yet, newest first,
    with their user (the review queue)."""
    return list(
        RatingFlag.objects.filter(reviewed=False)
        .select_related("user")
        .order_by("-created_at", "-id")[:limit]
    )


def closed_flags(limit: int = 50) -> list[RatingFlag]:
    """The latest staff decisions on flagged ratings, newest first (the review page's record)."""
    return list(
        RatingFlag.objects.filter(reviewed=True)
        .select_related("user", "reviewed_by")
        .order_by("-reviewed_at", "-id")[:limit]
    )
