"""Sockets end with the session that opened them.

Every signed-in socket (the game socket, the live board) joins two channel-layer groups when it
opens: one for its session (``session_group``, named after a digest of the session key, never the
key itself) and one for its player (``user_group``). Sending ``socket.end`` to a group closes its
sockets with code 4401 within the channel layer's delivery time (milliseconds over Redis):

- ``close_sockets_of_session(key)``: closes the sockets of that session, on every server
  process; ``accounts.socket_receivers`` calls it on signing out (``user_logged_out``) and for
  every session that ``accounts.signals.access_ended`` names (a password change or reset, ending
  sessions, a deletion);
- ``close_sockets_of_user(user_id, except_session=key)``: every socket of a player, except those
  of one session. For ending the *other* sessions (a password change): pass the session key the
  sockets were opened with, i.e. read it before ``update_session_auth_hash()``, which gives the
  session a new key.

Sockets authenticate with the session cookie only (API tokens open no socket), so revoking a
token has no socket to close.

Consumers use ``SessionSocket``: ``await self.join_session_groups()`` once signed in (it also
closes the race with a sign-out that happened while the socket was opening: it looks the session
up again once it has joined), ``await self.leave_session_groups()`` in ``disconnect``. A consumer
that reads its own user (``reads_own_user``, tripeaks/infra/socket_threads.py) has it read by
``join_session_groups``, after it has joined its session's group: the one read of the session is
also the look after the join. One that serves something it reads as it opens (the race socket,
its race) reads it in the same worker thread's hop (``sign_in_reading``).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware

from tripeaks.infra.socket_threads import in_a_thread, read_user, user_unread

log = logging.getLogger("tripeaks.sockets")

R = TypeVar("R")


class SocketSessionMiddleware(SessionMiddleware):  # type: ignore[misc]
    """Channels' `SessionMiddleware` for sockets: the session resolved into the scope as there,
    and the server's own `send` handed on. Channels' wrapped `send` saves the session only on
    `http.response.start`, which a socket never sends (a consumer that changes the session saves
    it itself), yet read the session twice on every frame: 1.7 % of a race server's CPU on the
    race sockets' progress frames alone (py-spy, bench/README.md)."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def socket_session_stack(inner: Any) -> Any:
    """Channels' `SessionMiddlewareStack`, with `SocketSessionMiddleware`."""
    return CookieMiddleware(SocketSessionMiddleware(inner))


CLOSE_SESSION_ENDED = 4401


def session_digest(session_key: str) -> str:
    return hashlib.sha256(session_key.encode()).hexdigest()[:40]


def session_group(session_key: str) -> str:
    return f"session.{session_digest(session_key)}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def _send(group: str, event: dict[str, str]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, event)
    except Exception:  # best effort: a channel layer outage must not fail the sign-out
        log.warning("could not reach the sockets of %s", group.split(".")[0], exc_info=True)


def close_sockets_of_session(session_key: str | None) -> None:
    """Close every socket opened with this session, on every server process."""
    if session_key:
        _send(session_group(session_key), {"type": "socket.end"})


def close_sockets_of_user(user_id: int, *, except_session: str | None = None) -> None:
    """Close every socket of this player, but those opened with `except_session` (a key)."""
    event = {"type": "socket.end"}
    if except_session:
        event["except_session"] = session_digest(except_session)
    _send(user_group(user_id), event)


def _session_key(scope: Mapping[str, Any]) -> str | None:
    """The session key the socket's cookie names (no database read)."""
    session = scope.get("session")
    key = getattr(session, "session_key", None) if session is not None else None
    return key if isinstance(key, str) and key else None


