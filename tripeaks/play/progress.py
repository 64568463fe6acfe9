"""A contest game's public progress: what its opponents may see of it, and its fan-out.

A game that belongs to a live contest (a race, an arena: `Game.contest` names the contest) tells
the contest's feed (tripeaks/infra/contest_feed.py: Redis pub/sub, one PUBLISH a move) of every
stored move, after the commit: cards left, the current streak, stock left, its status and clock.
Never its cards, never its moves. Best-effort, as every broadcast (the database is the truth: a
contest's page reads it again on reconnect or after a gap in a player's `seq`).

The news also carries `stored_at`, the server's clock (epoch ms) when it left for the contest,
right after the move was stored: how long the news took to reach a socket is measured from it.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from typing import TypedDict

from tripeaks.engine import game as engine
from tripeaks.infra import contest_feed
from tripeaks.play.clock import clock_ms
from tripeaks.play.models import Game

log = logging.getLogger("tripeaks.events")


def current_streak(state: engine.State) -> int:
    """Layout cards played one after another since the last draw, along the current line:
    counted back from the end (every contest move asks, and the line may be a hundred long)."""
    run, after = 0, state.position
    for before in reversed(state.history):
        if after.removed == before.removed:
            break
        run, after = run + 1, before
    return run


class Progress(TypedDict):
    """A contest game's counts after a stored move, as its contest's sockets are told them."""

    game: str
    player: int
    seq: int
    status: str
    cards_left: int
    stock_left: int
    streak: int
    moves: int
    time_ms: int
    finished: bool


def progress_of(game: Game, state: engine.State, now: datetime) -> Progress:
    return {
        "game": str(game.pk),
        "player": game.player_id,
        "seq": game.seq,
        "status": game.status,
        "cards_left": state.cards_left,
        "stock_left": state.stock_left,
        "streak": current_streak(state),
        "moves": game.moves,
        "time_ms": clock_ms(game, now),
        "finished": game.finished,
    }


def _news(game: Game, state: engine.State, now: datetime) -> dict[str, object]:
    return {**progress_of(game, state, now), "stored_at": int(time.time() * 1000)}


def send_progress(game: Game, state: engine.State, now: datetime) -> None:
    """From the event loop (the game socket): queued for the feed, not waited for (no coroutine
    a move: a solo game's move costs one test)."""
    if game.contest:
        contest_feed.publish(game.contest, _news(game, state, now))


def publish_progress(game: Game, state: engine.State, now: datetime) -> None:
    """`send_progress` from synchronous code, after the commit. A game in no contest costs
    nothing (every REST move comes here)."""
    if not game.contest:
        return
    try:
        contest_feed.publish_sync(game.contest, _news(game, state, now))
    except Exception:
        log.warning(
            "could not reach a contest's sockets", extra={"to": game.contest}, exc_info=True
        )
