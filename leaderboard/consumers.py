"""The live daily board: ``/ws/leaderboards/daily/{rules}/``. Anyone may watch.

On connect, and on ``{"type": "sync"}``, the socket sends the whole first page of today's board
(``{"type": "board", ...}``). When a line changes, everyone watching gets
``{"type": "update", "version": n, "lines": [...]}`` with the changed line and its new rank.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from leaderboard.live import daily_group
from tripeaks.engine.rules import Rules, RulesError

CLOSE_BAD_BOARD = 4404
MAX_FRAME = 1024


class DailyBoardConsumer(AsyncWebsocketConsumer):
    rules_key: str
    group: str | None = None

    async def connect(self) -> None:
        try:
            self.rules_key = Rules.from_key(self.scope["url_route"]["kwargs"]["rules"]).key
        except RulesError:
            await self.close(code=CLOSE_BAD_BOARD)
            return
        self.group = daily_group(self.rules_key)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send(await self._board())

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message: Any = None
        if text_data is not None and len(text_data) <= MAX_FRAME:
            try:
                message = json.loads(text_data)
            except ValueError:
                message = None
        if isinstance(message, dict) and message.get("type") == "sync":
            await self._send(await self._board())
            return
        await self._send(
            {
                "type": "error",
                "detail": 'the only message is {"type": "sync"}',
                "code": "bad_message",
            }
        )

    async def board_update(self, event: dict[str, Any]) -> None:
        await self._send(event["message"])

    async def _send(self, body: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(body))

    @database_sync_to_async
    def _board(self) -> dict[str, Any]:
        from leaderboard.selectors import daily_record, deal_board
        from tripeaks.dealday import deal_day

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
