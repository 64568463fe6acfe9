"""A move worked out in memory: `advance` returns the step it makes and changes nothing.

A step is what one action makes of a game: the game row's new fields (`changes`, by attribute
name), the engine state, the move-log row, and for a hint its answer. The game it was worked out
on stays as it was (a socket's copy, a row read under its lock), so a step that is not stored
leaves nothing to undo; `Step.applied_to` gives the game as the step leaves it. Every route that
stores a move (REST, a socket, a batch of sockets' moves, a race's end, a new game's resignation)
works it out here and stores it through `play/recorder.py`, so a game's fields mean the same
however the move arrived.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType

from django.db.models.base import ModelState

from tripeaks.engine import game as engine
from tripeaks.engine.scoring import score
from tripeaks.play import solver_guard
from tripeaks.play.clock import Clock
from tripeaks.play.errors import MoveRefused, TimeUp
from tripeaks.play.models import Game
from tripeaks.play.move_store import LoggedMove
from tripeaks.play.payloads import BudgetedHint
from tripeaks.play.state_codec import dump_next_state

ENGINE_ACTIONS = frozenset({"play", "draw", "undo", "restart", "resign"})
CLOCK_ACTIONS = frozenset({"play", "draw", "undo", "restart"})
ACTIONS = ENGINE_ACTIONS | {"hint", "pause", "resume"}
# What a live contest (a race, an arena) refuses, and why. Undo and start again show the stock
# ahead to whoever draws it and goes back: in a race, where every player has the same deal, a
# racer drew the whole stock, started again and won in 4.9 s.
CONTEST_REFUSED = {
    "hint": "the clock is everybody's",
    "pause": "the clock is everybody's",
    "undo": "a drawn card stays drawn, as going back would show the stock ahead",
    "restart": "a drawn card stays drawn, as going back would show the stock ahead",
}


@dataclass(frozen=True, slots=True)
class Step:
    """One action worked out on a game at `from_seq`: what its row and its log become."""

    from_seq: int
    changes: Mapping[str, object]
    state: engine.State
    move: LoggedMove
    hint: BudgetedHint | None = None
    # The contest ended the game (a race's end resigns the games still played): neither won nor
    # lost by the player, its result counts nowhere (`record_result`).
    by_contest: bool = False

    @property
    def finishes(self) -> bool:
        return self.state.over

    def applied_to(self, game: Game) -> Game:
        """A new instance: `game`, the row the step was worked out on, as the step leaves it.

        Built by hand, not by `copy.copy` (Django's pickling path), which cost a socket move
        several times the rest of this."""
        if game.seq != self.from_seq:
            raise ValueError(f"a step from seq {self.from_seq} applied to a game at {game.seq}")
        after = Game.__new__(Game)
        after.__dict__.update(game.__dict__, **self.changes)
        # Its own model state, sharing the related rows read (its deal, its player).
        after._state = ModelState()
        after._state.__dict__.update(game._state.__dict__)
        after._state.fields_cache = dict(game._state.fields_cache)
        return after


def _refuse(game: Game, action: str, now: datetime) -> None:
    """Raise if `action` may not be made on `game` now (before anything is worked out)."""
    if game.finished:
        raise MoveRefused(f"the game is over ({game.status})")
    if game.deadline is not None and now >= game.deadline and action != "resign":
        # Resigning stays open: it gains nothing, and a game must be able to end (a race's
        # end resigns its games, a player's next game resigns their unfinished one).
        raise TimeUp("time is up: the contest is over")
    if game.paused and action not in ("resume", "resign"):
        raise MoveRefused("the game is paused: resume it first")
    if game.contest and action in CONTEST_REFUSED:
        raise MoveRefused(f"no {action} in a live contest: {CONTEST_REFUSED[action]}")


def _engine_move(action: str, position: int | None) -> engine.Move:
    if action != "play":
        return engine.parse_move(action)  # (a bare action name: the same move, found at once)
    return engine.parse_move({"action": action, "position": position})


def advance(
    game: Game, state: engine.State, *, action: str, position: int | None, now: datetime
) -> Step:
    """Work out `action` on `game` (at `state`): the step it makes, or a refusal. Nothing is
    changed or stored. The caller has checked the seq."""
    _refuse(game, action, now)
    changes: dict[str, object] = {}
    clock = Clock.of(game)
    hint = None
    if action in ENGINE_ACTIONS:
        try:
            state = engine.apply(state, _engine_move(action, position))
        except engine.RuleError as error:
            raise MoveRefused(str(error)) from None
        if action in CLOCK_ACTIONS and game.started_at is None:
            changes["started_at"] = now
            clock = clock.started(now)
    elif action == "hint":
        hint = solver_guard.budgeted_hint(state)
        # The answer is seen: no run on this deal ranks again.
        changes.update(hints=game.hints + 1, assisted=True, ranking="unranked")
    elif action == "pause":
        if game.paused:
            raise MoveRefused("the game is already paused")
        changes["paused"] = True
        clock = clock.stopped(now)
    else:
        if not game.paused:
            raise MoveRefused("the game is not paused")
        changes["paused"] = False
        clock = clock.started(now)  # the cards are shown again
    position = position if action == "play" else None
    return _step(game, state, action, position, now, changes, clock, hint)


def _step(
    game: Game,
    state: engine.State,
    action: str,
    position: int | None,
    now: datetime,
    changes: dict[str, object],
    clock: Clock,
    hint: BudgetedHint | None,
) -> Step:
    elapsed_ms = clock.ms(now)
    if state.over:  # the end stops the clock
        clock = clock.stopped(now)
        changes.update(finished_at=now, paused=False)
    seq = game.seq + 1
    changes.update(
        seq=seq,
        state=dump_next_state(game.state, state),
        moves=state.moves,
        cards_left=state.cards_left,
        status=state.status,
        score=score(state, elapsed_ms / 1000),
        elapsed_ms=clock.elapsed_ms,
        running_since=clock.running_since,
    )
    move = LoggedMove(seq=seq, action=action, position=position, at=now, elapsed_ms=elapsed_ms)
    return Step(game.seq, MappingProxyType(changes), state, move, hint)


def shown_again(game: Game, state: engine.State, now: datetime) -> Step:
    """The clock of a game no screen showed starts again, logged as a resume: the fair-play check
    times the next move from here, as the clock does (docs/fair-play.md, "One clock")."""
    clock = Clock.of(game).started(now)
    seq = game.seq + 1
    move = LoggedMove(seq=seq, action="resume", position=None, at=now, elapsed_ms=clock.ms(now))
    changes = {"seq": seq, "running_since": clock.running_since}
    return Step(game.seq, MappingProxyType(changes), state, move)
