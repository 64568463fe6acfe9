"""When arenas happen: the schedule as data (settings.ARENA_SCHEDULE) and the slots it gives.

A line is a dict: ``key`` (unique; names the arenas it makes, with their start, so making them
twice makes them once), ``name``, ``rules`` (a rule-set key), ``layout``, ``every`` (seconds from
one start to the next), ``length`` (seconds an arena runs) and ``offset`` (seconds after midnight
in DEAL_DAY_TIME_ZONE of the first start of a day's cycle). Starts fall at
``epoch + offset + k * every``, the epoch being a local midnight; the deal-day zone, Asia/Kathmandu,
keeps no summer time, so an hourly line starts on the hour and a daily one at the same local time.
Tests shorten it to seconds (tests/arenas).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings

from tripeaks.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class Line:
    key: str
    name: str
    rules: str
    layout: str
    every: int
    length: int
    offset: int = 0

    @classmethod
    def of(cls, data: dict[str, Any]) -> Line:
        line = cls(
            key=str(data["key"]),
            name=str(data["name"]),
            rules=str(data["rules"]),
            layout=str(data.get("layout", "classic")),
            every=int(data["every"]),
            length=int(data["length"]),
            offset=int(data.get("offset", 0)),
        )
        if not 0 < line.length <= line.every or not line.key:
            raise ValueError(f"arena schedule line {line.key!r}: need 0 < length <= every, a key")
        Rules.from_key(line.rules)  # a RulesError (a ValueError) names a bad rule-set key
        return line


def lines() -> list[Line]:
    return [Line.of(data) for data in settings.ARENA_SCHEDULE]


def ahead() -> timedelta:
    return timedelta(seconds=settings.ARENA_SCHEDULE_AHEAD)


def _epoch() -> datetime:
    return datetime(2020, 1, 1, tzinfo=ZoneInfo(settings.DEAL_DAY_TIME_ZONE)).astimezone(UTC)


def starts(line: Line, start: datetime, end: datetime) -> Iterator[datetime]:
    """The line's starts in [start, end)."""
    first = _epoch() + timedelta(seconds=line.offset)
    k = math.ceil((start - first).total_seconds() / line.every)
    while (at := first + timedelta(seconds=k * line.every)) < end:
        yield at
        k += 1
