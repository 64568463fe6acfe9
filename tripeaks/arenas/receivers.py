"""Play's `game_finished`, heard by arenas: an arena game's points commit with its finish. And
`player_leaving` (an account being deleted): it leaves every arena, with the deletion."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser

from tripeaks.arenas import services
from tripeaks.play.models import Game


def arena_game_finished(sender: Any, *, game: Game, result: Any = None, **kwargs: Any) -> None:
    if game.contest.startswith(services.GROUP_PREFIX):
        # A run flagged or held for staff scores once accepted (`standings.settle_held_game`).
        held = result is not None and bool(result.flagged or result.held)
        services.count_finish(game=game, held=held)


def player_leaving(sender: object, *, user: AbstractBaseUser, **kwargs: object) -> None:
    services.leave_every_arena(user=user)
