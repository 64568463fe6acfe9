"""The staff's review queue: runs held or flagged that nobody has decided on yet, the latest
decisions, and who a held run's player shares a device or address with. Read by the staff page
(``pages``) and its REST twin (``/api/staff/flagged-runs``); the decisions are written by
``review.review_run``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet

from leaderboard.models import Result, RunReview
from leaderboard.selectors.identical_lines import identical_lines
from leaderboard.selectors.shapes import player_payload, result_payload
from tripeaks.ratings.selectors import closed_flags, open_flags

REVIEW_QUEUE_LIMIT = 100


def pending() -> QuerySet[Result]:
    """Runs waiting for a decision, newest first."""
    return (
        Result.objects.filter(Q(held=True) | Q(flagged=True))
        .exclude(Exists(RunReview.objects.filter(result_id=OuterRef("pk"))))
        .select_related("player", "deal", "game")
        .order_by("-finished_at", "-id")
    )


def recent_decisions(limit: int = 50) -> QuerySet[RunReview]:
    return RunReview.objects.select_related("result__player", "staff").order_by("-at", "-id")[
        :limit
    ]


@dataclass(frozen=True)
class Sharing:
    """Other accounts that played the run's deal from the same device or network address."""

    device: list[str]
    address: list[str]


def sharing(runs: Iterable[Result]) -> dict[int, Sharing]:
    """For each held run (by id): who else played its deal from the same device or address, in
    one query for all of them (for staff). Each run needs its game loaded (``pending`` selects
    it)."""
    from tripeaks.play.models import Game

    held = [run for run in runs if run.held]
    devices = {run.game.device for run in held if run.game.device}
    addresses = {run.game.address for run in held if run.game.address}
    if not devices and not addresses:
        return {run.pk: Sharing(device=[], address=[]) for run in held}
    others = (
        Game.objects.filter(deal_id__in={run.deal_id for run in held}, started_at__isnull=False)
        .filter(Q(device__in=devices) | Q(address__in=addresses))
        .values_list("deal_id", "player_id", "device", "address", "player__username")
    )
    played = list(others)

    def names(run: Result, column: int, value: str | None) -> list[str]:
        if not value:
            return []
        return sorted(
            {
                row[4]
                for row in played
                if row[0] == run.deal_id and row[1] != run.player_id and row[column] == value
            }
        )

    return {
        run.pk: Sharing(
            device=names(run, 2, run.game.device), address=names(run, 3, run.game.address)
        )
        for run in held
    }


def review_page(limit: int = REVIEW_QUEUE_LIMIT) -> dict[str, object]:
    """What the staff page shows: the `limit` latest runs waiting (each held one with whom its
    player shares a device or address), the lines won by several accounts on one deal
    (``identical_lines``), the latest decisions and the accounts whose rating rose on games
    against feeders with the latest decisions on them: six queries however many."""
    runs = list(pending()[:limit])
    shared = sharing(runs)
    rows = [{"run": run, "sharing": shared.get(run.pk)} for run in runs]
    return {
        "rows": rows,
        "identical_lines": identical_lines(),
        "decisions": list(recent_decisions()),
        "rating_flags": open_flags(),
        "closed_flags": closed_flags(),
    }


def runs_to_review(limit: int = REVIEW_QUEUE_LIMIT) -> list[dict[str, object]]:
    """The `limit` latest runs waiting for a decision (one query), each with its player, game and
    the reason it waits."""
    return [
        {
            **result_payload(result),
            "player": player_payload(result.player),
            "game": str(result.game_id),
            "flagged": result.flagged,
            "reason": "; ".join(why for why in (result.hold_reason, result.flag_reason) if why),
        }
        for result in pending()[:limit]
    ]
