"""Staff review of held and flagged runs (issue 15): accept a run onto the boards or hide it, with
a reason; every decision is kept (``RunReview``: who, what, why, when).

A run waits for review when it was held (a possible second account) or flagged (its timing) and
nobody has decided on it yet. Accepting puts it on the boards it qualifies for (unless staff took
its player off the boards); hiding keeps it off them. Either way the deal's boards and the player's
statistics are rebuilt from the results, so every board says the same. The queue itself is read
by ``selectors.review_queue``.

A contest's run held or flagged also held its rating change (a race game: ``tripeaks.ratings``)
or its arena points (``tripeaks.arenas.services.standings``): accepting applies them, hiding drops them
(docs/fair-play.md, "Contests").
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from leaderboard.models import BoardExclusion, Result, RunReview
from leaderboard.services.recompute import rebuild_deal, recompute_stats
from tripeaks.arenas.services.standings import settle_held_game
from tripeaks.play.models import Game
from tripeaks.ratings.services import settle_held


class ReviewError(ValueError):
    """A decision that cannot be taken (shown to staff as it is)."""


@transaction.atomic
def review_run(
    *, result_id: int | str, staff: AbstractBaseUser, decision: str, reason: str
) -> RunReview:
    """Accept or hide a held or flagged run, with a reason; kept in the audit trail."""
    reason = reason.strip()
    if decision not in RunReview.Decision.values:
        raise ReviewError("the decision is accept or hide")
    if not reason:
        raise ReviewError("say why: a reason is required")
    if len(reason) > 200:
        raise ReviewError("the reason is at most 200 characters")
    result = Result.objects.select_for_update().filter(pk=result_id).first()
    if result is None:
        raise ReviewError("no such run")
    if not (result.held or result.flagged or result.reviews.exists()):
        raise ReviewError("this run was neither held nor flagged")
    if decision == RunReview.Decision.ACCEPT:
        excluded = BoardExclusion.objects.filter(player_id=result.player_id).exists()
        result.held, result.hidden = False, excluded
    else:
        result.held, result.hidden = False, True
    result.save(update_fields=["held", "hidden"])
    review = RunReview.objects.create(
        result=result, staff_id=staff.pk, decision=decision, reason=reason
    )
    contest = Game.objects.filter(pk=result.game_id).values_list("contest", flat=True).first()
    if contest:
        # A contest's run: its held rating change (a race) or arena points are applied, or
        # dropped, now.
        accept = decision == RunReview.Decision.ACCEPT
        settle_held(race=contest, user_id=result.player_id, accept=accept)
        settle_held_game(game_id=result.game_id, accept=accept)
    rebuild_deal(result.deal_id)
    recompute_stats([result.player_id])
    return review
