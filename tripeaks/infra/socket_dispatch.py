"""Sockets that hand each message straight to its handler.

Channels' consumers close stale database connections before every message: a hop to the one sync
thread for each frame and each channel-layer event, and once more as the socket closes. A socket
that reaches the database only through `database_sync_to_async` (which does that itself around
each call) can skip the hop.

They also wait for their two sources (the socket's frames and the channel layer's events) without
Channels' `await_many_dispatch`, which makes a task of every `receive` and waits on both with
`asyncio.wait` for each message: some 9 us a frame on uvloop (a bare echo's whole message costs
30-50 us of server CPU). Here the frames are read in the consumer's own task, the events in a
task of their own, and a turn (`Turn`, a lock with no coroutine to take it when it is free)
lets one message at a time reach the handlers, as before: a handler never runs beside another of
the same socket. A failure reading or handling an event ends the consumer, as it did.

A socket's frames are handled in a task of its own (`DirectDispatch.__call__`), not in the task
the server started for the socket: there the handler's coroutine sat under the whole ASGI stack
(the server's `run_asgi`, the front gate, the router, the origin check, the outage guard, the
cookie, session and auth middlewares, Channels' application: a dozen coroutines), and every time
a move waited (for its frame, for its write) that whole chain was suspended and resumed again,
frame by frame. The stack now waits once, for the socket's end.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer

from tripeaks.infra.socket_outage import Watched, watched

Message = dict[str, Any]
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Dispatch = Callable[[Message], Awaitable[None]]


class Turn:
    """A lock for one socket's handlers. Taken with no coroutine when it is free (every frame of
    a socket that no event is being handled for): `asyncio.Lock`'s `async with` cost a frame
    four coroutine and generator calls, and a check of its waiters, each time."""

    __slots__ = ("_busy", "_waiters")

    def __init__(self) -> None:
        self._busy = False
        self._waiters: deque[asyncio.Future[None]] = deque()

    def take_now(self) -> bool:
        """Take the turn if it is free: whether it was."""
        if self._busy:
            return False
        self._busy = True
        return True

    async def take(self) -> None:
        """Take the turn, waiting for it if it is held (in the order asked)."""
        if self.take_now():
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.give()  # handed over as the waiter was cancelled: on to the next
            raise

    def give(self) -> None:
        """Hand the turn to the longest waiting, or free it."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)  # still held: the waiter has it now
                return
        self._busy = False


async def _relay(events: Receive, dispatch: Dispatch, turn: Turn) -> None:
    while True:
        event = await events()
        await turn.take()
        try:
            await dispatch(event)
        finally:
            turn.give()


def _always() -> bool:
    return True


async def dispatch_both(
    frames: Receive, events: Receive, dispatch: Dispatch, hears: Callable[[], bool] = _always
) -> None:
    """Hand every frame and every event to `dispatch`, one at a time, until one of them raises
    (`StopConsumer` when the socket has gone). Events are read once `hears()` is true, looked
    at before each frame is read until it is: until then they wait in the channel layer (in
    Redis, or in the layer's buffer when another socket of the process read them)."""
    turn = Turn()
    relay: asyncio.Future[None] | None = None
    this = asyncio.current_task()
    assert this is not None
    reading = [False]

    def relay_ended(task: asyncio.Future[None]) -> None:
        # It raised: the consumer ends with it, at once if it waits for a frame, else once the
        # frame in hand is handled (a frame is never cut off halfway).
        if not task.cancelled() and reading[0]:
            this.cancel()

    try:
        while True:
            if relay is None and hears():
                relay = asyncio.ensure_future(_relay(events, dispatch, turn))
                relay.add_done_callback(relay_ended)
            reading[0] = True
            try:
                message = await frames()
            finally:
                reading[0] = False
            if not turn.take_now():
                await turn.take()
            try:
                if relay is not None and relay.done():
                    relay.result()  # its failure, raised here
                await dispatch(message)
            finally:
                turn.give()
    except asyncio.CancelledError:
        if relay is not None and relay.done() and not relay.cancelled():
            relay.result()
        raise
    finally:
        if relay is not None:
            relay.remove_done_callback(relay_ended)
            relay.cancel()
            await asyncio.wait([relay])


class DirectDispatch:
    channel_layer_alias: str
    scope: Scope
    disconnect: Callable[[int], Awaitable[None]]  # the consumer's
    # The server's own `send`, for frames, once the socket is open (`accept`); `base_send` until
    # then, and always for the accept and the close, which the outage guard must see.
    frame_send: Callable[[Any], Awaitable[None]]
    _read: Callable[[], Awaitable[Any]]
    _outage: Watched | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Callable[..., Any]) -> None:
        """Channels' `AsyncConsumer.__call__`, waiting for frames and events by `dispatch_both`,
        in a task of its own (the module's doc): cancelled with the server's task."""
        await asyncio.ensure_future(self._serve(scope, receive, send))

    async def _serve(self, scope: Scope, receive: Receive, send: Callable[..., Any]) -> None:
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.base_send = self.frame_send = send
        self._read = receive
        self._outage = watched(receive)
        try:
            if self.channel_layer is None:
                while True:
                    await self.dispatch(await receive())
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            await dispatch_both(self._frame, self.channel_receive, self.dispatch, self.hears_events)
        except StopConsumer:
            pass

    def _frame(self) -> Awaitable[Message]:
        """The next frame, from the server itself once the socket is open (`accept`)."""
        return self._read()

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        """Channels' accept; from now on the socket's frames come from the server and its
        replies go to it with no wrapper between (`Watched`)."""
        await super().accept(subprotocol, headers)  # type: ignore[misc]
        if self._outage is not None:
            self._read, self.frame_send = self._outage.server_receive, self._outage.server_send

    def hears_events(self) -> bool:
        """Whether the socket reads its channel-layer events yet (asked before each frame until
        it does; from the start here). A consumer that refuses sockets as they open can say
        False until it has let one in: a refused socket then never reads its channel."""
        return True

    async def websocket_disconnect(self, message: Message) -> None:
        """Channels' `AsyncWebsocketConsumer.websocket_disconnect` but for its closing of stale
        connections: a hop to the process's one sync thread, which every closing socket queued
        on (a flood's refused sockets too)."""
        if self._outage is not None:  # (read past the outage guard: it is told here)
            self._outage.seen.add("websocket.disconnect")
        for group in getattr(self, "groups", ()):
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.disconnect(message["code"])
        raise StopConsumer()

    def dispatch(self, message: dict[str, object]) -> Awaitable[None]:
        """The message's handler, found once a class and type (a frame's type is always
        `websocket.receive`: its handler's name is not made and looked up again for each), to
        await: handed back, not awaited here, so that a move waiting for its write is not one
        coroutine deeper."""
        key = (type(self), message.get("type"))
        handler = _handlers.get(key)
        if handler is None:
            handler = getattr(type(self), get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"No handler for message type {message['type']}")
            _handlers[key] = handler
        return handler(self, message)


# (consumer class, message type) -> the class's handler of that type.
_handlers: dict[tuple[type, object], Callable[[Any, Message], Awaitable[None]]] = {}
