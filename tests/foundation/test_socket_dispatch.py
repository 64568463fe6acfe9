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


async def test_a_free_turn_is_taken_with_no_lock_or_coroutine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every frame took `asyncio.Lock` by `async with`: four coroutine and generator calls and a
    look through its waiters, for a turn nearly always free."""
    frames, events = Source(), Source()
    acquired: list[object] = []
    acquire, take = asyncio.Lock.acquire, socket_dispatch.Turn.take

    async def counted_acquire(self: asyncio.Lock) -> bool:
        acquired.append(self)
        return await acquire(self)

    async def counted_take(self: socket_dispatch.Turn) -> None:
        acquired.append(self)
        await take(self)

    monkeypatch.setattr(asyncio.Lock, "acquire", counted_acquire)
    monkeypatch.setattr(socket_dispatch.Turn, "take", counted_take)
    handled: list[str] = []

    async def dispatch(message: Message) -> None:
        handled.append(message["type"])
        if message["type"] == "end":
            raise StopConsumer

    for _ in range(20):
        frames.queue.put_nowait({"type": "frame"})
    frames.queue.put_nowait({"type": "end"})
    with pytest.raises(StopConsumer):
        await asyncio.wait_for(socket_dispatch.dispatch_both(frames, events, dispatch), 10)
    assert len(handled) == 21
    assert acquired == []


async def test_a_turn_goes_to_its_waiters_in_order_and_past_a_cancelled_one() -> None:
    turn = socket_dispatch.Turn()
    assert turn.take_now()
    assert not turn.take_now()
    order: list[str] = []

    async def waiting(name: str) -> None:
        await turn.take()
        order.append(name)
        turn.give()

    first = asyncio.ensure_future(waiting("first"))
    cancelled = asyncio.ensure_future(waiting("cancelled"))
    last = asyncio.ensure_future(waiting("last"))
    await asyncio.sleep(0)
    cancelled.cancel()
    turn.give()  # to `first`, which gives it past the cancelled one to `last`
    await asyncio.wait_for(asyncio.gather(first, last), 5)
    assert order == ["first", "last"]
    assert turn.take_now()  # free again


async def test_a_turn_handed_to_a_waiter_cancelled_meanwhile_goes_on() -> None:
    turn = socket_dispatch.Turn()
    turn.take_now()
    handed = asyncio.ensure_future(turn.take())
    after = asyncio.ensure_future(turn.take())
    await asyncio.sleep(0)
    turn.give()  # `handed` has it, but is cancelled before it runs
    handed.cancel()
    await asyncio.wait_for(after, 5)  # passed on, not lost
    assert not turn.take_now()
