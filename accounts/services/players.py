"""Players: signing up, changing the display name."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.models import User


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
