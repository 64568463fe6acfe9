"""The game WebSocket: the same service and answers as the REST moves endpoint, plus sync."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import DatabaseError
from rest_framework.exceptions import ValidationError

from tripeaks import throttling
from tripeaks.play import services
from tripeaks.play.api import view_of
from tripeaks.play.broadcast import game_group, send_view
from tripeaks.play.errors import PlayError
from tripeaks.play.models import Game
from tripeaks.play.serializers import MoveSerializer

MAX_FRAME = 4096
CLOSE_UNAUTHORIZED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_FLOOD = 4429
# Frames refused in a row for going over the move rate before the socket is closed as a flood.
MAX_THROTTLED_IN_A_ROW = 50


def _first_error(detail: Any) -> str:
    if isinstance(detail, dict):
        field, errors = next(iter(detail.items()))
        return f"{field}: {_first_error(errors)}"
    if isinstance(detail, list) and detail:
        return _first_error(detail[0])
    return str(detail)


class GameConsumer(AsyncWebsocketConsumer):
    game_id: str
    group: str
    # The newest seq this socket has been sent: a broadcast of a move it already answered is dropped.
    seen_seq = -1
    throttled_in_a_row = 0

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.game_id = str(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = game_group(self.game_id)
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHORIZED)
            return
        if not await self._owns_game(user):
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._send({"type": "view", "game": await self._view()})

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Every frame counts against the player's move rate, junk included.
        # Off the database thread: counting is a Redis round trip and needs no ordering.
        wait = await sync_to_async(throttling.check, thread_sensitive=False)(self._limits())
        if wait is not None:
            self.throttled_in_a_row += 1
            if self.throttled_in_a_row > MAX_THROTTLED_IN_A_ROW:
                await self.close(code=CLOSE_FLOOD)
                return
            await self._send(
                {
                    "type": "error",
                    "detail": f"Too many messages. Try again in {wait} seconds.",
                    "code": "throttled",
                    "retry_after": wait,
                }
            )
            return
        self.throttled_in_a_row = 0
        try:
            await self._receive(text_data, bytes_data)
        except DatabaseError:
            # The database is unreachable (restarting): say so; the client retries with its seq.
            await self._error("the service is briefly unavailable; try again", code="unavailable")

    def _limits(self) -> list[throttling.Limit]:
        client = self.scope.get("client") or [None]
        return throttling.play_limits(
            "move", user_id=self.scope["user"].pk, address=client[0] if client else None
        )

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        if text_data is None:
            await self._error("send JSON text frames, not binary")
            return
        if len(text_data) > MAX_FRAME:
            await self._error(f"a message may be at most {MAX_FRAME} characters")
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self._error("a message must be JSON")
            return
        if not isinstance(message, dict):
            await self._error("a message must be a JSON object")
            return
        if message.get("type") == "sync":
            await self._send({"type": "view", "game": await self._view()})
            return
        await self._move(message)

    async def _move(self, message: dict[str, Any]) -> None:
        serializer = MoveSerializer(data=message)
        if not serializer.is_valid():
            await self._error(_first_error(serializer.errors), code="invalid")
            return
        data = serializer.validated_data
        try:
            # Not thread-sensitive: moves of different games run in parallel threads (each with its
            # own connection), so one game's commit does not queue every other socket behind it.
            outcome = await database_sync_to_async(services.apply_move, thread_sensitive=False)(
                game_id=self.game_id,
                user=self.scope["user"],
                seq=data["seq"],
                action=data["action"],
                position=data.get("position"),
                broadcast=False,
            )
        except PlayError as error:
            body: dict[str, Any] = {"type": "error", "detail": error.message, "code": error.code}
            if error.view is not None:
                body["game"] = error.view
            await self._send(body)
            return
        reply: dict[str, Any] = {"type": "view", "game": outcome.view}
        if outcome.hint is not None:
            reply["hint"] = outcome.hint
        if outcome.replayed:
            reply["replayed"] = True
        await self._send(reply)
        if not outcome.replayed:
            await send_view(self.game_id, outcome.view)

    async def game_view(self, event: dict[str, Any]) -> None:
        """A move made elsewhere (another tab, the REST API) on this game."""
        if event["view"]["seq"] > self.seen_seq:
            await self._send({"type": "view", "game": event["view"]})

    async def _error(self, detail: str, code: str = "bad_message") -> None:
        await self._send({"type": "error", "detail": detail, "code": code})

    async def _send(self, body: dict[str, Any]) -> None:
        if "game" in body:
            self.seen_seq = max(self.seen_seq, body["game"]["seq"])
        await self.send(text_data=json.dumps(body))

    @database_sync_to_async
    def _owns_game(self, user: Any) -> bool:
        try:
            return Game.objects.filter(pk=self.game_id, player=user).exists()
        except (ValueError, ValidationError):
            return False

    @database_sync_to_async
    def _view(self) -> dict[str, Any]:
        game = Game.objects.select_related("deal").get(pk=self.game_id)
        return view_of(game)
