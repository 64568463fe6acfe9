"""The player: Django's user with a display name and stricter, case-insensitive usernames."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower

from accounts.validators import (
    DISPLAY_NAME_MAX_LENGTH,
    USERNAME_HELP,
    USERNAME_MAX_LENGTH,
    DisplayNameValidator,
    UsernameValidator,
)


class PlayerManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        # Sign-in is case-insensitive, like uniqueness.
        return self.get(username__iexact=username)

    def username_taken(self, username: str, *, exclude_pk: Any = None) -> bool:
        qs = self.filter(username__iexact=username)
        if exclude_pk is not None:
            qs = qs.exclude(pk=exclude_pk)
        return qs.exists()


class User(AbstractUser):
    username = models.CharField(
        "username",
        max_length=USERNAME_MAX_LENGTH,
        unique=True,
        help_text=USERNAME_HELP,
        validators=[UsernameValidator()],
        error_messages={"unique": "That username is taken."},
    )
    display_name = models.CharField(
        "display name",
        max_length=DISPLAY_NAME_MAX_LENGTH,
        blank=True,
        validators=[DisplayNameValidator()],
        help_text="Shown to other players; the username when empty.",
    )

    objects: ClassVar[PlayerManager] = PlayerManager()

    class Meta:
        verbose_name = "user"
        verbose_name_plural = "users"
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message="That username is taken.",
            )
        ]

    def __str__(self) -> str:
        return self.username

    @property
    def public_name(self) -> str:
        return self.display_name or self.username
