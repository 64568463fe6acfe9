"""A player's statistics page: per rule set and overall, and their latest results."""

from __future__ import annotations

from typing import Any

from leaderboard.models import ALL_RULES, PlayerStats, Result
from leaderboard.selectors.shapes import player_payload, result_payload, stats_payload
from tripeaks.play.dealday import deal_day

RECENT_RESULTS = 20


def player_stats(user: Any, *, owner: bool = True) -> dict[str, Any]:
    """A player's statistics per rule set and overall, and their last 20 results (2 queries).
    Runs held for review are listed (marked ``held``) to their `owner` only."""
    today = deal_day()
    rows = {s.rules_key: s for s in PlayerStats.objects.filter(player_id=user.pk)}
    recent = Result.objects.filter(player_id=user.pk)
    if not owner:
        recent = recent.filter(held=False)
    recent = recent.order_by("-finished_at", "-id")[:RECENT_RESULTS]
    return {
        "player": player_payload(user),
        "overall": stats_payload(rows.pop(ALL_RULES, None), today),
        "rules": {key: stats_payload(rows[key], today) for key in sorted(rows)},
        "recent": [result_payload(r) for r in recent],
    }
