"""Which screens show a game: its open game sockets, counted where every server process sees them.

The game clock is the time the cards were on screen (docs/fair-play.md, "One clock"): a solo
game's clock stops when its last game socket closes (`services.hide_game`) and starts again when
one opens or a move comes (`services.show_game`, `services.apply_move`). Sockets of one game may
be held by several server processes, so the count lives in Redis: one sorted set a game, one
member a socket (its channel name), scored by when the member lapses.

A member lapses `LEASE_S` after it was added or last renewed (the socket renews it, at most once
every `RENEW_S`, as frames come): a server that dies with sockets open leaves no member behind
for longer than that, so a later close of the game's last socket still stops the clock. A socket
idle for longer than the lease no longer counts; if another socket of the game then closes, the
clock stops while the idle one still shows the cards, and its next move starts it again. The set
itself expires a lease after its last change.

Redis unreachable: the socket counts as watching (the clock runs, as it always did), and a
warning is logged; PostgreSQL stays the truth.
"""

from __future__ import annotations

import logging
import time
from typing import Any
from uuid import UUID

from django.core.cache import cache

from tripeaks.infra import redis_client

log = logging.getLogger("tripeaks.events")

LEASE_S = 600
RENEW_S = LEASE_S // 2


def _redis() -> Any:
    return redis_client.client()


def _key(game_id: UUID | str) -> str:
    return str(cache.make_key(f"screens:{game_id}"))


def shown(game_id: UUID | str, screen: str) -> None:
    """The socket `screen` shows the game (it opened, or renews its lease)."""
    try:
        with _redis().pipeline(transaction=False) as pipe:
            pipe.zadd(_key(game_id), {screen: time.time() + LEASE_S})
            pipe.expire(_key(game_id), LEASE_S)
            pipe.execute()
    except Exception:  # the clock then runs on: what it did before screens were counted
        log.warning("could not count a game's screen", extra={"game": str(game_id)}, exc_info=True)


def gone(game_id: UUID | str, screen: str) -> None:
    """The socket `screen` no longer shows the game (it closed, or plays another)."""
    try:
        _redis().zrem(_key(game_id), screen)
    except Exception:
        log.warning("could not count a game's screen", extra={"game": str(game_id)}, exc_info=True)


def watched(game_id: UUID | str) -> bool:
    """Does any socket, of any server process, show the game now? True when Redis cannot say."""
    try:
        return bool(_redis().zcount(_key(game_id), time.time(), "+inf") > 0)
    except Exception:
        log.warning("could not count a game's screens", extra={"game": str(game_id)}, exc_info=True)
        return True
