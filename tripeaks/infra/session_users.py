"""The signed-in user of a session, for a request (`SessionUserMiddleware`) and a socket
(tripeaks/infra/socket_threads.py): Django's `get_user`, the user's row read with one plain
statement.

Django's `get_user` (and Channels', its copy for sockets) has the session's backend read the
user through the ORM (`ModelBackend`: `_default_manager.get(pk=...)`), the query built and
compiled for every request and socket that carries the session cookie; with the session's own
read it was most of a served game socket's database work (bench/README.md, "Stop 53, lead").
The steps are Django's: the session's user id and backend, the backend one of the settings', the
user able to sign in (`user_can_authenticate`), the session's hash of the password checked (a
hash made with one of `SECRET_KEY_FALLBACKS` is renewed under a new session key; any other
mismatch flushes the session: signed out). Only `ModelBackend`'s read is a statement here; any
other backend reads its own way.
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.db import connections, router
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from tripeaks.infra.model_rows import columns


def user_row(pk: int) -> AbstractBaseUser | None:
    """The user whose primary key is `pk`, as the ORM would make it, or None."""
    model = get_user_model()
    alias = router.db_for_read(model)
    quote = connections[alias].ops.quote_name
    listed, names = columns(model, "u")
    key = quote(model._meta.pk.column)
    with connections[alias].cursor() as cursor:
        cursor.execute(
            f"SELECT {listed} FROM {quote(model._meta.db_table)} u WHERE u.{key} = %s", [pk]
        )
        row = cursor.fetchone()
    if row is None:
        return None
    user: AbstractBaseUser = model.from_db(alias, names, row)
    return user


def _backend_user(backend_path: str, user_id: int) -> AbstractBaseUser | None:
    backend = load_backend(backend_path)
    if type(backend) is not ModelBackend:
        found: AbstractBaseUser | None = backend.get_user(user_id)
        return found
    user = user_row(user_id)
    return user if user is not None and backend.user_can_authenticate(cast(Any, user)) else None


def session_user(session: SessionBase, *, renew: bool = True) -> AbstractBaseUser | AnonymousUser:
    """The session's signed-in user, else an anonymous one (Django's `get_user`). A socket
    passes `renew=False`: it cannot hand its browser a new session key, so a session signed
    under a fallback secret key is taken as it is, to be renewed by the browser's next request."""
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return AnonymousUser()
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return AnonymousUser()
    user = _backend_user(backend_path, user_id)
    if user is None:
        return AnonymousUser()
    return user if _hash_verified(session, user, renew) else AnonymousUser()


def _hash_verified(session: SessionBase, user: AbstractBaseUser, renew: bool) -> bool:
    """Whether the session was signed in with the user's password as it is. One signed under a
    fallback secret key is renewed (a new key, today's hash) if `renew`; any other is flushed."""
    session_hash = session.get(HASH_SESSION_KEY)
    current = user.get_session_auth_hash()
    if session_hash and constant_time_compare(session_hash, current):
        return True
    if session_hash and any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    ):
        if renew:
            session.cycle_key()
            session[HASH_SESSION_KEY] = current
        return True
    session.flush()
    return False


class SessionUserMiddleware(AuthenticationMiddleware):
    """Django's `AuthenticationMiddleware`, its `request.user` read by `session_user`."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        # (Read once, when first asked: the lazy object keeps what it read.)
        lazy = SimpleLazyObject(partial(session_user, request.session))
        request.user = lazy  # type: ignore[assignment]  # (as Django does: a lazy user)
