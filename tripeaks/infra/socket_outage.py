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


class Watched:
    """The server's `receive` and `send` as `OutageGuard` hands them on: the type of every message
    that passes is noted (`seen`). A consumer that reads its own frames (`DirectDispatch`) takes
    the server's own (`server_receive`, `server_send`) for its frames once it is open, and notes
    what the guard must know of its end (`websocket.disconnect`) itself; its accept and close
    still pass here. Every frame of a game socket went through both wrappers: one coroutine more
    under the frame's wait and one more under its reply's send."""

    __slots__ = ("seen", "server_receive", "server_send")

    def __init__(self, receive: Receive, send: Send) -> None:
        self.server_receive = receive
        self.server_send = send
        self.seen: set[str] = set()

    async def receive(self) -> Message:
        message = await self.server_receive()
        self.seen.add(str(message["type"]))
        return message

    async def send(self, message: Message) -> None:
        self.seen.add(str(message["type"]))
        await self.server_send(message)


def watched(receive: Receive) -> Watched | None:
    """The `Watched` whose `receive` this is, if `OutageGuard` handed it on."""
    owner = getattr(receive, "__self__", None)
    return owner if isinstance(owner, Watched) else None


class OutageGuard:
    def __init__(self, inner: Application) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.inner(scope, receive, send)
            return
        passed = Watched(receive, send)
        try:
            await self.inner(scope, passed.receive, passed.send)
        except DatabaseError:
            seen = passed.seen
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
