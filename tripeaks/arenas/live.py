"""Live standings: a Channels group per arena (`Arena.group`, also its games' `Game.contest`),
told after each commit that changes them. Best-effort, at most once: the message carries the
standings' `version`, and a watcher that misses one sends ``{"type": "sync"}``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any
from uuid import UUID

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    from tripeaks.arenas.models import Arena

log = logging.getLogger("tripeaks.events")

STANDINGS_EVENT = "arena.standings"


def standings_message(arena_id: UUID) -> dict[str, Any] | None:
    from tripeaks.arenas.selectors import arena_detail, arena_or_none

    arena = arena_or_none(arena_id)
    if arena is None:
        return None
    body = arena_detail(arena, None)
    body.pop("me")
    return {"type": "standings", **body}


def tell(arena_id: UUID, group: str) -> None:
    try:
        layer = get_channel_layer()
        message = standings_message(arena_id) if layer is not None else None
        if layer is None or message is None:
            return
        async_to_sync(layer.group_send)(group, {"type": STANDINGS_EVENT, "message": message})
    except Exception:  # best-effort: PostgreSQL stays the truth
        log.warning("could not tell an arena's standings", extra={"to": group}, exc_info=True)


def on_commit_tell(arena: Arena) -> None:
    arena_id, group = arena.pk, arena.group
    transaction.on_commit(lambda: tell(arena_id, group))
