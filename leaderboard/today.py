"""Today's daily deals as one player stands on them (the home page): per rule set not played,
in progress, or the result with its rank; and the daily streak."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser

from leaderboard.models import ALL_RULES, DealBest, DealRecord, PlayerStats, Result
from leaderboard.payloads import MyToday
from leaderboard.selectors import rank_of_line, stats_payload
from tripeaks.engine.rules import CLASSIC_RULE_SETS
from tripeaks.infra.json_types import JSONObject
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game


def my_today(user: AbstractBaseUser) -> MyToday:
    """A few queries whatever the history: one each for games, results, lines, boards, stats."""
    day = deal_day()
    keys = [rules.key for rules in CLASSIC_RULE_SETS]
    playing = set(
        Game.objects.filter(
            player_id=user.pk, finished_at__isnull=True, deal__source="daily", deal__day=day
        ).values_list("deal__rules_key", flat=True)
    )
    results: dict[str, Result] = {}
    for run in Result.objects.filter(player_id=user.pk, mode="daily", day=day).order_by(
        "finished_at"
    ):
        results.setdefault(run.rules_key, run)  # the first finished run is the day's
    lines = {
        line.rules_key: line
        for line in DealBest.objects.filter(player_id=user.pk, mode="daily", deal__day=day)
    }
    boards = dict(
        DealRecord.objects.filter(mode="daily", day=day, layout="classic").values_list(
            "rules_key", "lines"
        )
    )
    rule_sets: dict[str, JSONObject] = {}
    for key in keys:
        result = results.get(key)
        line = lines.get(key)
        entry: JSONObject = {"state": "not_played"}
        if key in playing:
            entry = {"state": "playing"}
        elif result is not None:
            entry = {
                "state": "won" if result.won else "lost",
                "time_ms": result.time_ms,
                "moves": result.moves,
                "cards_left": result.cards_left,
                "ranked": result.ranked,
                "rank": rank_of_line(line) if line is not None else None,
                "lines": boards.get(key, 0),
            }
        rule_sets[key] = entry
    overall = stats_payload(
        PlayerStats.objects.filter(player_id=user.pk, rules_key=ALL_RULES).first(), day
    )
    return {
        "day": day.isoformat(),
        "rule_sets": rule_sets,
        "daily_streak": overall["daily_streak"],
        "best_daily_streak": overall["best_daily_streak"],
    }
