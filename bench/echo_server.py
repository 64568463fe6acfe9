"""A bare WebSocket echo on the game servers' Uvicorn stack: what a socket message costs with no
application behind it, the yardstick `bench.play_load` measures a move against in every run.

    .venv/bin/python -m bench.echo_server [--port 18690]

The same Uvicorn as `python -m tripeaks.stack.serve` with the same options
(`tripeaks.stack.serve.uvicorn_options`: uvloop, the httptools protocol with its header timeout,
websockets-sansio, no per-message compression, the same frame cap), one process. The application
is plain ASGI: it accepts every socket and sends each text frame back as it came. No Django, no
Channels, no Redis: what is left is the server and the protocol, which a move pays too.
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


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    from tripeaks.stack.serve import uvicorn_options

    parser = argparse.ArgumentParser(prog="python -m bench.echo_server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=18690)
    args = parser.parse_args(argv)
    uvicorn.run(
        "bench.echo_server:application",
        host=args.host,
        port=args.port,
        workers=1,
        **uvicorn_options(),
    )


if __name__ == "__main__":
    main()
