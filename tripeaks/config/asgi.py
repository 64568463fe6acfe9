"""ASGI entry point: HTTP (Django) and WebSocket (Channels) on one server.

WebSocket routes are collected from every installed project app that has a ``routing`` module
with a ``websocket_urlpatterns`` list, so apps plug in without editing this file.
"""

from __future__ import annotations

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks.config.settings")

# Initialise Django (apps, models) before importing anything that touches models.
django.setup(set_prefix=False)

from tripeaks.infra.request_threads import ReusedThreadsASGIHandler  # noqa: E402

django_asgi_app = ReusedThreadsASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import URLPattern, URLResolver  # noqa: E402

from tripeaks.config.routing import websocket_urlpatterns  # noqa: E402
from tripeaks.infra.front_gate import FrontGate  # noqa: E402
from tripeaks.infra.socket_outage import OutageGuard  # noqa: E402
from tripeaks.infra.socket_sessions import socket_session_stack  # noqa: E402
from tripeaks.infra.socket_threads import ThreadedAuthMiddleware  # noqa: E402


def with_users(routes: list[URLPattern | URLResolver]) -> list[URLPattern]:
    """Each socket route behind the auth middleware, which reads the socket's user in the
    handshake, unless its consumer reads its own (`reads_own_user`: the game socket, which first
    refuses a socket over its game's cap, with no database work)."""
    wrapped = []
    for route in routes:
        if not isinstance(route, URLPattern):
            raise TypeError(f"{route}: socket routes are path()s")
        consumer = getattr(route.callback, "consumer_class", None)
        read = not getattr(consumer, "reads_own_user", False)
        app = ThreadedAuthMiddleware(route.callback, read=read)
        wrapped.append(URLPattern(route.pattern, app, route.default_args, route.name))
    return wrapped


router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            OutageGuard(socket_session_stack(URLRouter(with_users(websocket_urlpatterns))))
        ),
    }
)
# The front gate first: a flood of socket opens or API requests from one address is refused
# before any session is read (tripeaks/infra/front_gate.py).
application = FrontGate(router)

# Everything loaded by now lives as long as the process: frozen out of the cyclic collector, it is
# not walked again at every full collection, which holds the event loop and so every socket of the
# process. In the play bench: 1.3-1.6 s of collecting per server in 45 s instead of 2.0 s, and the
# longest pause 51-125 ms instead of 155-229 ms. (A larger first generation cut collecting to
# 0.24 s but let cyclic garbage pile up: +5 MB a minute in a soak.)
#
# A full collection still walks every socket's objects (79k-127k in a 400-player race run): 113-131
# ms of the event loop each, one or two a server a run, every move in flight waiting through it,
# which made the race round trip's p99. Ten times fewer of them (the third threshold 100, not 10):
# none in a whole 400-player run (bench/README.md, "Stop 47").
#
# The youngest generation is collected after 10,000 allocations, not 700: most of a move's objects
# (its game copy, its view, its step) live from one move to the next, so at 700 each was walked
# and moved on to the next generation to be walked again: 6.7-7.1% of a solo move's server CPU
# collecting, 1.8-2.5% so (bench/README.md, "Stop 50, solo"). The pile-up of cyclic garbage that
# kept it at 700 was mostly every finished game, held in a cycle with its result (no longer).
gc.collect()
gc.freeze()
gc.set_threshold(10_000, 10, 100)
