"""A race's clock moves by its task and its sockets' timers only: a read never writes (HTTP's
safe methods; a crawler, a retry or a monitoring probe must not change a race)."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.races.helpers import api, begun, join, open_race
from tripeaks.races import clock
from tripeaks.races.models import Race, State

pytestmark = pytest.mark.django_db(transaction=True)

WRITES = ("INSERT", "UPDATE", "DELETE")


def _writes(queries: CaptureQueriesContext) -> list[str]:
    return [
        query["sql"]
        for query in queries.captured_queries
        if query["sql"].lstrip().upper().startswith(WRITES) or "FOR UPDATE" in query["sql"]
    ]


def test_reading_a_race_after_its_cap_writes_nothing(make_player: Any) -> None:
    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann, cap_s=1)
    assert join(bob, race).status_code == 200
    begun(race["id"])
    Race.objects.filter(pk=race["id"]).update(ends_at=timezone.now() - timedelta(seconds=1))
    version = Race.objects.get(pk=race["id"]).version

    with CaptureQueriesContext(connection) as queries:
        read = api(bob).get(f"/api/races/{race['id']}")

    assert read.status_code == 200
    assert read.json()["state"] == "running"  # as stored: the clock has not moved it yet
    assert _writes(queries) == []
    stored = Race.objects.get(pk=race["id"])
    assert stored.state == State.RUNNING and stored.version == version


def test_the_task_queued_for_each_instant_moves_the_race_on_then(
    make_player: Any, monkeypatch: Any
) -> None:
    """The worker's task is queued for the start instant and for the cap (`eta`); run at each
    (as a worker would; eager Celery in tests would run it at once), it begins the race, then
    ends it, with no read and no socket."""
    queued: list[tuple[str, datetime]] = []

    def queue(*, args: list[str], eta: datetime) -> None:
        queued.append((args[0], eta))

    monkeypatch.setattr(clock.advance_race, "apply_async", queue)
    ann, bob = make_player("ann"), make_player("bob")
    race = open_race(ann, cap_s=1)
    assert join(bob, race).status_code == 200  # the last seat: the countdown
    stored = Race.objects.get(pk=race["id"])
    assert queued == [(race["id"], stored.starts_at)]

    for instant, state in ((0, State.RUNNING), (1, State.FINISHED)):
        race_id, eta = queued[instant]
        early = clock.advance_race(race_id) if timezone.now() < eta else None
        assert early in (False, None)  # before its instant it does nothing
        while timezone.now() < eta:
            time.sleep(0.02)  # the instant is the clock under test: waiting it out is the point
        assert clock.advance_race(race_id) is True
        stored = Race.objects.get(pk=race["id"])
        assert stored.state == state
        if state == State.RUNNING:
            assert queued[1] == (race["id"], stored.ends_at)
    assert len(queued) == 2
    assert {seat.place for seat in stored.entries.all()} == {1}  # no moves: a tie
