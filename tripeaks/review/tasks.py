"""The review's Celery task: a finished game's analysis, computed once and stored. On the solver
queue (settings.CELERY_TASK_ROUTES), asked through `queue.queue_analysis` (a request) or
`queue.defer_analysis` (a game's finish, sent by play's drain of deferred asks)."""

from __future__ import annotations

from celery import shared_task

from tripeaks.play import solver_queue
from tripeaks.play.models import Game
from tripeaks.review import analysis, services
from tripeaks.review.models import StoredAnalysis
from tripeaks.review.queue import analysis_key

# The hard limit stops an analysis that ran past its node budget's worth of time: its child is
# replaced and the message dropped; the next ask queues it again.
ANALYSIS_TIME_LIMIT = 120


@shared_task(acks_late=True, time_limit=ANALYSIS_TIME_LIMIT)
def analyse_game(game_id: str) -> bool:
    """Analyse and store the finished game `game_id`, unless it is stored already or no such
    finished game exists (idempotent). True when this run stored it."""
    try:
        if StoredAnalysis.objects.filter(game_id=game_id).exists():
            return False
        game = (
            Game.objects.select_related("deal")
            .filter(pk=game_id, finished_at__isnull=False)
            .first()
        )
        if game is None:
            return False
        payload, nodes = analysis.analyse_game(game)
        return services.store_analysis(game=game, payload=payload, nodes=nodes)
    finally:
        # Asked again from now on (a lost or failed run is not waited for forever).
        solver_queue.begun(analysis_key(game_id))
