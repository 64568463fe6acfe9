"""Guests: play first, sign up later.

A guest is a ``User`` row with ``is_guest`` set, an unusable password and a made-up username
(``guest.<hex>``: the dot keeps it out of reach of sign-up). The session cookie is the guest's
only key. Guests play every deal under every rule; their results count in their own statistics
but never on a public board (the ``excluded`` answer of leaderboard.fairplay holds their runs off the deal boards,
leaderboard.selectors.alltime_board leaves them out of the all-time boards).

Signing up from a guest session turns the same row into an account (`claim_guest`): games,
results, statistics and first tries stay with it, so a deal scouted as a guest is not a first try
afterwards. Guests idle for ``GUEST_IDLE_DAYS`` are deleted with everything they played
(`remove_idle_guests`, a Celery beat task).
"""

from __future__ import annotations

import secrets
from datetime import datetime

from django.contrib.auth import update_session_auth_hash
from django.db import IntegrityError, transaction
from django.http import HttpRequest

from accounts import selectors
from accounts.models import User
from accounts.services import access
from accounts.services.players import UsernameTaken
from tripeaks.infra.throttling import Limit, check

GUEST_PREFIX = "guest."


class NotAGuest(Exception):
    """The account is not (or no longer) a guest."""


def creation_wait(address: str | None) -> int | None:
    """Count a guest creation against the per-address limit (``PLAY_THROTTLE_RATES
    ["guest_address"]``, one atomic count in Redis): seconds to wait when over it, else None."""
    return check([Limit("guest_address", address or "unknown")])


@transaction.atomic
def create_guest() -> User:
    user = User(username=f"{GUEST_PREFIX}{secrets.token_hex(8)}", is_guest=True)
    user.set_unusable_password()
    user.save()
    return user


@transaction.atomic
def claim_guest(
    *,
    guest: User,
    username: str,
    password: str,
    display_name: str = "",
    request: HttpRequest | None = None,
) -> User:
    """Turn the guest into an account in place (same row: everything played stays). With
    `request` (the guest's own session), the session is moved on to the account's new password
    hash in the same transaction: a claim whose session cannot be saved is undone, so the guest
    is never left signed out of an account they did not finish making (the sessions are rows of
    the same database)."""
    user = User.objects.select_for_update().get(pk=guest.pk)
    if not user.is_guest or not user.is_active:
        raise NotAGuest(user.pk)
    if User.objects.username_taken(username, exclude_pk=user.pk):
        raise UsernameTaken(username)
    user.username = username
    user.display_name = display_name.strip()
    user.is_guest = False
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save(update_fields=["username", "display_name", "is_guest", "password"])
    except IntegrityError as exc:
        raise UsernameTaken(username) from exc
    if request is not None:
        update_session_auth_hash(request, user)
    return user


def remove_idle_guests(*, now: datetime | None = None) -> int:
    """Delete idle guests with their games, results and statistics (500 a call). How many."""
    removed = 0
    for user_id in selectors.idle_guests(now=now):
        with transaction.atomic():
            user = User.objects.select_for_update().filter(pk=user_id, is_guest=True).first()
            if user is None:
                continue
            access.end_all_access(user=user)
            user.delete()
            removed += 1
    return removed
