"""The sockets' database work in the event loop's worker threads.

`database_sync_to_async` runs a call on the process's one thread for thread-sensitive code unless
told otherwise. A socket's handshake read its user there (Channels' `AuthMiddleware`), its session
check after the group joins, and the game socket its game: three calls a socket, one after
another for every socket of the process. In the race bench (1,000 players, 250 races starting
over 10 s) a player heard of their game 0.2-0.5 s after the start instant and had it on screen
8.6 s after (p50), the game sockets queued on that one thread. `in_a_thread` runs a call in a
worker thread of its own instead, and closes the connections it opened when it returns, as at
the end of a request.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ParamSpec, TypeVar, cast

from channels.auth import AuthMiddleware
from channels.db import database_sync_to_async
from django.db import close_old_connections
from django.utils.functional import LazyObject, empty

from tripeaks.infra.session_users import session_user

P = ParamSpec("P")
R = TypeVar("R")


def closing_connections(call: Callable[P, R]) -> Callable[P, R]:
    """`call`, closing the thread's database connections when it returns, as at the end of a
    request. For the worker threads of `database_sync_to_async`: channels closes them too, but
    outside the context the call ran in, and a connection the call opened there stayed open (seen
    in tests: the test database could not be dropped)."""

    @functools.wraps(call)
    def closing(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return call(*args, **kwargs)
        finally:
            close_old_connections()

    return closing


def in_a_thread(call: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """`call` from the event loop in a worker thread of its own, its connections closed after."""
    threaded: Callable[P, Awaitable[R]] = database_sync_to_async(
        closing_connections(call), thread_sensitive=False
    )
    return threaded


def _user_then(scope: Mapping[str, Any], then: Callable[[Any], Any] | None) -> tuple[Any, Any]:
    if "session" not in scope:
        raise ValueError("A socket's user is read from its session: wrap it in SessionMiddleware.")
    user = session_user(scope["session"], renew=False)
    return user, (then(user) if then is not None and user.is_authenticated else None)


_user_then_of = in_a_thread(_user_then)


def user_unread(scope: Mapping[str, Any]) -> bool:
    """Whether the socket's user is still to be read (`read_user`): its consumer reads its own."""
    user = scope.get("user")
    return isinstance(user, LazyObject) and getattr(user, "_wrapped", None) is empty


async def read_user(scope: dict[str, Any], then: Callable[[Any], R] | None = None) -> R | None:
    """The scope's user read from its session (the session's row, then the user's), in a worker
    thread; and, once signed in, `then(user)` in the same thread (one hop for both: what a socket
    serves read with its user): its result, else None."""
    user, found = await _user_then_of(scope, then)
    scope["user"]._wrapped = user
    return cast("R | None", found)


class ThreadedAuthMiddleware(AuthMiddleware):  # type: ignore[misc]
    """Channels' `AuthMiddleware`, reading the user in a worker thread (`in_a_thread`). With
    `read=False` the user is left unread for the consumer to read in its own opening
    (`read_user`), once it has checked what needs no database: the game socket refuses a socket
    over its game's cap first."""

    def __init__(self, inner: Any, *, read: bool = True) -> None:
        super().__init__(inner)
        self.read = read

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        if self.read:
            await read_user(scope)
