"""The sockets' dispatch (tripeaks/infra/socket_dispatch.py): frames and channel-layer events
reach the handlers one at a time, a failing event ends the consumer, and a frame is read with no
task and no `asyncio.wait` of its own (Channels' `await_many_dispatch` made both for every frame:
some 9 us of a bare echo's 30-50)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.consumer import AsyncConsumer
from channels.exceptions import StopConsumer

from tripeaks.infra import socket_dispatch

pytestmark = pytest.mark.asyncio

Message = dict[str, Any]


class Source:
    """Messages put in by the test, read as a socket's `receive` or a channel's would be."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Message] = asyncio.Queue()

    async def __call__(self) -> Message:
        message = await self.queue.get()
        if message.get("type") == "broken":
            raise ConnectionError("the channel layer is gone")
        return message


async def test_a_frame_and_an_event_never_run_side_by_side() -> None:
    frames, events = Source(), Source()
    handling: list[str] = []
    overlaps: list[tuple[str, str]] = []
    frame_started, go_on = asyncio.Event(), asyncio.Event()

    async def dispatch(message: Message) -> None:
        if handling:
            overlaps.append((handling[0], message["type"]))
        handling.append(message["type"])
        try:
            if message["type"] == "frame":
                frame_started.set()
                await go_on.wait()  # e.g. a move waiting for its write
            elif message["type"] == "end":
                raise StopConsumer
        finally:
            handling.remove(message["type"])

    running = asyncio.ensure_future(socket_dispatch.dispatch_both(frames, events, dispatch))
    frames.queue.put_nowait({"type": "frame"})
    await frame_started.wait()
    events.queue.put_nowait({"type": "event"})
    await asyncio.sleep(0.05)  # the event is read meanwhile, and must wait for the frame
    assert handling == ["frame"]
    go_on.set()
    frames.queue.put_nowait({"type": "end"})
    with pytest.raises(StopConsumer):
        await running
    assert overlaps == []


async def test_a_failing_event_ends_the_consumer_waiting_for_a_frame() -> None:
    frames, events = Source(), Source()
    handled: list[str] = []

    async def dispatch(message: Message) -> None:
        handled.append(message["type"])

    running = asyncio.ensure_future(socket_dispatch.dispatch_both(frames, events, dispatch))
    events.queue.put_nowait({"type": "event"})
    events.queue.put_nowait({"type": "broken"})
    with pytest.raises(ConnectionError):
        await asyncio.wait_for(running, timeout=5)
    assert handled == ["event"]


async def test_the_event_reader_ends_with_the_consumer() -> None:
    frames, events = Source(), Source()

    async def dispatch(message: Message) -> None:
        if message["type"] == "websocket.disconnect":
            raise StopConsumer

    before = asyncio.all_tasks()
    running = asyncio.ensure_future(socket_dispatch.dispatch_both(frames, events, dispatch))
    await asyncio.sleep(0)
    frames.queue.put_nowait({"type": "websocket.disconnect"})
    with pytest.raises(StopConsumer):
        await running
    assert asyncio.all_tasks() - before == set()


async def test_a_frame_is_read_without_a_task_or_a_wait_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    frames = Source()
    waits: list[object] = []
    wait = asyncio.wait

    async def counted_wait(*args: Any, **kwargs: Any) -> Any:
        waits.append(args)
        return await wait(*args, **kwargs)

    monkeypatch.setattr(asyncio, "wait", counted_wait)
    handled: list[str] = []

    class Counting(socket_dispatch.DirectDispatch, AsyncConsumer):
        async def websocket_receive(self, message: Message) -> None:
            handled.append(message["type"])

        async def websocket_disconnect(self, message: Message) -> None:
            raise StopConsumer

    for _ in range(20):
        frames.queue.put_nowait({"type": "websocket.receive"})
    frames.queue.put_nowait({"type": "websocket.disconnect"})

    async def send(message: Message) -> None:
        pass

    await asyncio.wait_for(Counting()({"type": "websocket"}, frames, send), timeout=10)
    assert len(handled) == 20
    # One wait: the event reader's end, when the consumer ends; none a frame.
    assert len(waits) <= 1, waits
