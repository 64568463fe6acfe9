"""Sockets that hand each message straight to its handler.

Channels' consumers close stale database connections before every message: a hop to the one sync
thread for each frame and each channel-layer event. A socket that reaches the database only
through `database_sync_to_async` (which does that itself around each call) can skip the hop.
"""

from __future__ import annotations

from channels.consumer import get_handler_name


class DirectDispatch:
    async def dispatch(self, message: dict[str, object]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
