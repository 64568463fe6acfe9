"""Best-effort fan-out of a game's new view to its other open sockets (other tabs)."""

from __future__ import annotations

import logging
from typing import Any
from uuid import UUID

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger("tripeaks.events")


def game_group(game_id: UUID | str) -> str:
    return f"game-{game_id}"


async def send_view(game_id: UUID | str, view: dict[str, Any]) -> None:
    """The database is the truth; the channel layer is at-most-once, so a failure here only logs."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(game_group(game_id), {"type": "game.view", "view": view})
    except Exception:  # a broken channel layer must not fail a stored move
        log.warning("could not broadcast game view", extra={"game": str(game_id)}, exc_info=True)


def broadcast_view(game_id: UUID | str, view: dict[str, Any]) -> None:
    """`send_view` from synchronous code (a REST request)."""
    async_to_sync(send_view)(game_id, view)
