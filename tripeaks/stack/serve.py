"""`python -m tripeaks.stack.serve [--host H] [--port P] [--workers N]`: the site, API and game sockets.

Uvicorn on uvloop and httptools, the one way every launcher (make run, the image, compose, the
benchmarks, the fault tests) starts the ASGI application, so they all run the same server:

- no lifespan protocol: Channels' router speaks only HTTP and WebSocket;
- no access log: one JSON line per request comes from ``tripeaks.requests`` already, and
  Uvicorn's own logging is left to Django's settings (JSON lines too); no ``server`` header
  naming the software;
- a request's headers must arrive within ``HTTP_HEADER_TIMEOUT`` seconds (10) or the connection
  is closed (tripeaks/stack/header_timeout.py): slow-header clients cannot hold connections;
- no proxy headers: the client address (which the move throttles count by) is the peer's, as
  Daphne had it; a deployment behind a proxy on the same host passes ``--proxy-headers``;
- no per-message compression of socket frames (browsers offer it, Daphne never took it): a view
  is a couple of kilobytes of JSON, and packing every frame with zlib costs CPU that every other
  socket of the process waits for (play bench at 1,000 moves/s: 1.22 ms of server CPU a move
  and p99 146 ms with it, 1.17-1.20 ms and 86-138 ms without).
"""

from __future__ import annotations

import argparse
from typing import Any

APPLICATION = "tripeaks.config.asgi:application"


def uvicorn_options(*, proxy_headers: bool = False) -> dict[str, Any]:
    return {
        "loop": "uvloop",
        # httptools with a timeout on a request's headers (Uvicorn has none).
        "http": "tripeaks.stack.header_timeout:HeaderTimeoutProtocol",
        # websockets-sansio, quiet when the application refuses a handshake with an answer.
        "ws": "tripeaks.stack.socket_denial:DenialCompletesHandshake",
        "lifespan": "off",
        "access_log": False,
        "server_header": False,
        "log_config": None,
        "proxy_headers": proxy_headers,
        "ws_per_message_deflate": False,
        # The consumers refuse frames over 4,096 characters (the game's) with a reason; 4 bytes a
        # character at most in UTF-8. A larger frame closes the socket (1009) unread.
        "ws_max_size": 16384,
        # On SIGTERM sockets are told 1012 (service restart; the page reconnects) and requests get
        # this long to finish: a socket whose consumer never ends must not hold a deploy forever.
        "timeout_graceful_shutdown": 10,
    }


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m tripeaks.stack.serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes sharing the port (default 1)"
    )
    parser.add_argument("--proxy-headers", action="store_true", help="trust X-Forwarded-For")
    args = parser.parse_args(argv)
    uvicorn.run(
        APPLICATION,
        host=args.host,
        port=args.port,
        workers=args.workers,
        **uvicorn_options(proxy_headers=args.proxy_headers),
    )


if __name__ == "__main__":
    main()
