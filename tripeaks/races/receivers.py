"""Play's `game_finished` for race games (tripeaks/play/signals.py): inside the finishing
transaction, with the game row locked; it locks the race row only (see services' lock order)
(`ending.record_finish`).
And `player_leaving` (tripeaks/infra/player_signals.py): an account being deleted leaves every
race and the quick-match queue, inside the deletion's transaction."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser

from tripeaks.play.models import Game


def on_game_finished(sender: object, game: Game, **kwargs: object) -> None:
    if not game.contest.startswith("race-"):
        return
    from tripeaks.races.ending import record_finish

    record_finish(game=game)


def on_player_leaving(sender: object, user: AbstractBaseUser, **kwargs: object) -> None:
    from tripeaks.races import quickmatch
    from tripeaks.races.services import leave_every_race

    quickmatch.leave(user=user)
    leave_every_race(user=user)
