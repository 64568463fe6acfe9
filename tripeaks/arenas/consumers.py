"""An arena's live standings: ``/ws/arenas/{id}/``. Anyone may watch.

On connect, and on ``{"type": "sync"}``, the socket sends the arena with its standings and the
watcher's own line (``{"type": "arena", ...}``); after every change, everyone watching gets
``{"type": "standings", "version": n, ...}`` (the first page, without a ``me``). The arena's games
publish their moves on the contest feed (tripeaks/infra/contest_feed.py), which this socket does
not follow: the standings change only when a game ends.
Frames and connects count against the board rates, as the daily board's socket.
"""

from __future__ import annotations

from uuid import UUID

from channels.db import database_sync_to_async

from tripeaks.arenas.payloads import ArenaMessage, StandingsEvent
from tripeaks.infra import throttle_async, watcher_socket
from tripeaks.infra.watcher_socket import WatcherSocket

CLOSE_NO_ARENA = 4404
CLOSE_FLOOD = throttle_async.CLOSE_FLOOD
MAX_FRAME = watcher_socket.MAX_FRAME
MAX_THROTTLED_IN_A_ROW = watcher_socket.MAX_THROTTLED_IN_A_ROW


class ArenaConsumer(WatcherSocket):
    arena_id: UUID

    async def connect(self) -> None:
        self.arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        if await throttle_async.check_async(self._limits()) is not None:
            await self.close(code=CLOSE_FLOOD)
            return
        if not await self._exists():
            await self.close(code=CLOSE_NO_ARENA)
            return
        if not await self.join_session_groups():
            return
        # In the group before the arena is read: a change after the read is pushed, not lost.
        self.group = f"arena-{self.arena_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.sync()

    async def sync(self) -> None:
        arena = await self._detail()
        if arena is not None:
            await self._send(arena)

    async def arena_standings(self, event: StandingsEvent) -> None:
        await self._send(event["message"])

    @database_sync_to_async
    def _exists(self) -> bool:
        from tripeaks.arenas.selectors import arena_or_none

        return arena_or_none(self.arena_id) is not None

    @database_sync_to_async
    def _detail(self) -> ArenaMessage | None:
        from tripeaks.arenas.selectors import arena_detail, arena_or_none

        arena = arena_or_none(self.arena_id)
        if arena is None:
            return None
        return {"type": "arena", **arena_detail(arena, self.scope.get("user"))}
