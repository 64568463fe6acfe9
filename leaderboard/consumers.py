"""The live daily board: ``/ws/leaderboards/daily/{rules}/``. Anyone may watch.

On connect, and on ``{"type": "sync"}``, the socket sends the whole first page of today's board
(``{"type": "board", ...}``). When a line changes, everyone watching gets
``{"type": "update", "version": n, "lines": [...]}`` with the changed line and its new rank.

Every connect and every frame counts against the board rates (``PLAY_THROTTLE_RATES``
``board`` per player, ``board_address`` per client address, anonymous or not) before the
database is read: over them a frame gets ``{"type": "error", "code": "throttled",
"retry_after": n}`` and a connect is refused (4429), as is a socket after
``MAX_THROTTLED_IN_A_ROW`` refused frames. A signed-in socket closes when its session ends.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from leaderboard.live import daily_group
from leaderboard.payloads import BoardEvent, BoardMessage
from tripeaks.engine.rules import Rules, RulesError
from tripeaks.infra import throttle_async, watcher_socket
from tripeaks.infra.watcher_socket import WatcherSocket

CLOSE_BAD_BOARD = 4404
CLOSE_FLOOD = throttle_async.CLOSE_FLOOD
MAX_FRAME = watcher_socket.MAX_FRAME
MAX_THROTTLED_IN_A_ROW = watcher_socket.MAX_THROTTLED_IN_A_ROW


class DailyBoardConsumer(WatcherSocket):
    rules_key: str

    async def connect(self) -> None:
        try:
            self.rules_key = Rules.from_key(self.scope["url_route"]["kwargs"]["rules"]).key
        except RulesError:
            await self.close(code=CLOSE_BAD_BOARD)
            return
        if await throttle_async.check_async(self._limits()) is not None:
            await self.close(code=CLOSE_FLOOD)
            return
        if not await self.join_session_groups():
            return
        self.group = daily_group(self.rules_key)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.sync()

    async def sync(self) -> None:
        await self._send(await self._board())

    async def board_update(self, event: BoardEvent) -> None:
        await self._send(event["message"])

    @database_sync_to_async
    def _board(self) -> BoardMessage:
        from leaderboard.selectors import daily_record, deal_board
        from tripeaks.play.dealday import deal_day

        day = deal_day()
        record = daily_record(day, self.rules_key)
        page = deal_board(record, viewer=self.scope.get("user"), board="first")
        return {
            "type": "board",
            "board": "first",
            "date": day.isoformat(),
            "rules": self.rules_key,
            "version": record.version if record else 0,
            "total": page.total,
            "lines": page.lines,
            "next_cursor": page.next_cursor,
            "me": page.me,
        }
