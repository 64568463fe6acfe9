"""A finished game's analysis worked out (engine/review.py's `analyse`, within the node budget
REVIEW_ANALYSIS_NODES) and shaped as the API sends it. Run by the Celery task only: never where a
request waits."""

from __future__ import annotations

from django.conf import settings

from tripeaks.engine.review import Analysis, analyse
from tripeaks.engine.solver import Budget, line_tokens
from tripeaks.play.models import Game
from tripeaks.review.payloads import AnalysisPayload
from tripeaks.review.selectors import engine_game


def analysis_payload(analysis: Analysis, budget_nodes: int) -> AnalysisPayload:
    return {
        "state": "ready",
        "verdicts": list(analysis.verdicts),
        "losing_move": analysis.losing_move,
        "winning_line": line_tokens(analysis.winning_line),
        "par": analysis.par,
        "par_line": line_tokens(analysis.par_line),
        "over_par": analysis.over_par,
        "shorter_from": analysis.shorter_from,
        "budget_nodes": budget_nodes,
    }


def analyse_game(game: Game) -> tuple[AnalysisPayload, int]:
    """The game's analysis payload and the search nodes it spent."""
    played = engine_game(game)
    nodes = settings.REVIEW_ANALYSIS_NODES
    analysis = analyse(
        played.deal,
        played.rules,
        played.moves,
        budget=Budget(max_nodes=nodes),
        known_par=game.deal.par,  # the solver's, when it has solved the deal: a cheaper par line
    )
    return analysis_payload(analysis, nodes), analysis.nodes
