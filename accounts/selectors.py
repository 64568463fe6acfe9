"""Reads of accounts: plain functions that return rows or answers; they write nothing.

The views and forms call them; the write paths (``accounts.services``) use the same definitions,
so "a live session" means one thing everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext
from rest_framework.authtoken.models import Token

from accounts.models import AccessKind, AccessRecord, User
from accounts.name_shapes import username_skeleton


def username_taken(username: str, *, exclude_pk: int | None = None) -> bool:
    """Whether an account (or a name still held after a deletion) has this username, compared
    without case."""
    return User.objects.username_taken(username, exclude_pk=exclude_pk)


def username_looks_like(shape: str, *, except_username: str | None) -> bool:
    """Whether a player other than `except_username` has a username of this skeleton
    (``name_shapes.skeleton``; one query, the usernames' skeletons computed in SQL)."""
    others = User.objects.alias(shape=username_skeleton()).filter(shape=shape)
    if except_username is not None:
        others = others.exclude(username__iexact=except_username)
    return others.exists()


def idle_guests(*, now: datetime | None = None) -> list[int]:
    """Guests older than ``GUEST_IDLE_DAYS`` with no request and no game started since (at most
    500: ``services.guests.remove_idle_guests`` takes them a batch a call)."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.GUEST_IDLE_DAYS)
    recent_use = AccessRecord.objects.filter(user_id=OuterRef("pk"), last_seen__gte=cutoff)
    return list(
        User.objects.filter(is_guest=True, date_joined__lt=cutoff)
        .exclude(Exists(recent_use))
        .exclude(games__created_at__gte=cutoff)
        .values_list("pk", flat=True)[:500]
    )


# --------------------------------------------------------------------------- sessions and token


def live_access() -> Q:
    """Records whose session or token still signs someone in."""
    live_session = Session.objects.filter(
        session_key=OuterRef("key"), expire_date__gt=timezone.now()
    )
    live_token = Token.objects.filter(key=OuterRef("key"), user_id=OuterRef("user_id"))
    return Q(Exists(live_session), kind=AccessKind.SESSION) | Q(
        Exists(live_token), kind=AccessKind.TOKEN
    )


def live_access_of(user: User) -> QuerySet[AccessRecord]:
    """The player's records whose session or token still signs them in."""
    return AccessRecord.objects.filter(user=user).filter(live_access())


@dataclass(frozen=True)
class Access:
    id: int
    kind: str
    device: str
    address: str | None
    created_at: datetime
    last_seen: datetime
    current: bool


def describe_device(user_agent: str) -> str:
    """ "Firefox 139 on Ubuntu", from a user agent (ua-parser); "Unknown device" when empty."""
    if not user_agent.strip():
        return gettext("Unknown device")
    from ua_parser import parse

    parsed = parse(user_agent)
    browser = parsed.user_agent
    system = parsed.os
    name = browser.family if browser else gettext("Unknown browser")
    if browser and browser.major:
        name = f"{name} {browser.major}"
    if system and system.family and system.family != "Other":
        # Translators: a browser on an operating system, "Firefox 139 on Ubuntu".
        name = gettext("%(browser)s on %(system)s") % {"browser": name, "system": system.family}
    return name


def list_access(
    *, user: User, current_session: str | None, current_token: str | None
) -> list[Access]:
    """The player's live sessions and token, most recently used first (one query)."""
    rows = live_access_of(user).order_by("-last_seen", "-id")
    return [
        Access(
            id=row.pk,
            kind=row.kind,
            device=describe_device(row.user_agent),
            address=row.address,
            created_at=row.created_at,
            last_seen=row.last_seen,
            current=row.key in {current_session, current_token} - {None},
        )
        for row in rows
    ]