class SessionSocket:
    """Mixin for an ``AsyncWebsocketConsumer`` whose sockets end with their session."""

    scope: dict[str, Any]
    channel_layer: Any
    channel_name: str
    close: Callable[..., Awaitable[None]]  # AsyncWebsocketConsumer's
    _session_groups: tuple[str, ...] = ()
    _session_digest: str | None = None
    # A consumer that reads its own user and joins a group of its own once signed in can join its
    # player's group with that one, in the same round trip (`player_group_to_join`).
    joins_player_group_itself = False
    _player_group_to_join: str | None = None

    def signs_nobody_in(self) -> bool:
        """Whether the socket is anonymous for sure, with no database read: its user is read and
        anonymous, or it is still to be read (`reads_own_user`) and no session cookie came."""
        if user_unread(self.scope):
            return not _session_key(self.scope)
        user = self.scope.get("user")
        return user is None or not user.is_authenticated

    async def join_session_groups(self) -> bool:
        """Join the socket's session and player groups. False (and the socket closed) when the
        session ended while the socket was opening. A consumer that reads its own user
        (`reads_own_user`) reads it here, in its session's group already (`_sign_in`)."""
        if user_unread(self.scope):
            await self._sign_in()
            return True
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return True
        session = self.scope.get("session")
        key = _session_key(self.scope)
        groups = [user_group(user.pk)]
        if key:
            groups.append(session_group(key))
            self._session_digest = session_digest(key)
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self._session_groups = tuple(groups)
        # A sign-out between the handshake's session lookup and the joins above sent its close
        # to nobody: look again now that this socket would hear it.
        if key and session is not None and not await in_a_thread(session.exists)(key):
            await self.close(code=CLOSE_SESSION_ENDED)
            return False
        return True

    async def sign_in_reading(self, read: Callable[[Any], R]) -> tuple[bool, R | None]:
        """`join_session_groups`, then `read(user)` in a worker thread once signed in: whether
        the socket is signed in, and what `read` found. A consumer that reads its own user
        (`reads_own_user`) reads both in one hop, its user's read's (`_sign_in`). Not signed in:
        the socket closed (4401), in no group."""
        if user_unread(self.scope):
            found = await self._sign_in(read)
        elif await self.join_session_groups():
            user = self.scope.get("user")
            signed_in = user is not None and user.is_authenticated
            found = await in_a_thread(read)(user) if signed_in else None
        else:
            return False, None  # its session ended while it opened: closed already
        if not self.scope["user"].is_authenticated:
            await self.close(code=CLOSE_SESSION_ENDED)
            return False, None
        return True, found

    async def _sign_in(self, then: Callable[[Any], R] | None = None) -> R | None:
        """The user read from the session once this socket is in the session's group: a
        sign-out before the join leaves no session to read (anonymous), one after it is heard
        here. So the session is read once, and not looked up again as `join_session_groups`
        does for a user read in the handshake; `then(user)` in the same hop once signed in (its
        result, else None). Anonymous: in no group."""
        key = _session_key(self.scope)
        if key is None:
            await read_user(self.scope)  # no session to read: anonymous
            return None
        group = session_group(key)
        await self.channel_layer.group_add(group, self.channel_name)
        signed_in = False
        try:  # a database error refuses the socket (OutageGuard): in no group
            found = await read_user(self.scope, then)
            signed_in = self.scope["user"].is_authenticated
        finally:
            if not signed_in:
                await self.channel_layer.group_discard(group, self.channel_name)
        if signed_in:
            self._session_digest = session_digest(key)
            player = user_group(self.scope["user"].pk)
            if self.joins_player_group_itself:
                self._player_group_to_join = player
            else:
                await self.channel_layer.group_add(player, self.channel_name)
            self._session_groups = (group, player)
        return found

    def player_group_to_join(self) -> tuple[str, ...]:
        """The player's group, for a consumer that joins it itself (`joins_player_group_itself`),
        once signed in and until asked: it is to join it now."""
        player, self._player_group_to_join = self._player_group_to_join, None
        return (player,) if player is not None else ()

    async def leave_session_groups(self, *others: str) -> None:
        """Out of its session's and player's groups, and of `others` (a game socket's game's),
        in one round trip (the layer's `group_leave`)."""
        groups = (*self._session_groups, *others)
        self._session_groups = ()
        if groups:
            await self.channel_layer.group_leave(groups, self.channel_name)

    async def socket_end(self, event: dict[str, object]) -> None:
        if event.get("except_session") and event["except_session"] == self._session_digest:
            return
        await self.close(code=CLOSE_SESSION_ENDED)
