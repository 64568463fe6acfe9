"""Write paths of accounts: named actions with keyword-only arguments."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from accounts.models import AccessKind, AccessRecord, User


class UsernameTaken(Exception):
    """Someone else holds this username (compared without case)."""


@transaction.atomic
def sign_up(*, username: str, password: str, display_name: str = "") -> User:
    """Create a player. Inputs are already validated; a lost race for the name raises."""
    if User.objects.username_taken(username):
        raise UsernameTaken(username)
    try:
        with transaction.atomic():
            return User.objects.create_user(
                username=username, password=password, display_name=display_name.strip()
            )
    except IntegrityError as exc:
        raise UsernameTaken(username) from exc


def change_display_name(*, user: User, display_name: str) -> User:
    """Set the player's display name (already cleaned and checked: ``MeUpdateSerializer``). One
    UPDATE statement, atomic by itself (no savepoint inside a request's transaction)."""
    user.display_name = display_name
    user.save(update_fields=["display_name"])
    return user


def issue_token(*, user: User) -> Token:
    """The player's API token (one per player; made on first request)."""
    token, _ = Token.objects.get_or_create(user=user)
    # Listed among the player's sessions from now on, not only once used (accounts.access).
    AccessRecord.objects.get_or_create(
        kind=AccessKind.TOKEN,
        key=token.key,
        defaults={"user": user, "created_at": token.created, "last_seen": token.created},
    )
    return token


def revoke_token(*, user: User) -> bool:
    """Delete the player's API token. True when there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted > 0
