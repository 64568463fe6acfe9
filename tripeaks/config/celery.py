"""The Celery app. Configured from Django settings (the ``CELERY_*`` names), lazily.

Worker: ``celery -A tripeaks.config worker``; the one beat: ``celery -A tripeaks.config beat`` (``make run``
starts both). Tasks live in each app's ``tasks.py``.

Beat's interval schedules first fire one interval after beat starts (30 minutes for the daily
deals): a fresh deployment's first players would wait for the solver. So beat queues every task
of its schedule once when it starts (the tasks are idempotent), and the worker makes them ready.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import beat_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks.config.settings")

logger = logging.getLogger("tripeaks.config.celery")

app = Celery("tripeaks")
# Reads settings only when the app is first used, not at import time.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def queue_the_schedule_once(celery_app: Celery) -> list[str]:
    """Queue every task of the beat schedule now; returns their names."""
    queued = []
    for entry in celery_app.conf.beat_schedule.values():
        celery_app.send_task(
            entry["task"], args=entry.get("args", ()), kwargs=entry.get("kwargs", {})
        )
        queued.append(entry["task"])
    return queued


@beat_init.connect
def _on_beat_start(sender: Any, **_: Any) -> None:
    queued = queue_the_schedule_once(sender.app)
    logger.info("beat queued its schedule once at start", extra={"tasks": queued})
