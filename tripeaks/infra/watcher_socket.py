"""A socket that watches a board or a standings page: its session's socket, its frames counted
against the watcher rates (per player, per address), a flood closed. Its one message from the
page is `{"type": "sync"}`: the socket then sends the whole page again (`sync`)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from channels.generic.websocket import AsyncWebsocketConsumer

from tripeaks.infra import throttle_async, throttling
from tripeaks.infra.socket_sessions import SessionSocket

# High: a page sends a sync for every update it hears, and a busy board may outrun the rate for a
# while; those refusals must not end the socket, only a flood may.
MAX_THROTTLED_IN_A_ROW = 100
MAX_FRAME = 1024


class WatcherSocket(SessionSocket, AsyncWebsocketConsumer):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.flood = throttle_async.FloodGuard(MAX_THROTTLED_IN_A_ROW)

    def _limits(self) -> list[throttling.Limit]:
        return throttle_async.watcher_limits(self.scope)

    group: str | None = None

    async def sync(self) -> None:
        """Send the whole page again (after a gap in its versions, or on reconnect)."""
        raise NotImplementedError

    async def disconnect(self, code: int) -> None:
        await self.leave_session_groups(*([self.group] if self.group is not None else []))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not await self.flood.admit(self, self._limits()):
            return
        message: object = None
        if text_data is not None and len(text_data) <= MAX_FRAME:
            try:
                message = json.loads(text_data)
            except (ValueError, RecursionError):
                message = None
        if isinstance(message, dict) and message.get("type") == "sync":
            await self.sync()
            return
        await self._send(
            {
                "type": "error",
                "detail": 'the only message is {"type": "sync"}',
                "code": "bad_message",
            }
        )

    async def _send(self, body: Mapping[str, object]) -> None:
        await self.send(text_data=json.dumps(body))
