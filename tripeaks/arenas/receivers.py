"""Play's `game_finished`, heard by arenas: an arena game's points commit with its finish. And
`player_leaving` (an account being deleted): it leaves every arena, with the deletion."""

from __future__ import annotations

from typing import Any

from tripeaks.arenas import services
from tripeaks.play.models import Game


def arena_game_finished(sender: Any, *, game: Game, **kwargs: Any) -> None:
    if game.contest.startswith(services.GROUP_PREFIX):
        services.count_finish(game=game)


def player_leaving(sender: Any, *, user: Any, **kwargs: Any) -> None:
    services.leave_every_arena(user=user)
