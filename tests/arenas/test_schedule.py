"""Beat's schedule makes arenas ahead, each slot once; a shortened schedule's arena runs from
start to podium with the stated scoring."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from tests.arenas.helpers import join, lose, start, win
from tests.play.helpers import client_for
from tripeaks.arenas import schedule, services, tasks
from tripeaks.arenas.models import Arena, Entry, Phase
from tripeaks.play.errors import BadRequest

pytestmark = pytest.mark.django_db

KATHMANDU = ZoneInfo("Asia/Kathmandu")


def test_the_default_schedule_makes_hourly_and_daily_arenas_once() -> None:
    now = datetime(2026, 12, 1, 10, 5, tzinfo=UTC)
    made = services.schedule_arenas(now=now)
    assert made > 0 and services.schedule_arenas(now=now) == 0  # the second run makes none
    tasks.schedule_arenas()  # beat's task, at today's time: its own slots, each once
    assert Arena.objects.filter(starts_at__lt=now + timedelta(hours=26)).count() == made
    hourly = Arena.objects.filter(
        schedule_key="hourly-wrap-closed", starts_at__lt=now + timedelta(hours=26)
    ).order_by("starts_at")
    first = hourly.first()
    assert first is not None
    # On the hour in Kathmandu, ten minutes long; the one that runs now included.
    assert first.starts_at.astimezone(KATHMANDU).minute == 0
    assert first.ends_at - first.starts_at == timedelta(minutes=10)
    assert first.starts_at <= now < first.ends_at or first.starts_at > now
    assert hourly.count() == 26 + (first.starts_at <= now)
    daily = Arena.objects.filter(
        schedule_key__startswith="daily-", starts_at__lt=now + timedelta(hours=26)
    )
    assert sorted(daily.values_list("rules_key", flat=True)) == sorted(
        ["wrap-closed", "nowrap-closed", "wrap-open", "nowrap-open"]
    )
    for arena in daily:
        local = arena.starts_at.astimezone(KATHMANDU)
        assert local.minute == 0 and 18 <= local.hour <= 21
        assert arena.ends_at - arena.starts_at == timedelta(hours=1)


def test_the_beat_task_is_on_the_schedule() -> None:
    tasks_ = {entry["task"] for entry in django_settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"tripeaks.arenas.tasks.schedule_arenas", "tripeaks.arenas.tasks.tick_arenas"} <= tasks_


def test_a_bad_schedule_line_is_refused(settings: Any) -> None:
    settings.ARENA_SCHEDULE = [
        {"key": "x", "name": "X", "rules": "wrap-closed", "every": 5, "length": 9}
    ]
    with pytest.raises(ValueError, match="length"):
        schedule.lines()


def test_the_schedule_makes_its_arenas_through_the_checked_create_arena(settings: Any) -> None:
    settings.ARENA_SCHEDULE = [
        {
            "key": "odd",
            "name": "Odd",
            "rules": "wrap-closed",
            "layout": "no-such",
            "every": 3600,
            "length": 600,
        }
    ]
    with pytest.raises(BadRequest):
        services.schedule_arenas(now=datetime(2026, 12, 1, 10, 5, tzinfo=UTC))
    assert not Arena.objects.filter(schedule_key="odd").exists()


class MovedClock:
    """`timezone.now` as the test moves it: the real clock plus what the test has moved it on by
    (every reader of the time in the application calls `timezone.now()`). An arena's start and
    end come when the test says, not after a real wait, and however slowly a loaded machine
    plays its games."""

    def __init__(self) -> None:
        self.real = timezone.now
        self.ahead = timedelta(0)

    def __call__(self) -> datetime:
        return self.real() + self.ahead

    def move_to(self, moment: datetime) -> None:
        self.ahead = max(self.ahead, moment - self.real())


@pytest.mark.slow
def test_a_shortened_schedule_runs_an_arena_with_the_stated_scoring(
    settings: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = MovedClock()
    monkeypatch.setattr(timezone, "now", clock)
    # One 10-minute arena a day, its first start a minute from now (the clock moved to it).
    now = timezone.now()
    local = now.astimezone(KATHMANDU)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    offset = int((local - midnight).total_seconds()) + 60
    length = 600
    settings.ARENA_SCHEDULE = [
        {
            "key": "quick",
            "name": "Quick",
            "rules": "wrap-closed",
            "every": 24 * 3600,
            "length": length,
            "offset": offset,
        }
    ]
    tasks.schedule_arenas()
    tasks.schedule_arenas()
    made = Arena.objects.filter(schedule_key="quick").order_by("starts_at")
    assert made.count() == 2  # today's and tomorrow's (26 hours ahead), each once
    arena = made[0]
    assert arena.starts_at > now
    assert arena.ends_at - arena.starts_at == timedelta(seconds=length)
    players = {name: client_for(make_player(name)) for name in ("ann", "bob", "cy")}
    for api in players.values():
        assert join(api, arena).status_code == 200  # joined ahead
    # Deals dealt and solved before the start: the arena's seconds go to playing.
    clock.move_to(arena.starts_at)
    tasks.tick_arenas()
    arena.refresh_from_db()
    assert arena.state == Phase.RUNNING
    win(players["ann"], start(players["ann"], arena))
    lose(players["bob"], start(players["bob"], arena))
    ann = start(players["ann"], arena)
    cy = start(players["cy"], arena)
    win(players["ann"], ann)
    lose(players["cy"], cy)
    unfinished = start(players["bob"], arena)
    assert timezone.now() < arena.ends_at, "the games took longer than the arena: lengthen it"

    clock.move_to(arena.ends_at)
    lose(players["bob"], unfinished)  # after the end: nothing
    assert tasks.tick_arenas() >= 1
    body = players["cy"].get(f"/api/arenas/{arena.pk}").json()
    assert body["final"]
    podium = [(p["player"]["username"], p["points"], p["games"]) for p in body["podium"]]
    assert podium == [("ann", 4, 2), ("bob", 0, 1), ("cy", 0, 1)]
    assert dict(Entry.objects.filter(arena=arena).values_list("player__username", "rank")) == {
        "ann": 1,
        "bob": 2,  # 0 points and 0 wins, as cy: bob joined first
        "cy": 3,
    }
