"""Live standings: a Channels group per arena (`Arena.group`, also its games' `Game.contest`),
told after each commit that changes them. Best-effort, at most once: the message carries the
standings' `version`, and a watcher that misses one sends ``{"type": "sync"}``."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final
from uuid import UUID

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    from tripeaks.arenas.models import Arena
    from tripeaks.arenas.payloads import StandingsEvent, StandingsMessage

log = logging.getLogger("tripeaks.events")

STANDINGS_EVENT: Final = "arena.standings"


def standings_message(arena_id: UUID) -> StandingsMessage | None:
    from tripeaks.arenas.selectors import arena_detail, arena_or_none

    arena = arena_or_none(arena_id)
    if arena is None:
        return None
    body = arena_detail(arena, None)
    return {
        "type": "standings",
        "id": body["id"],
        "name": body["name"],
        "rules": body["rules"],
        "layout": body["layout"],
        "starts_at": body["starts_at"],
        "ends_at": body["ends_at"],
        "state": body["state"],
        "final": body["final"],
        "players": body["players"],
        "server_time": body["server_time"],
        "scoring": body["scoring"],
        "version": body["version"],
        "standings": body["standings"],
        "podium": body["podium"],
    }


def tell(arena_id: UUID, group: str) -> None:
    try:
        layer = get_channel_layer()
        message = standings_message(arena_id) if layer is not None else None
        if layer is None or message is None:
            return
        event: StandingsEvent = {"type": STANDINGS_EVENT, "message": message}
        async_to_sync(layer.group_send)(group, event)
    except Exception:  # best-effort: PostgreSQL stays the truth
        log.warning("could not tell an arena's standings", extra={"to": group}, exc_info=True)


def on_commit_tell(arena: Arena) -> None:
    arena_id, group = arena.pk, arena.group
    transaction.on_commit(lambda: tell(arena_id, group))
