"""The signed-in user of a socket's session: Channels' `get_user`, the user's row read with one
plain statement.

Channels' `get_user` has the session's backend read the user through the ORM (`ModelBackend`:
`_default_manager.get(pk=...)`), the query built and compiled for every socket that opens; with
the session's own read it was most of a served game socket's database work (bench/README.md,
"Stop 53, lead"). The steps are Channels': the session's user id and backend, the backend one of
the settings', the user able to sign in (`user_can_authenticate`), the session's hash of the
password checked (a mismatch flushes the session: signed out). Only `ModelBackend`'s read is a
statement here; any other backend reads its own way.
"""

from __future__ import annotations

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
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.db import connections, router
from django.utils.crypto import constant_time_compare


def user_row(pk: int) -> AbstractBaseUser | None:
    """The user whose primary key is `pk`, as the ORM would make it, or None."""
    model = get_user_model()
    fields = model._meta.concrete_fields
    alias = router.db_for_read(model)
    quote = connections[alias].ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    key = quote(model._meta.pk.column)
    with connections[alias].cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {quote(model._meta.db_table)} WHERE {key} = %s", [pk]
        )
        row = cursor.fetchone()
    if row is None:
        return None
    user: AbstractBaseUser = model.from_db(alias, [field.attname for field in fields], row)
    return user


def _backend_user(backend_path: str, user_id: int) -> AbstractBaseUser | None:
    backend = load_backend(backend_path)
    if type(backend) is not ModelBackend:
        found: AbstractBaseUser | None = backend.get_user(user_id)
        return found
    user = user_row(user_id)
    # (ModelBackend's own check: an inactive user does not sign in.)
    return user if user is not None and getattr(user, "is_active", True) else None


def session_user(session: SessionBase) -> AbstractBaseUser | AnonymousUser:
    """The session's signed-in user, else an anonymous one (Channels' `get_user`)."""
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
    session_hash = session.get(HASH_SESSION_KEY)
    if not (session_hash and constant_time_compare(session_hash, user.get_session_auth_hash())):
        session.flush()
        return AnonymousUser()
    return user
