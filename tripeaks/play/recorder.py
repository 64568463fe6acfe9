"""The one place the game and move-log tables are written: a game's start, its moves, and the
stop of its clock when no screen shows it (tests/play/test_one_writer.py holds every other
module of the project to that).

Every move is worked out into a step (`play/steps.py`) and stored by `record_moves`, whatever
route it came by: the REST API and a socket's locked path (`services.apply_move`), a socket's
game-ending move (`services.finish_copy`), the resignation of a player's unfinished game when
they start another (`services.start_games`), a race's end resigning its games (which takes
`apply_move`), and the group commit of sockets' moves (`play/move_writer.py`: a batch is many
steps handed to `record_moves` at once, on Django's connection from its pool). Each step is
stored only where its game row is still at the seq it was worked out from and unfinished
(`move_store.write`); a step that ends its game records the result and tells the apps above
(`game_finished`) in the same transaction.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from leaderboard.models import Result
from leaderboard.services import record_result
from tripeaks.infra.bulk_rows import insert_rows
from tripeaks.play import move_store
from tripeaks.play.clock import Clock
from tripeaks.play.models import Game
from tripeaks.play.signals import game_finished
from tripeaks.play.steps import Step


@dataclass(frozen=True, slots=True)
class Recorded:
    """A stored step: the game as it now stands, and the result its finish made (if any)."""

    game: Game
    result: Result | None = None


class RowMovedOn(RuntimeError):
    """A game row held locked at a seq was not at it: a bug in the caller, never the player's."""


def record_moves(moves: Sequence[tuple[Game, Step]]) -> list[Recorded | None]:
    """Store each (game, step worked out on it), at most one a game, with one statement; None for
    a game whose row moved on (nothing of it is stored). Runs in the caller's transaction, or, for
    steps that do not end a game, as a transaction of its own (the group commit's one commit).

    A step that ends its game records the result (`record_result`, for a game whose first move
    was made) and sends `game_finished`; the result is last, so that the deal's shared record
    row, which ranking locks, is held only to the commit."""
    after = [(step.applied_to(game), step) for game, step in moves]
    finishing = any(step.finishes for _, step in moves)
    durable = transaction.atomic(savepoint=False) if finishing else contextlib.nullcontext()
    with durable:
        stored = move_store.write([(game, step.from_seq, step.move) for game, step in after])
        return [_recorded(game, step) if game.pk in stored else None for game, step in after]


def _recorded(game: Game, step: Step) -> Recorded:
    if not step.finishes:
        return Recorded(game)
    started = game.started_at is not None
    result = record_result(game=game, by_contest=step.by_contest) if started else None
    game_finished.send(sender=Game, game=game, result=result)
    return Recorded(game, result)


def record_move(*, game: Game, step: Step) -> Recorded:
    """`record_moves` for one game whose row the caller holds locked at the step's seq."""
    (recorded,) = record_moves([(game, step)])
    if recorded is None:
        raise RowMovedOn(f"game {game.pk} moved on from seq {step.from_seq} under its lock")
    return recorded


def create_games(games: Sequence[Game]) -> None:
    """New game rows (`services.start_games`, under their players' locks), inserted by one
    statement made once (`insert_rows`: the ORM's `create` compiled it for every game)."""
    insert_rows(games)


def bank_clock(game: Game, now: datetime) -> None:
    """Stop the clock of `game`, whose row the caller holds locked, without moving its seq: no
    screen shows it (`services.hide_game`). Nothing happened on the table, and a move sent again
    from the page by REST must still fit."""
    clock = Clock.of(game).stopped(now)
    Game.objects.filter(pk=game.pk).update(
        elapsed_ms=clock.elapsed_ms, running_since=clock.running_since
    )
