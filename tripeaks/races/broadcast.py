"""A race's sockets hear of every change of it, after the commit, on the race's contest feed
(tripeaks/infra/contest_feed.py), the route its players' progress takes: one PUBLISH a change,
read once by each server. Best-effort, at most once: every frame carries the race's `version`;
a client that sees a gap asks for the race again with `sync`.

(Through the channel layer, as before, each change was one message a socket, and at 1,000
players the changes of a start or a cap came seconds late: the sockets, waiting for them, read
their races again and queued the servers' worker threads.)"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from uuid import UUID

from tripeaks.infra import contest_feed
from tripeaks.races.models import Race, Seat, contest_of
from tripeaks.races.selectors import RaceEvent, race_event, race_event_of

log = logging.getLogger("tripeaks.events")


def publish_race(race_id: UUID | str) -> None:
    """Read the race as it now stands and tell its sockets (from synchronous code)."""
    event = race_event(race_id)
    if event is None:
        return
    _publish(race_id, event)


def publish_begun(race: Race, seats: Sequence[Seat]) -> None:
    """Tell a race's sockets it began, from the rows the start holds (its seats with their new
    games): after the commit, with no read (at a start instant, it was half the start's CPU)."""
    _publish(race.pk, race_event_of(race, begun=seats))


def _publish(race_id: UUID | str, event: RaceEvent) -> None:
    try:
        contest_feed.publish_sync(contest_of(race_id), event)
    except Exception:
        log.warning("could not reach a race's sockets", extra={"race": str(race_id)}, exc_info=True)
