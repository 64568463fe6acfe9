"""A player has seen the answer to a deal: the solver's lines of a game on it (issue 39's review,
docs/fair-play.md "No spoilers"). Like a hint, it ends their ranking on the deal: the finish reads
the mark in the fair-play answers (``leaderboard.fairplay``), a start in ``has_seen_answer``."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction

from leaderboard.models import AnswerSeen


@transaction.atomic
def mark_answer_seen(*, player_id: int, deal_id: int, game_id: UUID | None = None) -> bool:
    """Record that the player has seen the answer to the deal (once: a second call, or two at
    once, keep the first mark). True when this call made it."""
    _, made = AnswerSeen.objects.get_or_create(
        player_id=player_id, deal_id=deal_id, defaults={"game_id": game_id}
    )
    return made
