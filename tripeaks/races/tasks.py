"""Celery tasks of races. Idempotent: a race moves on once, however often it is asked to."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tripeaks.races import services


@shared_task(acks_late=True)
def advance_race(race_id: str) -> bool:
    """Queued with `eta` at a race's start instant and at its time cap. Early (an eager run in
    tests) it does nothing: the race's sockets and reads move it on at the instant too."""
    return services.advance_race_clock(race_id=race_id)


@shared_task(acks_late=True)
def end_race_games(game_ids: list[Any]) -> None:
    """Resign the games still being played when their race ended."""
    services.end_games(game_ids=game_ids)
