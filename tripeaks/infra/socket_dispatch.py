"""Sockets that hand each message straight to its handler.

Channels' consumers close stale database connections before every message: a hop to the one sync
thread for each frame and each channel-layer event, and once more as the socket closes. A socket
that reaches the database only through `database_sync_to_async` (which does that itself around
each call) can skip the hop.

They also wait for their two sources (the socket's frames and the channel layer's events) without
Channels' `await_many_dispatch`, which makes a task of every `receive` and waits on both with
`asyncio.wait` for each message: some 9 us a frame on uvloop (a bare echo's whole message costs
30-50 us of server CPU). Here the frames are read in the consumer's own task, the events in a
task of their own, and a lock lets one message at a time reach the handlers, as before: a
handler never runs beside another of the same socket. A failure reading or handling an event
ends the consumer, as it did.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer

Message = dict[str, Any]
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Dispatch = Callable[[Message], Awaitable[None]]


async def _relay(events: Receive, dispatch: Dispatch, turn: asyncio.Lock) -> None:
    while True:
        event = await events()
        async with turn:
            await dispatch(event)


def _always() -> bool:
    return True


async def dispatch_both(
    frames: Receive, events: Receive, dispatch: Dispatch, hears: Callable[[], bool] = _always
) -> None:
    """Hand every frame and every event to `dispatch`, one at a time, until one of them raises
    (`StopConsumer` when the socket has gone). Events are read once `hears()` is true, looked
    at before each frame is read until it is: until then they wait in the channel layer (in
    Redis, or in the layer's buffer when another socket of the process read them)."""
    turn = asyncio.Lock()
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
            async with turn:
                if relay is not None and relay.done():
                    relay.result()  # its failure, raised here
                await dispatch(message)
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

    async def __call__(self, scope: Scope, receive: Receive, send: Callable[..., Any]) -> None:
        """Channels' `AsyncConsumer.__call__`, waiting for frames and events by `dispatch_both`."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.base_send = send
        try:
            if self.channel_layer is None:
                while True:
                    await self.dispatch(await receive())
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            await dispatch_both(receive, self.channel_receive, self.dispatch, self.hears_events)
        except StopConsumer:
            pass

    def hears_events(self) -> bool:
        """Whether the socket reads its channel-layer events yet (asked before each frame until
        it does; from the start here). A consumer that refuses sockets as they open can say
        False until it has let one in: a refused socket then never reads its channel."""
        return True

    async def websocket_disconnect(self, message: Message) -> None:
        """Channels' `AsyncWebsocketConsumer.websocket_disconnect` but for its closing of stale
        connections: a hop to the process's one sync thread, which every closing socket queued
        on (a flood's refused sockets too)."""
        for group in getattr(self, "groups", ()):
            await self.channel_layer.group_discard(group, self.channel_name)
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def dispatch(self, message: dict[str, object]) -> None:
        """The message's handler, found once a class and type (a frame's type is always
        `websocket.receive`: its handler's name is not made and looked up again for each)."""
        key = (type(self), message.get("type"))
        handler = _handlers.get(key)
        if handler is None:
            handler = getattr(type(self), get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"No handler for message type {message['type']}")
            _handlers[key] = handler
        await handler(self, message)


# (consumer class, message type) -> the class's handler of that type.
_handlers: dict[tuple[type, object], Callable[[Any, Message], Awaitable[None]]] = {}
