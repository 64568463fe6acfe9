"""The Celery app. Configured from Django settings (the ``CELERY_*`` names), lazily.

Worker: ``celery -A tripeaks worker``; the one beat: ``celery -A tripeaks beat``
(``make worker`` / ``make beat``). Tasks live in each app's ``tasks.py``.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks.settings")

app = Celery("tripeaks")
# Reads settings only when the app is first used, not at import time.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
