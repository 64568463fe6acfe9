"""Players in an arena: joining, taking a break, leaving every arena (an account deleted)."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from tripeaks.arenas import live
from tripeaks.arenas.errors import ArenaRefused
from tripeaks.arenas.models import Entry, Phase
from tripeaks.arenas.selectors import existing_arena


@transaction.atomic
def join(*, arena_id: UUID | str, user: AbstractBaseUser) -> Entry:
    """Join an arena that has not ended (again, after leaving it: the points are kept).
    Joining twice is joining once."""
    arena = existing_arena(arena_id)
    now = timezone.now()
    if arena.phase_at(now) == Phase.FINISHED:
        raise ArenaRefused("the arena is over")
    entry, created = Entry.objects.get_or_create(
        arena=arena, player_id=user.pk, defaults={"joined_at": now}
    )
    if not created:
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.active:
            return entry
        entry.active = True
        entry.changes += 1
        entry.save(update_fields=["active", "changes"])
    live.on_commit_tell(arena)
    return entry


@transaction.atomic
def leave(*, arena_id: UUID | str, user: AbstractBaseUser) -> Entry:
    """Take a break: no new games; the points and the place stay."""
    arena = existing_arena(arena_id)
    entry = Entry.objects.select_for_update().filter(arena=arena, player_id=user.pk).first()
    if entry is None:
        raise ArenaRefused("you have not joined this arena")
    if entry.active:
        entry.active = False
        entry.changes += 1
        entry.save(update_fields=["active", "changes"])
        live.on_commit_tell(arena)
    return entry


@transaction.atomic
def leave_every_arena(*, user: AbstractBaseUser) -> None:
    """Leave every arena the player is in (their account is being deleted)."""
    for arena_id in Entry.objects.filter(player_id=user.pk, active=True).values_list(
        "arena_id", flat=True
    ):
        leave(arena_id=arena_id, user=user)
