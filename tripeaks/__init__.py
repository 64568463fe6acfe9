"""TriPeaks Online: the Django project package and the game itself.

Its rooms: ``engine`` (the rules, standard library only), ``play`` (games, deals and moves as a
service), ``config`` (settings, routing, entry points, the Celery app), ``infra`` (machinery every
app shares), ``stack`` (running the whole service), ``cli`` (the engine's command line).

Importing it loads nothing: the Celery app (``tripeaks.config.celery``) is loaded when Django
starts (``PlayConfig.ready``) or by ``celery -A tripeaks.config``.
"""
