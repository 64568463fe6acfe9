"""What lies between a game socket's frame and its move (issue #37 item 4: a solo move's server
CPU against a bare echo's). Every time a move waits (for its frame, for its write) the coroutines
it runs in are suspended and then resumed, one by one: under the whole ASGI stack that was a
dozen middlewares' coroutines each time, and the outage guard's wrappers of the server's
`receive` and `send` one more for every frame and every reply. Now a socket's frames run in a task
of their own, read from the server and answered to it with nothing between once it is open."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tests.play.helpers import client_for, start_custom, winnable_code
from tripeaks.config.asgi import application
from tripeaks.play import move_writer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MOVES = 4
Message = dict[str, Any]


def awaiting_chain() -> list[str]:
    """The coroutines running now, from the task's first to the caller's: each one is resumed
    and suspended again whenever the task waits."""
    frame = sys._getframe(1)
    chain: list[str] = []
    while frame is not None and frame.f_code.co_flags & inspect.CO_COROUTINE:
        chain.append(frame.f_code.co_qualname)
        frame = frame.f_back  # type: ignore[assignment]
    return chain[::-1]


async def _played(monkeypatch: pytest.MonkeyPatch, user: Any) -> dict[str, list[list[str]]]:
    """`MOVES` moves on a game socket through the whole application: the chains of coroutines
    under which the server was asked for a frame (`receive`), handed a reply (`send`), and a move
    waited for its write (`store`)."""
    chains: dict[str, list[list[str]]] = {"receive": [], "send": [], "store": []}
    store = move_writer.MoveWriter.store

    async def storing(self: move_writer.MoveWriter, game: Any, step: Any) -> Any:
        chains["store"].append(awaiting_chain())
        return await store(self, game, step)

    monkeypatch.setattr(move_writer.MoveWriter, "store", storing)

    async def server(
        scope: dict[str, Any], receive: Callable[[], Awaitable[Message]], send: Any
    ) -> None:
        async def receiving() -> Message:
            chains["receive"].append(awaiting_chain())
            return await receive()

        async def sending(message: Any) -> None:
            if message["type"] == "websocket.send":
                chains["send"].append(awaiting_chain())
            await send(message)

        await application(scope, receiving, sending)

    code, line = winnable_code()
    game = await database_sync_to_async(start_custom)(client_for(user), code)
    socket = WebsocketCommunicator(
        server, f"/ws/games/{game['id']}/", headers=[(b"origin", b"http://localhost")]
    )
    socket.scope["user"] = user
    assert (await socket.connect())[0]
    assert (await socket.receive_json_from())["type"] == "view"
    for seq, step in enumerate(line[:MOVES]):
        await socket.send_json_to({"seq": seq, **step})
        reply = await socket.receive_json_from()
        assert reply["type"] == "view" and reply["game"]["seq"] == seq + 1, reply
    await socket.disconnect()
    return chains


async def test_a_move_waits_for_its_write_under_no_middleware(
    make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = await database_sync_to_async(make_player)("depth")
    chains = await _played(monkeypatch, user)
    assert len(chains["store"]) == MOVES
    for chain in chains["store"]:
        # The socket's own task: none of the ASGI stack's coroutines above the consumer (were 12
        # in the server: its protocol's, the front gate's, the routers', the origin check's, the
        # outage guard's, the cookie, session and auth middlewares', Channels' application's).
        assert chain[0] == "DirectDispatch._serve", chain
        assert not any(name.endswith("__call__") for name in chain), chain
        # The handler's own: the frame's dispatch, the consumer's frame and move, the socket's
        # move and its group commit (were 9 to the write: Channels' `websocket_receive`, the
        # consumer's `receive` and `dispatch`, and `SocketGame._move` besides).
        assert chain[1:-1] == [
            "dispatch_both",
            "GameConsumer.websocket_receive",
            "GameConsumer._receive",
            "GameConsumer._move",
            "SocketGame.move",
            "SocketGame._grouped",
        ], chain


async def test_an_open_sockets_frames_and_replies_pass_no_wrapper(
    make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = await database_sync_to_async(make_player)("wrappers")
    chains = await _played(monkeypatch, user)
    # The opening frame passes the outage guard (it must know whether the socket was accepted);
    # every frame after it is read by the socket's dispatch straight from the server.
    opening, *frames = chains["receive"]
    assert opening[-2] == "Watched.receive", opening
    assert len(frames) >= MOVES
    assert all(chain[-2] == "dispatch_both" for chain in frames), frames
    # Every reply (the opening's view and each move's) goes from the consumer to the server.
    assert len(chains["send"]) == MOVES + 1
    assert all(chain[-2] == "GameConsumer._send" for chain in chains["send"]), chains["send"]
