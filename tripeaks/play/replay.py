"""A game's move log, replayed from its deal: what its stored state must always equal."""

from __future__ import annotations

from tripeaks.engine import game as engine
from tripeaks.engine.rules import Rules
from tripeaks.play.deals import engine_deal
from tripeaks.play.models import Game, Move
from tripeaks.play.services import load_game_state
from tripeaks.play.steps import ENGINE_ACTIONS


def engine_move(logged: Move) -> engine.Move:
    """A logged engine action (play, draw, undo, restart, resign) as the engine's move."""
    if logged.action == "play":
        assert logged.position is not None, "a play is logged with its position"
        return engine.Play(logged.position)
    return engine.parse_move(logged.action)


def _engine_moves(log: list[Move]) -> list[engine.Move]:
    # Hints, pauses and resumes are logged (they count in seq) but change no position.
    return [engine_move(logged) for logged in log if logged.action in ENGINE_ACTIONS]


def replay_log(game: Game) -> engine.State:
    """The game's state rebuilt from its deal and its move log alone."""
    log = sorted(game.log.all(), key=lambda logged: logged.seq)
    return engine.replay(
        engine_deal(game.deal), Rules.from_key(game.deal.rules_key), _engine_moves(log)
    )


def matches_log(game: Game) -> bool:
    """Is the stored state (position, undo history, moves) the replay of the log, and `seq` the
    log's length?"""
    replayed, stored = replay_log(game), load_game_state(game)
    same_state = (stored.position, stored.history, stored.moves) == (
        replayed.position,
        replayed.history,
        replayed.moves,
    )
    return same_state and game.seq == len(game.log.all())
