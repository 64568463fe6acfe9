"""A bare WebSocket echo on the game servers' Uvicorn stack: what a socket message costs with no
application behind it, the yardstick `bench.play_load` measures a move against in every run.

    .venv/bin/python -m bench.echo_server [--port 18690]

The same Uvicorn as `python -m tripeaks.stack.serve` with the same options
(`tripeaks.stack.serve.uvicorn_options`: uvloop, the httptools protocol with its header timeout,
websockets-sansio, no per-message compression, the same frame cap), one process. The application
is plain ASGI: it accepts every socket and sends each text frame back as it came. No Django, no
Channels, no Redis: what is left is the server and the protocol, which a move pays too.

`--app` puts a consumer between the server and the echo instead, for `bench.socket_floor`:
`direct`, the game sockets' own way (`tripeaks.infra.socket_dispatch.DirectDispatch` on Channels'
`AsyncWebsocketConsumer`, with the channel layer the game sockets have); `channels`, Channels'
`AsyncWebsocketConsumer` as it comes, with the same channel layer.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


async def application(scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
    if scope["type"] == "http":  # a readiness probe
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    if scope["type"] != "websocket":
        return
    while True:
        message = await receive()
        kind = message["type"]
        if kind == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif kind == "websocket.receive":
            if message.get("text") is not None:
                await send({"type": "websocket.send", "text": message["text"]})
            else:
                await send({"type": "websocket.send", "bytes": message.get("bytes") or b""})
        elif kind == "websocket.disconnect":
            return


def _consumer_application(consumer: Any) -> Any:
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import re_path

    return ProtocolTypeRouter(
        {"http": application, "websocket": URLRouter([re_path(r"^.*$", consumer.as_asgi())])}
    )


def direct_application() -> Any:
    """The echo behind the game sockets' dispatch (`DirectDispatch`)."""
    from channels.generic.websocket import AsyncWebsocketConsumer

    from tripeaks.infra.socket_dispatch import DirectDispatch

    class DirectEcho(DirectDispatch, AsyncWebsocketConsumer):
        async def connect(self) -> None:
            await self.accept()

        async def websocket_receive(self, message: Message) -> None:
            await self.frame_send({"type": "websocket.send", "text": message.get("text")})

    return _consumer_application(DirectEcho)


def channels_application() -> Any:
    """The echo behind Channels' own consumer, as it comes."""
    from channels.generic.websocket import AsyncWebsocketConsumer

    class ChannelsEcho(AsyncWebsocketConsumer):
        async def receive(
            self, text_data: str | None = None, bytes_data: bytes | None = None
        ) -> None:
            await self.send(text_data=text_data, bytes_data=bytes_data)

    return _consumer_application(ChannelsEcho)


APPS = {"bare": "application", "direct": "direct_application", "channels": "channels_application"}


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    from tripeaks.stack.serve import uvicorn_options

    parser = argparse.ArgumentParser(prog="python -m bench.echo_server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=18690)
    parser.add_argument("--app", choices=sorted(APPS), default="bare")
    args = parser.parse_args(argv)
    if args.app != "bare":
        import django

        django.setup()  # the consumers' channel layer, from the project's settings
    uvicorn.run(
        f"bench.echo_server:{APPS[args.app]}",
        factory=args.app != "bare",
        host=args.host,
        port=args.port,
        workers=1,
        **uvicorn_options(),
    )


if __name__ == "__main__":
    main()
