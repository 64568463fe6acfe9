"""The staff's review queue over REST: the latest runs waiting for a decision, and why."""

from __future__ import annotations

from typing import Any

from leaderboard import review
from leaderboard.selectors.shapes import player_payload, result_payload

REVIEW_QUEUE_LIMIT = 100


def runs_to_review(limit: int = REVIEW_QUEUE_LIMIT) -> list[dict[str, Any]]:
    """The `limit` latest runs held or flagged that nobody has decided on (one query), each with
    its player, game and the reason it waits."""
    return [
        result_payload(result)
        | {
            "player": player_payload(result.player),
            "game": str(result.game_id),
            "flagged": result.flagged,
            "reason": "; ".join(why for why in (result.hold_reason, result.flag_reason) if why),
        }
        for result in review.pending()[:limit]
    ]
