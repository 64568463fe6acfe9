"""Who a request or a socket speaks for, as the game's functions take them.

The game does not import accounts (pyproject's import contracts), so this is Django's base user
(the project's User is one) or the anonymous user of a request or socket without a session.
Rows are written and looked up by `user.pk` for the same reason."""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from rest_framework.exceptions import NotAuthenticated

Visitor: TypeAlias = AbstractBaseUser | AnonymousUser


def signed_in(user: Visitor) -> AbstractBaseUser:
    """The player behind a view that lets only signed-in users in: anonymous never gets here,
    and if it did, it is told to sign in (401), not served."""
    if not isinstance(user, AbstractBaseUser):
        raise NotAuthenticated()
    return user
