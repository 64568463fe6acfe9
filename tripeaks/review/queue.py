"""Asking the solver's worker for a game's analysis: on the solver queue, once while it waits,
not while the queue is full (play/solver_queue.py's one mechanism), by task name (the task calls
this app's services; importing it here would close a circle). A game's finish defers its ask
(`defer_analysis`: one Redis call on the path of a move); a request asks at once."""

from __future__ import annotations

from uuid import UUID

from django.conf import settings

from tripeaks.play import solver_queue

ANALYSE_TASK = "tripeaks.review.tasks.analyse_game"


def analysis_key(game_id: UUID | str) -> str:
    return f"game-analysis:queued:{game_id}"


def queue_analysis(game_id: UUID | str) -> bool:
    """Ask for the analysis of a finished game, unless it is asked already (the key is held until
    the task has stored it, or failed) or the solver queue is full. Never run where a request
    waits: without a worker (QUEUE_SOLVER_TASKS off) nothing is asked."""
    if not settings.QUEUE_SOLVER_TASKS:
        return False
    return solver_queue.queue_once(analysis_key(game_id), ANALYSE_TASK, str(game_id))


def defer_analysis(game_id: UUID | str) -> bool:
    """`queue_analysis` from a game's finish: the key taken and the ask listed at once, sent to
    the solver queue by the drain task (`solver_queue.defer_once`), not by the finish."""
    if not settings.QUEUE_SOLVER_TASKS:
        return False
    return solver_queue.defer_once(analysis_key(game_id), ANALYSE_TASK, str(game_id))
