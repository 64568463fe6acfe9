"""A session's row and a socket's user read with one plain statement each (tripeaks/infra/
sessions.py, session_users.py), with what Django's store and Channels' `get_user` give."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import timedelta
from importlib import import_module
from typing import Any

import pytest
from channels.auth import get_user
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from tripeaks.infra.session_users import session_user, user_row

pytestmark = pytest.mark.django_db

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _store() -> Any:
    return import_module(settings.SESSION_ENGINE).SessionStore


def _signed_in(user: User, backend: str = MODEL_BACKEND) -> str:
    session = _store()()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = backend
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session["seen"] = [1, "two"]
    session.create()
    assert session.session_key
    return str(session.session_key)


def _python_calls(call: Callable[[], object]) -> int:
    count = 0

    def counted(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(counted)
    try:
        call()
    finally:
        sys.setprofile(None)
    return count


def test_the_store_loads_what_djangos_loads_in_one_statement() -> None:
    user = User.objects.create_user("reader", password="x-1234567")
    key = _signed_in(user)
    with CaptureQueriesContext(connection) as queries:
        loaded = _store()(key).load()
    assert loaded == DjangoStore(key).load() and loaded["seen"] == [1, "two"]
    assert len(queries) == 1
    # Django's store builds and compiles its query: 593 Python calls a read, 170 here.
    _store()(key).load()
    assert _python_calls(lambda: _store()(key).load()) < 250
    assert _python_calls(lambda: DjangoStore(key).load()) > 450


def test_an_expired_an_unknown_and_a_malformed_key_load_nothing() -> None:
    user = User.objects.create_user("expiring", password="x-1234567")
    expired = _signed_in(user)
    Session.objects.filter(pk=expired).update(expire_date=timezone.now() - timedelta(seconds=1))
    for key in (expired, "no-such-session-key-at-all-here", "short", None):
        store = _store()(key)
        assert store.load() == {} and store.session_key is None
        assert DjangoStore(key).load() == {}
    live = _signed_in(user)
    assert _store()().exists(live) and not _store()().exists(expired + "x")


def test_the_user_row_is_the_orms_user() -> None:
    user = User.objects.create_user("rowed", password="x-1234567", display_name="Row")
    User.objects.filter(pk=user.pk).update(last_login=timezone.now(), is_guest=True)
    read, orm = user_row(user.pk), User.objects.get(pk=user.pk)
    assert isinstance(read, User) and read.pk == orm.pk and not read._state.adding
    for field in User._meta.concrete_fields:
        assert getattr(read, field.attname) == getattr(orm, field.attname), field.name
    assert user_row(user.pk + 1000) is None


def _both(key: str) -> tuple[Any, Any]:
    """The socket's user read ours and Channels' way, each from a session of its own."""
    return session_user(_store()(key)), get_user.func({"session": DjangoStore(key)})


def test_a_signed_in_session_gives_its_user_as_channels_does() -> None:
    user = User.objects.create_user("signed", password="x-1234567")
    key = _signed_in(user)
    ours, theirs = _both(key)
    assert ours == theirs == user and ours.is_authenticated
    # The session's and the user's reads: 360 Python calls, 1,254 Channels' way.
    assert _python_calls(lambda: session_user(_store()(key))) < 500
    assert _python_calls(lambda: get_user.func({"session": DjangoStore(key)})) > 900


@pytest.mark.parametrize("case", ["inactive", "password changed", "unknown backend", "deleted"])
def test_a_session_that_signs_nobody_in_gives_an_anonymous_user(case: str) -> None:
    user = User.objects.create_user(f"nobody-{case[:4]}", password="x-1234567")
    key = _signed_in(user, "some.other.Backend" if case == "unknown backend" else MODEL_BACKEND)
    if case == "inactive":
        User.objects.filter(pk=user.pk).update(is_active=False)
    if case == "password changed":
        user.set_password("y-7654321")
        user.save()
    if case == "deleted":
        User.objects.filter(pk=user.pk).delete()
    ours, theirs = _both(key)
    assert isinstance(ours, AnonymousUser) and isinstance(theirs, AnonymousUser)


def test_a_session_with_no_user_is_anonymous_and_a_wrong_hash_flushes_it() -> None:
    empty = _store()()
    empty["theme"] = "dark"
    empty.create()
    assert isinstance(session_user(_store()(empty.session_key)), AnonymousUser)
    user = User.objects.create_user("hashed", password="x-1234567")
    key = _signed_in(user)
    session = _store()(key)
    session[HASH_SESSION_KEY] = "not-the-hash"
    session.save()
    assert isinstance(session_user(_store()(key)), AnonymousUser)
    assert not Session.objects.filter(pk=key).exists()  # flushed: signed out


def _request(key: str) -> Any:
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.session = _store()(key)
    return request


def test_a_requests_user_is_djangos_read_with_one_statement_a_row() -> None:
    from django.contrib.auth import get_user as django_get_user

    from tripeaks.infra.session_users import SessionUserMiddleware

    user = User.objects.create_user("requester", password="x-1234567")
    key = _signed_in(user)
    request = _request(key)
    SessionUserMiddleware(lambda request: None).process_request(request)
    with CaptureQueriesContext(connection) as queries:
        assert request.user == user and request.user.is_authenticated
        assert request.user.username == "requester"  # read once: no second read
    assert len(queries) == 2  # the session's row, the user's
    assert django_get_user(_request(key)) == user
    # Django's way reads the user through the ORM, after the same session read.
    ours, djangos = _request(key), _request(key)
    assert _python_calls(lambda: session_user(ours.session)) < 450  # 341
    assert _python_calls(lambda: django_get_user(djangos)) > 650  # 788


def test_a_session_signed_under_a_fallback_key_is_renewed_as_django_renews_it(
    settings: Any,
) -> None:
    from django.contrib.auth import get_user as django_get_user

    user = User.objects.create_user("fallback", password="x-1234567")
    old_secret = settings.SECRET_KEY
    ours_key, djangos_key = _signed_in(user), _signed_in(user)
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "a-new-secret-" * 5, [old_secret]
    # The sessions' data were signed with the old key too: sessions read under the fallback.
    ours, djangos = _request(ours_key), _request(djangos_key)
    assert session_user(ours.session) == user and django_get_user(djangos) == user
    for request, key in ((ours, ours_key), (djangos, djangos_key)):
        assert request.session.session_key != key  # a new key
        assert request.session[HASH_SESSION_KEY] == user.get_session_auth_hash()
    # A socket takes it as it is: it could not hand its browser the new key.
    socket_key = _signed_in(user)
    settings.SECRET_KEY = "a-newer-secret-" * 4
    settings.SECRET_KEY_FALLBACKS = ["a-new-secret-" * 5]
    socket_session = _store()(socket_key)
    assert session_user(socket_session, renew=False) == user
    assert (
        socket_session.session_key == socket_key and Session.objects.filter(pk=socket_key).exists()
    )
    settings.SECRET_KEY_FALLBACKS = []
    stale = _signed_in(user)
    settings.SECRET_KEY = "yet-another-secret-" * 3
    assert isinstance(session_user(_store()(stale)), AnonymousUser)


def test_an_api_token_is_drfs_read_with_one_statement() -> None:
    from rest_framework.authentication import TokenAuthentication as DRFTokens
    from rest_framework.authtoken.models import Token
    from rest_framework.exceptions import AuthenticationFailed

    from tripeaks.infra.token_users import TokenAuthentication

    user = User.objects.create_user("tokened", password="x-1234567")
    token = Token.objects.create(user=user)
    ours, drfs = TokenAuthentication(), DRFTokens()
    with CaptureQueriesContext(connection) as queries:
        found_user, found_token = ours.authenticate_credentials(token.key)
        assert found_token.user.username == "tokened"  # its user cached on it
    assert len(queries) == 1
    theirs = drfs.authenticate_credentials(token.key)
    assert (found_user, found_token) == theirs and found_token.created == theirs[1].created
    for field in User._meta.concrete_fields:
        assert getattr(found_user, field.attname) == getattr(theirs[0], field.attname)
    # DRF's way builds and compiles a joined query: 789 Python calls, 187 here.
    assert _python_calls(lambda: ours.authenticate_credentials(token.key)) < 300
    assert _python_calls(lambda: drfs.authenticate_credentials(token.key)) > 600
    hostile = ("0" * 40, "x' OR '1'='1", "k" * 5000, token.key.upper())
    cases = [
        *((key, "Invalid token.") for key in hostile),
        (token.key, "User inactive or deleted."),
    ]
    for key, detail in cases:
        if detail.startswith("User"):
            User.objects.filter(pk=user.pk).update(is_active=False)
        for authentication in (ours, drfs):
            with pytest.raises(AuthenticationFailed, match=detail):
                authentication.authenticate_credentials(key)
