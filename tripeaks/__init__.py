"""TriPeaks Online: the Django project package and the game itself.

Kept light: importing `tripeaks` (or `tripeaks.engine`) never loads Django settings. The Celery
app is imported so that `@shared_task` everywhere binds to it when Django starts.
"""

from .celery import app as celery_app

__all__ = ["celery_app"]
