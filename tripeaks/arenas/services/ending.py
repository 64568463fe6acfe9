"""An arena moved along its clock by beat (`tick`) and finalized once it ends."""

from __future__ import annotations

import logging
from datetime import datetime
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from tripeaks.arenas import live
from tripeaks.arenas.models import Arena, Phase
from tripeaks.arenas.services.standings import write_places

log = logging.getLogger("tripeaks.events")


def tick(*, now: datetime | None = None) -> int:
    """Move arenas' stored state along the clock; finalize the ended ones. Returns how many it
    finalized."""
    now = now or timezone.now()
    Arena.objects.filter(state=Phase.SCHEDULED, starts_at__lte=now, ends_at__gt=now).update(
        state=Phase.RUNNING
    )
    finalized = 0
    for arena_id in (
        Arena.objects.filter(ends_at__lte=now)
        .exclude(state=Phase.FINISHED)
        .values_list("pk", flat=True)
    ):
        finalized += finalize(arena_id=arena_id, now=now)
    return finalized


@transaction.atomic
def finalize(*, arena_id: UUID | str, now: datetime | None = None) -> bool:
    """Write an ended arena's final places (its podium) once: a second run changes nothing.
    False when it is not over or was finalized already."""
    now = now or timezone.now()
    arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
    if arena is None or arena.state == Phase.FINISHED or arena.ends_at > now:
        return False
    players = write_places(arena)
    arena.state = Phase.FINISHED
    arena.finalized_at = now
    arena.save(update_fields=["state", "finalized_at"])
    log.info("arena finalized", extra={"arena": str(arena.pk), "players": players})
    live.on_commit_tell(arena)
    return True
