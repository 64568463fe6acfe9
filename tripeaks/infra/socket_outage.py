"""A socket that meets a database outage says so and closes with 1013 (try again later).

Channels reads the session and the user from the database before a consumer runs: with PostgreSQL
down (restarting, failing over) that lookup raised out of the application, and the server answered
the handshake with an HTTP 500. `OutageGuard` wraps the socket stack: a database error that ends
the application before the socket closed becomes, as in the game consumer's own connect, an
`unavailable` error frame and the close code 1013, which the page answers by retrying.

`read_on_open` is the same answer inside a consumer that reads what it serves as it opens (the
game socket, the race socket), with the other refusal they share: 4404 when there is nothing
there for the player.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol, TypeVar

import orjson
from django.db import DatabaseError

log = logging.getLogger("tripeaks.events")

CLOSE_TRY_AGAIN = 1013
CLOSE_NOT_FOUND = 4404
UNAVAILABLE = "the service is briefly unavailable; try again"

T = TypeVar("T")

# The ASGI interface as OutageGuard uses it.
Scope = Mapping[str, object]
Message = Mapping[str, object]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Application = Callable[[Scope, Receive, Send], Awaitable[None]]


class Socket(Protocol):
    """What read_on_open uses of a Channels websocket consumer."""

    async def accept(self) -> None: ...
    async def send(self, text_data: str) -> None: ...
    async def close(self, code: int) -> None: ...


async def read_on_open(
    socket: Socket,
    read: Callable[[], Awaitable[T | None]],
    *,
    leave: Callable[[], Awaitable[None]] | None = None,
) -> T | None:
    """What `read()` found, the socket not yet accepted; or None, with the socket told and
    closed: after a database error, accepted, an `unavailable` error frame and 1013 (not a failed
    handshake: a 500 to the browser); when there is nothing, 4404, after `leave()` undid what the
    socket joined before reading."""
    try:
        found = await read()
    except DatabaseError:
        await socket.accept()
        error = {"type": "error", "detail": UNAVAILABLE, "code": "unavailable"}
        await socket.send(text_data=orjson.dumps(error).decode())
        await socket.close(code=CLOSE_TRY_AGAIN)
        return None
    if found is None:
        if leave is not None:
            await leave()
        await socket.close(code=CLOSE_NOT_FOUND)
        return None
    return found


class OutageGuard:
    def __init__(self, inner: Application) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.inner(scope, receive, send)
            return
        seen: set[str] = set()

        async def receiving() -> Message:
            message = await receive()
            seen.add(str(message["type"]))
            return message

        async def sending(message: Message) -> None:
            seen.add(str(message["type"]))
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
