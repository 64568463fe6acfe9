"""The server's own limits (tripeaks.stack.serve's Uvicorn options), on loopback: a request's
headers must arrive in time, and an oversized socket frame closes the socket unread (issue 35).

Uvicorn runs in this process with the options every launcher uses and a tiny ASGI application
(the limits act before any application sees the request). Before: 50 connections trickling
their headers (or sending nothing) were all still open when the test gave up on them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import uvicorn
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.ports import free_port
from tripeaks.stack.serve import uvicorn_options

HEADER_TIMEOUT_S = 1.0
SLOW_CONNECTIONS = 50


async def tiny_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http":
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]}
        )
        await send({"type": "http.response.body", "body": b"ok"})
    elif scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        while (message := await receive())["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": str(len(message.get("text") or ""))})


@asynccontextmanager
async def serving(app: Any = tiny_app, **options: Any) -> AsyncIterator[int]:
    """`app` on a real Uvicorn server with the stack's options (and `options` over them), on a
    free port."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, **{**uvicorn_options(), **options})
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            assert not task.done(), "the server did not start"
            await asyncio.sleep(0.02)
        yield port
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


async def trickle(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, seconds: float
) -> float | None:
    """Send header lines, one every 0.25 s, for `seconds`: when the server closed the connection
    (seconds from the start), or None if it was still open at the end."""
    started = time.monotonic()
    try:
        while time.monotonic() - started < seconds:
            writer.write(b"X-Slow: 1\r\n")
            await writer.drain()
            try:
                if await asyncio.wait_for(reader.read(1024), 0.25) == b"":
                    return time.monotonic() - started
            except TimeoutError:
                continue
        return None
    except ConnectionError:
        return time.monotonic() - started
    finally:
        writer.close()


async def slow_headers(port: int, seconds: float) -> float | None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return await trickle(reader, writer, seconds)


async def silent(port: int, seconds: float) -> float | None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    opened = time.monotonic()
    try:
        await asyncio.wait_for(reader.read(1024), seconds)
        return time.monotonic() - opened
    except TimeoutError:
        return None
    finally:
        writer.close()


async def get(port: int) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return answer


def test_slow_header_connections_are_closed_and_the_server_still_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HTTP_HEADER_TIMEOUT", str(HEADER_TIMEOUT_S))

    async def attack() -> tuple[list[float | None], list[float | None], bytes]:
        async with serving() as port:
            slow = [slow_headers(port, 4 * HEADER_TIMEOUT_S) for _ in range(SLOW_CONNECTIONS)]
            quiet = [silent(port, 4 * HEADER_TIMEOUT_S) for _ in range(5)]
            results = await asyncio.gather(*slow, *quiet, asyncio.sleep(0.5))
            answer = await get(port)
        return list(results[:SLOW_CONNECTIONS]), list(results[SLOW_CONNECTIONS:-1]), answer

    slow, quiet, answer = asyncio.run(attack())

    held = [seconds for seconds in slow + quiet if seconds is None]
    assert not held, f"{len(held)} of {len(slow) + len(quiet)} connections still open after 4 s"
    closed_after = max(s for s in slow + quiet if s is not None)
    print(
        f"\n{SLOW_CONNECTIONS} slow-header and 5 silent connections closed within {closed_after:.2f} s"
    )
    assert closed_after < 3 * HEADER_TIMEOUT_S
    assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"ok")


def test_a_kept_alive_connection_gets_the_header_timeout_for_its_next_request_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HTTP_HEADER_TIMEOUT", str(HEADER_TIMEOUT_S))

    async def second_request_slow() -> float | None:
        async with serving() as port:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            first = await asyncio.wait_for(reader.readuntil(b"ok"), 5)
            assert first.startswith(b"HTTP/1.1 200")
            writer.write(b"GET / HTTP/1.1\r\n")
            return await trickle(reader, writer, 4 * HEADER_TIMEOUT_S)

    closed_after = asyncio.run(second_request_slow())

    assert closed_after is not None and closed_after < 3 * HEADER_TIMEOUT_S


def test_a_socket_frame_over_the_limit_closes_the_socket_unread() -> None:
    async def frames() -> tuple[str, int | None]:
        async with (
            serving() as port,
            connect(f"ws://127.0.0.1:{port}/", max_size=None) as socket,
        ):
            await socket.send("x" * 4096)
            fits = str(await socket.recv())
            await socket.send("x" * 20_000)
            try:
                await asyncio.wait_for(socket.recv(), 5)
            except ConnectionClosed as closed:
                return fits, closed.rcvd.code if closed.rcvd else None
            return fits, None

    fits, code = asyncio.run(frames())

    assert fits == "4096"
    assert code == 1009  # message too big
