"""Deleting an account: the player's data goes, the records of their play stay, anonymous.

The user row stays (board lines, records and results point at it) but is anonymised and
deactivated: username ``deleted.<id>`` (the dot keeps it out of sign-up's reach), display name
"deleted player", no email, no usable password, ``is_active`` off (so no session or token signs
it in). Every session and token ends, and the player leaves every race, quick-match queue and
arena in the same transaction (``player_leaving``: a running race counts it as a give-up). The old username is held for ``USERNAME_HOLD_DAYS``
(``UsernameHold``) so nobody can pass for the player at once; ``release_usernames`` (a Celery
beat task) frees it after. A guest has nothing on any board: it is deleted outright.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User, UsernameHold
from accounts.services import access
from tripeaks.infra.player_signals import player_leaving

DELETED_NAME = "deleted player"


@transaction.atomic
def delete_account(*, user: User) -> None:
    user = User.objects.select_for_update().get(pk=user.pk)
    access.end_all_access(user=user)
    # Out of every race, queue and arena first, with the deletion: nobody races a deleted player.
    player_leaving.send(sender=User, user=user)
    if user.is_guest:
        user.delete()
        return
    now = timezone.now()
    if user.deleted_at is None:
        UsernameHold.objects.filter(username__iexact=user.username).delete()
        UsernameHold.objects.create(
            username=user.username, until=now + timedelta(days=settings.USERNAME_HOLD_DAYS)
        )
    user.username = f"deleted.{user.pk}"
    user.display_name = DELETED_NAME
    user.email = user.first_name = user.last_name = ""
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.deleted_at = user.deleted_at or now
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


def release_usernames() -> int:
    """Free the usernames whose grace period has ended. How many."""
    deleted, _ = UsernameHold.objects.filter(until__lte=timezone.now()).delete()
    return deleted
