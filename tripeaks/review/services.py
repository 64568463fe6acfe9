"""The review's writes: share links made and revoked, an analysis stored. Each in its own
transaction, keyword-only, named for what it does."""

from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone

from tripeaks.play.models import Game
from tripeaks.review.errors import NotShareable
from tripeaks.review.models import ShareLink, StoredAnalysis
from tripeaks.review.payloads import AnalysisPayload
from tripeaks.review.visibility import shareable

TOKEN_BYTES = 16


@transaction.atomic
def create_share_link(*, game: Game) -> ShareLink:
    """The game's live share link, made if it has none (the same one again otherwise). The game
    must be finished and on a custom or numbered deal; the caller checked it is the owner's."""
    if not game.finished:
        raise NotShareable("only a finished game can be shared", code="not_finished")
    if not shareable(game):
        raise NotShareable(
            "only a custom or numbered deal's game can be shared: a daily deal's runs open to"
            " everyone once its day has ended, a contest's to its players once it has ended,"
            " random deals' runs stay private",
            code="not_shareable",
        )
    Game.objects.select_for_update().filter(pk=game.pk).values_list("pk").first()
    link = ShareLink.objects.filter(game=game, revoked_at__isnull=True).first()
    if link is None:
        link = ShareLink.objects.create(game=game, token=secrets.token_urlsafe(TOKEN_BYTES))
    return link


@transaction.atomic
def revoke_share_link(*, game: Game) -> bool:
    """Revoke the game's live link (its token opens nothing from now on); False if it had none."""
    return bool(
        ShareLink.objects.filter(game=game, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    )


def store_analysis(*, game: Game, payload: AnalysisPayload, nodes: int) -> bool:
    """Keep the game's analysis, once: a second store (a task run twice, two asks at once)
    keeps the first. True when this call stored it."""
    try:
        with transaction.atomic():
            StoredAnalysis.objects.create(
                game=game, payload=payload, nodes=nodes, losing_move=payload["losing_move"]
            )
    except IntegrityError:
        return False
    return True
