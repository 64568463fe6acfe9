"""A player's results over time for the statistics page's charts (win rate by week, the calendar of
daily deals, the spread of winning times), per rule set and layout, in a compact form."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser

from leaderboard.models import Result
from leaderboard.payloads import MyHistory

HISTORY_LIMIT = 1000  # the newest runs; a year of steady play


def my_history(
    user: AbstractBaseUser, *, rules_key: str | None = None, layout: str | None = None
) -> MyHistory:
    """Oldest first: [finished_at, mode, rules, layout, won, time_ms, ranked, day] per run (2 queries)."""
    runs = Result.objects.filter(player_id=user.pk)
    layouts = sorted(set(runs.values_list("layout", flat=True).distinct()))
    if rules_key:
        runs = runs.filter(rules_key=rules_key)
    if layout:
        runs = runs.filter(layout=layout)
    rows = runs.order_by("-finished_at", "-id").values_list(
        "finished_at", "mode", "rules_key", "layout", "won", "time_ms", "ranked", "day"
    )[:HISTORY_LIMIT]
    return {
        "fields": ["finished_at", "mode", "rules", "layout", "won", "time_ms", "ranked", "day"],
        "runs": [
            [
                at.isoformat(),
                mode,
                rules,
                lay,
                won,
                time_ms,
                ranked,
                day.isoformat() if day else None,
            ]
            for at, mode, rules, lay, won, time_ms, ranked, day in reversed(rows)
        ],
        "layouts": layouts,
    }
