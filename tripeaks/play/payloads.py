"""What a game looks like to its player: the engine's view plus the server's clock and score."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from leaderboard.models import Result
from leaderboard.selectors import result_for_game
from tripeaks.engine import game as engine
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import Hint
from tripeaks.engine.view import player_view
from tripeaks.play.clock import clock_ms
from tripeaks.play.models import Game


def rules_payload(rules: Rules) -> dict[str, Any]:
    return {"key": rules.key, "wrap": rules.wrap, "open": rules.open, "start": rules.start}


def game_payload(
    game: Game, state: engine.State, now: datetime, result: Result | None = None
) -> dict[str, Any]:
    """The view; `result` is the one the game's finish has just made, else it is read."""
    deal = game.deal
    payload = player_view(state, paused=game.paused)
    payload.update(
        id=str(game.id),
        mode=deal.source,
        layout=deal.layout,
        rules=rules_payload(state.rules),
        day=deal.day.isoformat() if deal.day else None,
        number=deal.number,
        status=game.status,
        seq=game.seq,
        moves=game.moves,
        score=game.score,
        elapsed_ms=clock_ms(game, now),
        clock_running=game.running_since is not None,
        server_time=now.isoformat(),
        paused=game.paused,
        assisted=game.assisted,
        hints=game.hints,
        started_at=game.started_at.isoformat() if game.started_at else None,
        finished_at=game.finished_at.isoformat() if game.finished_at else None,
    )
    if game.finished:
        # The verdict and par of a numbered or custom deal are told only once the game is over.
        payload["deal"] = {"winnable": deal.winnable, "par": deal.par}
        payload["result"] = result_for_game(game, result)
    return payload


def hint_payload(hint: Hint) -> dict[str, Any]:
    move: dict[str, Any] | None = None
    if isinstance(hint.move, engine.Play):
        move = {"action": "play", "position": hint.move.position}
    elif isinstance(hint.move, engine.Draw):
        move = {"action": "draw"}
    return {"move": move, "winnable": hint.winnable}
