"""A player's races for their data export (play's `export_sections`): every seat they took, with
the race it was in. Their own numbers only: no card, no move list, no other player's name."""

from __future__ import annotations

from typing import TypedDict

from django.db.models import Count, Q

from tripeaks.play.export_sections import iso
from tripeaks.races.models import Seat


class SeatRow(TypedDict):
    joined_at: str | None
    status: str
    game: str | None
    place: int | None
    cards_left: int | None
    moves: int
    time_ms: int | None
    finished_at: str | None
    rating_before: float | None
    rating_after: float | None


class RaceRow(TypedDict):
    id: str
    rules: str
    layout: str
    public: bool
    matched: bool
    cap_s: float
    state: str
    players: int
    rematch_of: str | None
    created_at: str | None
    starts_at: str | None
    ends_at: str | None
    finished_at: str | None
    seat: SeatRow


def races_of(player_id: int) -> list[RaceRow]:
    """The player's seats, oldest first, one query."""
    seats = (
        Seat.objects.filter(user_id=player_id)
        .select_related("race")
        .annotate(players=Count("race__entries", filter=Q(race__entries__game__isnull=False)))
        .order_by("joined_at", "id")
    )
    return [
        {
            "id": str(seat.race_id),
            "rules": seat.race.rules_key,
            "layout": seat.race.layout,
            "public": seat.race.public,
            "matched": seat.race.matched,
            "cap_s": seat.race.cap_s,
            "state": seat.race.state,
            "players": seat.players,
            "rematch_of": str(seat.race.rematch_of_id) if seat.race.rematch_of_id else None,
            "created_at": iso(seat.race.created_at),
            "starts_at": iso(seat.race.starts_at),
            "ends_at": iso(seat.race.ends_at),
            "finished_at": iso(seat.race.finished_at),
            "seat": {
                "joined_at": iso(seat.joined_at),
                "status": seat.status,
                "game": str(seat.game_id) if seat.game_id else None,
                "place": seat.place,
                "cards_left": seat.cards_left,
                "moves": seat.moves,
                "time_ms": seat.time_ms,
                "finished_at": iso(seat.finished_at),
                "rating_before": seat.rating_before,
                "rating_after": seat.rating_after,
            },
        }
        for seat in seats
    ]
