"""A contest game's public progress: what its opponents may see of it, and its fan-out.

A game that belongs to a live contest (a race, an arena: `Game.contest` names the contest's
Channels group) tells that group of every stored move, after the commit: cards left, the current
streak, stock left, its status and clock. Never its cards, never its moves. Best-effort, as every
channel-layer send (the database is the truth: a contest's page reads it again on reconnect).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tripeaks.engine import game as engine
from tripeaks.play.clock import clock_ms
from tripeaks.play.models import Game

log = logging.getLogger("tripeaks.events")

PROGRESS_EVENT = "contest.progress"


def current_streak(state: engine.State) -> int:
    """Layout cards played one after another since the last draw, along the current line."""
    line = (*state.history, state.position)
    run = 0
    for before, after in zip(line, line[1:], strict=False):
        run = run + 1 if after.removed != before.removed else 0
    return run


def progress_of(game: Game, state: engine.State, now: datetime) -> dict[str, Any]:
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


async def send_progress(game: Game, state: engine.State, now: datetime) -> None:
    if not game.contest:
        return
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": PROGRESS_EVENT, "progress": progress_of(game, state, now)}
    try:
        await layer.group_send(game.contest, message)
    except Exception:  # a broken channel layer must not fail a stored move
        log.warning(
            "could not reach a contest's sockets", extra={"to": game.contest}, exc_info=True
        )


def publish_progress(game: Game, state: engine.State, now: datetime) -> None:
    """`send_progress` from synchronous code, after the commit. A game in no contest costs
    nothing: not even the hop to an event loop (every REST move comes here)."""
    if game.contest:
        async_to_sync(send_progress)(game, state, now)
