"""A player's races for their data export (play's `export_sections`): every seat they took, with
the race it was in. Their own numbers only: no card, no move list, no other player's name."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q

from tripeaks.play.export_sections import iso
from tripeaks.races.models import Seat


def races_of(player_id: int) -> list[dict[str, Any]]:
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
