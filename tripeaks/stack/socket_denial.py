"""Uvicorn's websockets-sansio protocol, its handshake complete once a denial response is sent.

An application may refuse a socket handshake with an HTTP answer of its own (ASGI's
``websocket.http.response`` extension): the front gate answers the first opens over an address's
rate 429 with Retry-After that way (tripeaks/infra/front_gate.py). Uvicorn 0.54 sends the answer
but leaves the handshake incomplete, so that, when the application returns, it logs "ASGI callable
returned without completing handshake." at ERROR for every refusal (Kludex/uvicorn#3138, open):
a flood would fill the error log. Here the handshake is complete once the answer's last part is
sent, as Uvicorn's wsproto protocol has it: Uvicorn marks the answer sent (`close_sent` with an
`initial_response`), and `handshake_complete` says so. (An override of `send` did it before: a
coroutine more under every frame every socket sent, the game's replies and the echo's alike.)

``tripeaks.stack.serve`` names this class as Uvicorn's ``ws`` protocol.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class DenialCompletesHandshake(WebSocketsSansIOProtocol):
    _handshake_done = False

    @property
    def handshake_complete(self) -> bool:
        """Accepted or refused as Uvicorn has it, or a denial answered to its last part."""
        return self._handshake_done or (self.initial_response is not None and self.close_sent)

    @handshake_complete.setter
    def handshake_complete(self, done: bool) -> None:
        self._handshake_done = done
