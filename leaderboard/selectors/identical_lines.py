"""Identical lines across accounts: won runs of one board deal whose lines are the same move for
move, by different accounts (for staff, in the review queue).

What nothing else finds: two people on two networks sharing a line (one scouts and solves the
deal, the other plays the answer with human pacing). A run's *line* is what its moves came to:
plays and draws as they stand at the end, with undone moves and restarts taken out, so a scout's
search (thousands of undos) and the clean replay it produced compare equal. Honest players rarely
win a deal by the same 40-odd moves; when they do, staff see both and decide nothing is wrong.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.postgres.aggregates import ArrayAgg
from django.db.models import Count, Max, Q

from leaderboard.lines import LINE_ACTIONS, line_of
from leaderboard.models import BOARD_MODES, Result
from tripeaks.play.dealday import day_start, deal_day

IDENTICAL_LINES_LIMIT = 50


@dataclass(frozen=True)
class IdenticalLine:
    """One line won by several accounts on one deal: the runs, oldest first."""

    deal: str
    moves: int
    runs: list[Result]

    @property
    def players(self) -> list[str]:
        return sorted({run.player.username for run in self.runs})


def identical_lines(*, days: int = 2, limit: int = IDENTICAL_LINES_LIMIT) -> list[IdenticalLine]:
    """Lines won by two or more accounts on one daily or numbered deal, among the runs finished
    since the start of the deal day `days - 1` days ago (default: yesterday's and today's), newest
    deal first. Two queries however many runs there are: the database groups the won runs by
    their line's digest (stored when the run was recorded), and only the runs of a line two
    accounts share are read with their logs, whose lines are compared in full here."""
    since = day_start(deal_day() - timedelta(days=days - 1))
    won = Result.objects.filter(
        won=True, mode__in=BOARD_MODES, finished_at__gte=since, line_digest__gt=""
    )
    shared = list(
        won.values("deal_id", "line_digest")
        .annotate(players=Count("player_id", distinct=True), last=Max("id"))
        .filter(players__gt=1)
        .order_by("-last")[:limit]
    )
    if not shared:
        return []
    match = Q()
    for row in shared:
        match |= Q(deal_id=row["deal_id"], line_digest=row["line_digest"])
    in_line = Q(game__log__action__in=LINE_ACTIONS)
    runs = (
        won.filter(match)
        .select_related("player", "deal")
        .annotate(
            actions=ArrayAgg(
                "game__log__action", filter=in_line, order_by=("game__log__seq",), default=[]
            ),
            positions=ArrayAgg(
                "game__log__position", filter=in_line, order_by=("game__log__seq",), default=[]
            ),
        )
        .order_by("finished_at", "id")
    )
    by_line: dict[tuple[int, tuple[int, ...]], list[Result]] = defaultdict(list)
    for run in runs:
        by_line[(run.deal_id, line_of(run.actions, run.positions))].append(run)
    found = [
        IdenticalLine(deal=str(same[0].deal), moves=len(line), runs=same)
        for (_, line), same in by_line.items()
        if line and len({run.player_id for run in same}) > 1
    ]
    found.sort(key=lambda group: -max(run.pk for run in group.runs))
    return found[:limit]
