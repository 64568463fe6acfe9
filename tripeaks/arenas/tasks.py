"""Celery tasks of arenas (beat runs both; see settings.CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from celery import shared_task

from tripeaks.arenas import services


@shared_task(acks_late=True)
def schedule_arenas() -> int:
    """Make the schedule's coming arenas (idempotent)."""
    return services.schedule_arenas()


@shared_task(acks_late=True)
def tick_arenas() -> int:
    """Mark started arenas running and write the final places of ended ones (idempotent)."""
    return services.tick()
