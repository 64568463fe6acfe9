"""TriPeaks Online: the Django project package and the game itself.

Importing it loads nothing: ``tripeaks.engine`` is the standard library only, and the Celery app
(``tripeaks.celery``) is loaded when Django starts (``PlayConfig.ready``) or by ``celery -A
tripeaks``, which finds ``tripeaks.celery`` itself.
"""
