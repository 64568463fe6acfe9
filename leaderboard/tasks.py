"""Celery tasks of the leaderboard."""

from __future__ import annotations

from celery import shared_task

from leaderboard import cache


@shared_task(acks_late=True)
def rebuild_board_cache(deal_id: int, board: str = "best") -> int:
    """Fill a daily board's Redis rank set from PostgreSQL and mark it ready (idempotent)."""
    return cache.rebuild(deal_id, board)
