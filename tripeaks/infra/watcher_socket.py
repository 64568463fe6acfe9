"""A socket that watches a board or a standings page: its session's socket, its frames counted
against the watcher rates (per player, per address), a flood closed."""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from tripeaks.infra import throttle_async, throttling
from tripeaks.infra.socket_sessions import SessionSocket

# High: a page sends a sync for every update it hears, and a busy board may outrun the rate for a
# while; those refusals must not end the socket, only a flood may.
MAX_THROTTLED_IN_A_ROW = 100


class WatcherSocket(SessionSocket, AsyncWebsocketConsumer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.flood = throttle_async.FloodGuard(MAX_THROTTLED_IN_A_ROW)

    def _limits(self) -> list[throttling.Limit]:
        return throttle_async.watcher_limits(self.scope)
