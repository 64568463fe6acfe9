"""Reads of play: plain functions that return games (with their deal) or answers about them.

They write nothing and queue nothing; the REST views and the page shell call them (the game
socket keeps its own copy: ``socket_moves``).
"""

from __future__ import annotations

from uuid import UUID

from tripeaks.play.models import Game


def unfinished_game(*, player_id: int) -> Game | None:
    """The player's game in progress, with its deal (a player has at most one), or None."""
    return (
        Game.objects.select_related("deal", "player")
        .filter(player_id=player_id, finished_at__isnull=True)
        .first()
    )


def has_unfinished_game(*, player_id: int) -> bool:
    """Whether the player has a game in progress (one indexed probe, no row read)."""
    return Game.objects.filter(player_id=player_id, finished_at__isnull=True).exists()


def players_game(*, game_id: UUID | str, player_id: int) -> Game | None:
    """The game `game_id` with its deal if it is the player's, else None (somebody else's game
    and no game look the same)."""
    return (
        Game.objects.select_related("deal", "player")
        .filter(pk=game_id, player_id=player_id)
        .first()
    )
