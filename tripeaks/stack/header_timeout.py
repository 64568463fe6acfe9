"""Uvicorn's httptools protocol with a timeout on a request's headers.

Uvicorn has no such timeout (``timeout_keep_alive`` covers only an idle connection between two
requests; h11 and httptools have none either): a client that opened a connection and sent its
headers a byte at a time, or nothing at all, held it for as long as it liked. 50 such
connections were held open for 60 s in a tester's run (issue 35). Here every connection must
finish a request's headers within ``HTTP_HEADER_TIMEOUT`` seconds (default 10) of its opening,
and every later request on it within as long of its first byte; else the connection is closed.
Once the headers are in, the request runs as before (its body, a slow response, a WebSocket
upgraded from it have their own limits).

The front gate (tripeaks/infra/front_gate.py) is asked here before the application runs: a new
connection from an address it knows is flooding is closed as it opens, before any byte is read
(a few microseconds where a refused handshake costs a quarter of a millisecond); a socket
handshake it knows it refuses is answered 429 before a WebSocket is made of the connection.

``tripeaks.stack.serve`` names this class as Uvicorn's ``http`` protocol.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

if TYPE_CHECKING:
    from uvicorn.config import Config
    from uvicorn.server import ServerState

DEFAULT_HEADER_TIMEOUT_S = 10.0
REFUSED_UPGRADE = (
    b"HTTP/1.1 429 Too Many Requests\r\nretry-after: %d\r\ncontent-length: 0\r\n"
    b"connection: close\r\n\r\n"
)


def header_timeout() -> float:
    return float(os.environ.get("HTTP_HEADER_TIMEOUT") or DEFAULT_HEADER_TIMEOUT_S)


def refused_connection(transport: asyncio.Transport) -> bool:
    """Close a new connection from an address the front gate knows is flooding, before any byte
    of it is read (`front_gate.flooding`): True when it was closed so."""
    from tripeaks.infra.front_gate import flooding

    peer = transport.get_extra_info("peername")
    if not isinstance(peer, tuple) or not flooding(str(peer[0])):
        return False
    transport.close()
    return True


class HeaderTimeoutProtocol(HttpToolsProtocol):
    header_timeout: float
    header_timer: asyncio.TimerHandle | None

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, object],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        # Uvicorn's state (its parser, its limits, its loggers) is made once the connection is
        # let in: a flooding address's connection, closed as it opens, never needs it (16 us of
        # a refused connection's ~80 us of Python).
        self.made_with = (config, server_state, app_state, _loop)
        self.refused = False

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self.header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _cancel_header_timer(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def _headers_too_slow(self) -> None:
        self.header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        if refused_connection(transport):
            self.refused = True  # closed: nothing else is set up, nothing more is read
            return
        super().__init__(*self.made_with)
        self.header_timeout = header_timeout()
        self.header_timer = None
        super().connection_made(transport)
        self._arm_header_timer()  # a connection that sends nothing is not kept either

    def connection_lost(self, exc: Exception | None) -> None:
        if self.refused:
            return
        self._cancel_header_timer()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.header_timer is None:  # a later request on a kept-alive connection
            self._arm_header_timer()

    def on_headers_complete(self) -> None:
        self._cancel_header_timer()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        from tripeaks.infra.front_gate import known_refused_socket

        wait = known_refused_socket(self.client, self.scope["headers"])
        if wait is None:
            super().handle_websocket_upgrade()
            return
        self.transport.write(REFUSED_UPGRADE % wait)
        self.transport.close()
