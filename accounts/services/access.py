"""A player's sessions and API token: recorded on use, listed, ended.

``RecordAccess`` (accounts.middleware) calls `record` after every request made with a session
or a token; the row is written at most once a minute per session or token (a cache gate), so
the last-seen time is accurate to a minute. Ending a session deletes it from the session store
(the cookie then signs nobody in); ending the token deletes it (DRF then answers 401). Sockets
opened with them are told through ``accounts.signals.access_ended``.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from importlib import import_module

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import AccessKind, AccessRecord, User
from accounts.selectors import live_access, live_access_of
from accounts.signals import access_ended

log = logging.getLogger("tripeaks.events")

RECORD_EVERY_SECONDS = 60
USER_AGENT_MAX = AccessRecord._meta.get_field("user_agent").max_length or 400


class NotYours(Exception):
    """No such session or token among the player's own."""


def _gate_key(kind: str, key: str) -> str:
    return f"access-seen:{kind}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"


# This process's own gate, before the shared one: most requests of a session come within a
# minute of the last one, and then cost no round trip to Redis at all.
_seen_here: dict[tuple[str, str], float] = {}
_seen_here_lock = threading.Lock()
SEEN_HERE_MAX = 20_000


def _seen_here_recently(kind: str, key: str) -> bool:
    now = time.monotonic()
    with _seen_here_lock:
        seen = _seen_here.get((kind, key))
        if seen is not None and now - seen < RECORD_EVERY_SECONDS:
            return True
        if len(_seen_here) >= SEEN_HERE_MAX:
            cutoff = now - RECORD_EVERY_SECONDS
            for stale in [k for k, at in _seen_here.items() if at < cutoff]:
                del _seen_here[stale]
            if len(_seen_here) >= SEEN_HERE_MAX:
                _seen_here.clear()
        _seen_here[(kind, key)] = now
        return False


def forget_gates() -> None:
    """Forget this process's gate (tests that make a minute pass)."""
    with _seen_here_lock:
        _seen_here.clear()


def record(*, user_id: int, kind: str, key: str, user_agent: str, address: str | None) -> bool:
    """Note that `key` (a session key or token key) was used now; at most once a minute per key.
    True when a row was written."""
    if _seen_here_recently(kind, key):
        return False
    try:
        if not cache.add(_gate_key(kind, key), 1, timeout=RECORD_EVERY_SECONDS):
            return False
    except Exception:  # a cache outage must not fail the request
        log.warning("access gate cache unreachable; not recording", exc_info=True)
        return False
    now = timezone.now()
    row = AccessRecord(
        user_id=user_id,
        kind=kind,
        key=key,
        user_agent=user_agent[:USER_AGENT_MAX],
        address=address,
        created_at=now,
        last_seen=now,
    )
    try:
        # Its own transaction: the player's foreign key is checked at its commit.
        with transaction.atomic():
            AccessRecord.objects.bulk_create(
                [row],
                update_conflicts=True,
                unique_fields=["kind", "key"],
                update_fields=["user_agent", "address", "last_seen"],
            )
    except IntegrityError:
        # The player was deleted while the request ran (a guest is deleted outright, from
        # another tab say): there is nobody to note the access of.
        return False
    return True


@transaction.atomic
def issue_token(*, user: User) -> Token:
    """The player's API token (one per player; made on first request)."""
    token, _ = Token.objects.get_or_create(user=user)
    # Listed among the player's sessions from now on, not only once used.
    AccessRecord.objects.get_or_create(
        kind=AccessKind.TOKEN,
        key=token.key,
        defaults={"user": user, "created_at": token.created, "last_seen": token.created},
    )
    return token


def revoke_token(*, user: User) -> bool:
    """Delete the player's API token (one statement). True when there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted > 0


def forget_ended() -> int:
    """Drop the records (device, address) of sessions and tokens that ended. How many."""
    deleted, _ = AccessRecord.objects.exclude(live_access()).delete()
    return deleted


def _session_store() -> type[SessionBase]:
    store: type[SessionBase] = import_module(settings.SESSION_ENGINE).SessionStore
    return store


def _end(user_id: int, session_keys: list[str], token_keys: list[str]) -> None:
    store = _session_store()
    for key in session_keys:
        store(session_key=key).delete()
    if token_keys:
        Token.objects.filter(user_id=user_id, key__in=token_keys).delete()
    AccessRecord.objects.filter(
        Q(kind=AccessKind.SESSION, key__in=session_keys)
        | Q(kind=AccessKind.TOKEN, key__in=token_keys),
        user_id=user_id,
    ).delete()
    if session_keys or token_keys:
        transaction.on_commit(
            lambda: access_ended.send(
                sender=User, user_id=user_id, session_keys=session_keys, token_keys=token_keys
            )
        )


@transaction.atomic
def end_access(*, user: User, record_id: int) -> None:
    """End one of the player's sessions or their token (by the record's id)."""
    row = AccessRecord.objects.filter(user=user, pk=record_id).first()
    if row is None:
        raise NotYours(record_id)
    if row.kind == AccessKind.SESSION:
        _end(user.pk, [row.key], [])
    else:
        _end(user.pk, [], [row.key])


@transaction.atomic
def end_other_access(
    *, user: User, keep_session: str | None = None, keep_token: str | None = None
) -> int:
    """End every live session and token of the player but the ones kept. How many were ended."""
    live = live_access_of(user)
    sessions = [
        key
        for key in live.filter(kind=AccessKind.SESSION).values_list("key", flat=True)
        if key != keep_session
    ]
    tokens = [
        key
        for key in Token.objects.filter(user=user).values_list("key", flat=True)
        if key != keep_token
    ]
    _end(user.pk, sessions, tokens)
    # Records of sessions and tokens that ended by themselves (expired, signed out, cycled).
    AccessRecord.objects.filter(user=user).exclude(key__in=[keep_session, keep_token]).delete()
    return len(sessions) + len(tokens)


def end_all_access(*, user: User) -> int:
    return end_other_access(user=user)
