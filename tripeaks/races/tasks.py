"""Celery tasks of races, found here by the worker's autodiscovery. Each is defined beside what it
runs (its own clock schedules `advance_race` again at the cap): `races/clock.py`,
`races/ending.py`. Idempotent: a race moves on once, however often it is asked to."""

from __future__ import annotations

from tripeaks.races.clock import advance_race
from tripeaks.races.ending import end_race_games

__all__ = ["advance_race", "end_race_games"]
