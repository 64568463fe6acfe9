"""A socket that meets a database outage says so and closes with 1013 (try again later).

Channels reads the session and the user from the database before a consumer runs: with PostgreSQL
down (restarting, failing over) that lookup raised out of the application, and the server answered
the handshake with an HTTP 500. `OutageGuard` wraps the socket stack: a database error that ends
the application before the socket closed becomes, as in the game consumer's own connect, an
`unavailable` error frame and the close code 1013, which the page answers by retrying.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson
from django.db import DatabaseError

log = logging.getLogger("tripeaks.events")

CLOSE_TRY_AGAIN = 1013
UNAVAILABLE = "the service is briefly unavailable; try again"


class OutageGuard:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.inner(scope, receive, send)
            return
        seen: set[str] = set()

        async def receiving() -> dict[str, Any]:
            message: dict[str, Any] = await receive()
            seen.add(message["type"])
            return message

        async def sending(message: dict[str, Any]) -> None:
            seen.add(message["type"])
            await send(message)

        try:
            await self.inner(scope, receiving, sending)
        except DatabaseError:
            if "websocket.close" in seen or "websocket.disconnect" in seen:
                return  # the socket is gone already: nobody to tell
            log.warning(
                "socket refused: the database is unavailable", extra={"path": scope["path"]}
            )
            if "websocket.connect" not in seen:
                await receive()
            if "websocket.accept" not in seen:
                await send({"type": "websocket.accept"})
            error = {"type": "error", "detail": UNAVAILABLE, "code": "unavailable"}
            await send({"type": "websocket.send", "text": orjson.dumps(error).decode()})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
