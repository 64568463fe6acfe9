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


def _without_clocks(event: dict[str, Any]) -> dict[str, Any]:
    race = dict(event["race"], server_time=None)
    # (A running game's clock, and the seconds to a claim, move on between the two.)
    race["players"] = [dict(line, claimable_in_s=None, time_ms=None) for line in race["players"]]
    return dict(event, race=race)


def test_a_start_tells_its_sockets_what_it_made_with_no_read_after_its_commit(
    make_player: Any, monkeypatch: Any, settings: Any
) -> None:
    """At a start instant the start is a server's heaviest work (issue #37 item 3: the round
    trip's tail is in the races' first seconds). Its news to the race's sockets is made of the
    rows it holds (the race, its seats and their new games), not read again after the commit:
    three statements, a Redis command and half the start's CPU before. What the sockets hear
    is what a read gives."""
    import orjson
    import redis

    from tripeaks.infra import contest_feed
    from tripeaks.races.selectors import race_event

    monkeypatch.setattr(clock.advance_race, "apply_async", lambda **_: None)  # no eager task
    users = [make_player(f"st{i}") for i in range(4)]
    race = open_race(users[0], seats=4)
    for user in users[1:]:
        assert join(user, race).status_code == 200
    feed = redis.Redis.from_url(settings.REDIS_URL).pubsub(ignore_subscribe_messages=True)
    feed.subscribe(contest_feed.channel_of(f"race-{race['id']}"))
    starts_at = Race.objects.get(pk=race["id"]).starts_at
    assert starts_at is not None
    while timezone.now() < starts_at:
        time.sleep(0.02)  # the instant is the clock under test: waiting it out is the point

    with CaptureQueriesContext(connection) as queries:
        assert clock.advance_race_clock(race_id=race["id"], wait=False) is True
    statements = [query["sql"] for query in queries.captured_queries]
    # (Before: the race, its seats with their games and the racers' last moves read again.)
    assert statements[-1] == "COMMIT", statements[statements.index("COMMIT") :]
    message = None
    deadline = time.monotonic() + 5
    while message is None and time.monotonic() < deadline:
        message = feed.get_message(timeout=1)  # (None too for the subscription's own word)
    feed.close()
    assert message is not None
    told = orjson.loads(message["data"])
    read = race_event(race["id"])
    assert read is not None and read["race"]["state"] == "running"  # type: ignore[index]
    assert _without_clocks(told) == _without_clocks(orjson.loads(orjson.dumps(read)))
    for line in told["race"]["players"]:
        assert 29 <= line["claimable_in_s"] <= 30 and line["claimable"] is False
