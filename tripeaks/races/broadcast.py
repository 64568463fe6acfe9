"""A race's sockets hear of every change of it, after the commit, through the channel layer
(best-effort, at most once: every frame carries the race's `version`; a client that sees a gap
asks for the race again with `sync`)."""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger("tripeaks.events")

RACE_EVENT = "race.changed"


def publish_race(race_id: Any) -> None:
    """Read the race as it now stands and send it to its group (from synchronous code)."""
    from tripeaks.races.selectors import race_event

    event = race_event(race_id)
    if event is None:
        return
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(f"race-{race_id}", event)
    except Exception:
        log.warning("could not reach a race's sockets", extra={"race": str(race_id)}, exc_info=True)
