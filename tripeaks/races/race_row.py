"""A race's row: read locked, and saved with its version moved on (its sockets hear of it).

Every change of a race and its seats holds this lock, which serializes them on every server.
"""

from __future__ import annotations

import uuid
from functools import partial

from django.db import transaction

from tripeaks.races import broadcast
from tripeaks.races.errors import RaceNotFound
from tripeaks.races.models import Race, Seat


def race_uuid(value: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise RaceNotFound("no such race") from None


class Busy(Exception):
    """The race's row is locked by another transaction (`lock_race(wait=False)`)."""


def lock_race(race_id: object, *, wait: bool = True) -> Race:
    """The race's row, locked; without `wait`, `Busy` if another transaction holds it."""
    locking = Race.objects.select_for_update(skip_locked=not wait)
    race = locking.filter(pk=race_uuid(race_id)).first()
    if race is None:
        raise RaceNotFound("no such race") if wait else Busy
    return race


def changed(race: Race, *, begun: list[Seat] | None = None) -> None:
    """Save the race with its version moved on; its sockets hear of it after the commit.
    `begun`: the race was begun here, these its seats with their games: they are told of it
    from these rows, with no read after the commit (`broadcast.publish_begun`)."""
    race.version += 1
    race.save()
    if begun is None:
        transaction.on_commit(partial(broadcast.publish_race, race.pk))
    else:
        transaction.on_commit(partial(broadcast.publish_begun, race, begun))


def active_seats(race: Race) -> list[Seat]:
    return list(race.entries.filter(active=True).select_related("user"))
