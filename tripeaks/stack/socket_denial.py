"""Uvicorn's websockets-sansio protocol, its handshake complete once a denial response is sent.

An application may refuse a socket handshake with an HTTP answer of its own (ASGI's
``websocket.http.response`` extension): the front gate answers the first opens over an address's
rate 429 with Retry-After that way (tripeaks/infra/front_gate.py). Uvicorn 0.54 sends the answer
but leaves the handshake incomplete, so that, when the application returns, it logs "ASGI callable
returned without completing handshake." at ERROR for every refusal (Kludex/uvicorn#3138, open):
a flood would fill the error log. Here the handshake is complete once the answer's last part is
sent, as Uvicorn's wsproto protocol has it.

``tripeaks.stack.serve`` names this class as Uvicorn's ``ws`` protocol.
"""

from __future__ import annotations

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class DenialCompletesHandshake(WebSocketsSansIOProtocol):
    async def send(self, message: ASGISendEvent) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body"):
            self.handshake_complete = True
