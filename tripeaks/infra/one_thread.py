"""A request's middleware and view in one thread, not a thread hop per middleware.

Under ASGI Django runs a middleware in async mode when it can and the layer below it is async.
Our views are synchronous (DRF), yet the innermost layer is async, so every middleware that can do
both ran in async mode and called its synchronous hooks through ``sync_to_async``: a dozen hops
between the event loop and threads per request, each waiting on a server process busy with game
sockets (new games took a second and more under load). This middleware can only run sync; put
last in ``MIDDLEWARE``, it makes every layer above it choose sync, and the request makes one hop.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase


class OneThreadPerRequest:
    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)
