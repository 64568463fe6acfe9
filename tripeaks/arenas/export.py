"""A player's arenas for their data export (play's `export_sections`): every entry, with the
arena and each of its finished games as scored. Their own numbers only."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from tripeaks.arenas.models import ArenaGame, Entry
from tripeaks.play.export_sections import iso


def entries_of(player_id: int) -> list[dict[str, Any]]:
    """The player's entries, oldest first, two queries."""
    entries = (
        Entry.objects.filter(player_id=player_id)
        .select_related("arena")
        .prefetch_related(
            Prefetch("arena_games", queryset=ArenaGame.objects.order_by("finished_at", "game_id"))
        )
        .order_by("joined_at", "id")
    )
    return [
        {
            "id": str(entry.arena_id),
            "name": entry.arena.name,
            "rules": entry.arena.rules_key,
            "layout": entry.arena.layout,
            "starts_at": iso(entry.arena.starts_at),
            "ends_at": iso(entry.arena.ends_at),
            "state": entry.arena.state,
            "joined_at": iso(entry.joined_at),
            "active": entry.active,
            "points": entry.points,
            "points_at": iso(entry.points_at),
            "games": entry.games,
            "wins": entry.wins,
            "streak": entry.streak,
            "best_streak": entry.best_streak,
            "rank": entry.rank,
            "finished_games": [
                {
                    "game": str(played.game_id),
                    "won": played.won,
                    "points": played.points,
                    "counted": played.counted,
                    "finished_at": iso(played.finished_at),
                }
                for played in entry.arena_games.all()
            ],
        }
        for entry in entries
    ]
