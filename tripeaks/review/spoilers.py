"""No spoilers on a deal that still ranks (docs/fair-play.md, "No spoilers"): the analysis of a
numbered deal's game shows its verdicts, losing move and over-par to whoever may see it, but its
lines (the winning line, par's line, where a shorter win began) only to a viewer who has seen
the answer to the deal already: who asked for them (`POST .../analysis/reveal`, which marks it:
``leaderboard.services.answers.mark_answer_seen``) or took a hint on it. Either ends their
ranking on the deal, so a board nobody scouted stays worth something.

Numbered deals are the only ones whose boards still take runs once a game's analysis opens: a
daily deal's opens when its day has ended (it cannot be played after), a contest's when the
contest has ended (its deal is a fresh random one, dealt to nobody else), a random deal is dealt
to one player once, a custom or shipped deal never ranks."""

from __future__ import annotations

from leaderboard.models import AnswerSeen
from tripeaks.play.models import Game, Source
from tripeaks.play.visitors import Visitor
from tripeaks.review.payloads import AnalysisPayload, ShownAnalysis


def hides_lines(game: Game) -> bool:
    """Does the game's deal still take ranked runs after its analysis opens (a numbered deal)?"""
    return game.deal.source == Source.NUMBERED and not game.contest


def has_seen_answer(player_id: int, game: Game) -> bool:
    """Has the player seen the answer to the game's deal: asked for its lines, or taken a hint?"""
    return (
        AnswerSeen.objects.filter(player_id=player_id, deal_id=game.deal_id).exists()
        or Game.objects.filter(player_id=player_id, deal_id=game.deal_id, hints__gt=0).exists()
    )


def lines_hidden(viewer: Visitor, game: Game) -> bool:
    """Are the game's lines kept from `viewer` (signed out, or not yet seen the answer)?"""
    if not hides_lines(game):
        return False
    return not (viewer.is_authenticated and has_seen_answer(viewer.pk, game))


def shown(stored: AnalysisPayload, *, hidden: bool) -> ShownAnalysis:
    """The stored analysis as the viewer gets it: without its lines when `hidden`."""
    return {
        "state": stored["state"],
        "verdicts": stored["verdicts"],
        "losing_move": stored["losing_move"],
        "winning_line": None if hidden else stored["winning_line"],
        "par": stored["par"],
        "par_line": None if hidden else stored["par_line"],
        "over_par": stored["over_par"],
        "shorter_from": None if hidden else stored["shorter_from"],
        "budget_nodes": stored["budget_nodes"],
        "lines_hidden": hidden,
    }
