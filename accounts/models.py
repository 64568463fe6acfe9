"""The player: Django's user with a display name and stricter, case-insensitive usernames.

Also what accounts keep about a player's access (issue 20): guests (``is_guest``), deleted
accounts (``deleted_at``: the row stays, anonymised, so board lines keep their records), the
username a deleted account held (``UsernameHold``, until its grace period ends) and the player's
sessions and API token with their device, address and last use (``AccessRecord``).
"""

from __future__ import annotations

from typing import ClassVar

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from accounts.name_shapes import name_shape, username_shape
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

    def username_taken(self, username: str, *, exclude_pk: int | None = None) -> bool:
        """Held by a player, or by a deleted account whose grace period still runs."""
        qs = self.filter(username__iexact=username)
        if exclude_pk is not None:
            qs = qs.exclude(pk=exclude_pk)
        return qs.exists() or UsernameHold.objects.held(username)


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
    # A guest plays at once, counts in their own statistics and never ranks on a public board;
    # signing up turns the same row into an account (accounts.services.guests).
    is_guest = models.BooleanField("guest", default=False)
    # Set when the player deleted the account; the row is anonymised (accounts.services.deletion).
    deleted_at = models.DateTimeField("deleted at", null=True, blank=True)

    objects: ClassVar[PlayerManager] = PlayerManager()

    class Meta:
        verbose_name = "user"
        verbose_name_plural = "users"
        constraints = [
            models.UniqueConstraint(
                Lower("username"),
                name="accounts_user_username_ci_unique",
                violation_error_message="That username is taken.",
            ),
            # `email` holds verified addresses only (accounts.services.email_verification).
            models.UniqueConstraint(
                Lower("email"), condition=~Q(email=""), name="accounts_user_email_ci_unique"
            ),
        ]
        indexes = [
            models.Index(fields=["date_joined"], condition=Q(is_guest=True), name="guests_by_age")
        ]

    def __str__(self) -> str:
        return self.username

    @property
    def public_name(self) -> str:
        if self.is_guest:
            return "Guest"
        return self.display_name or self.username


class UsernameHoldQuerySet(models.QuerySet["UsernameHold"]):
    def held(self, username: str) -> bool:
        """Held in all its variants: case, ``_``/``-``/``.`` and lookalikes (``0``/``o``) compared
        by shape, as display names are (accounts/name_shapes.py)."""
        return (
            self.alias(shape=username_shape())
            .filter(shape=name_shape(username), until__gt=timezone.now())
            .exists()
        )


class UsernameHold(models.Model):
    """A deleted account's username, kept from others until `until` (then released by a task)."""

    username = models.CharField(max_length=USERNAME_MAX_LENGTH)
    until = models.DateTimeField()

    objects = UsernameHoldQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_username_hold_ci_unique")
        ]

    def __str__(self) -> str:
        return f"{self.username} held until {self.until:%Y-%m-%d}"


class AccessKind(models.TextChoices):
    SESSION = "session", "session"
    TOKEN = "token", "API token"


class AccessRecord(models.Model):
    """One of a player's sessions or their API token: device, address, first and last use.

    Written by ``accounts.middleware.RecordAccess`` at most once a minute per session or token.
    `key` is the session key or the token's key: never shown, only compared."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="access_records")
    kind = models.CharField(max_length=8, choices=AccessKind.choices)
    key = models.CharField(max_length=64)
    user_agent = models.CharField(max_length=400, blank=True, default="")
    address = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_seen = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "key"], name="one_access_record_per_key")
        ]
        indexes = [models.Index(fields=["user", "-last_seen"], name="access_by_user")]

    def __str__(self) -> str:
        return f"{self.kind} of {self.user_id}, last seen {self.last_seen:%Y-%m-%d %H:%M}"
