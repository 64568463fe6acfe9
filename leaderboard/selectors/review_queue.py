"""The staff's review queue: runs held or flagged that nobody has decided on yet, the latest
decisions, and who a held run's player shares a device or address with. Read by the staff page
(``pages``) and its REST twin (``/api/staff/flagged-runs``); the decisions are written by
``review.review_run``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from leaderboard.models import Result, RunReview
from leaderboard.selectors.shapes import player_payload, result_payload

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


def sharing(result: Result) -> Sharing:
    """Who the held run's player shares a device or address with on its deal (for staff)."""
    from tripeaks.play.models import Game

    game = result.game
    others = Game.objects.filter(deal_id=result.deal_id, started_at__isnull=False).exclude(
        player_id=result.player_id
    )

    def names(games: QuerySet[Game]) -> list[str]:
        return sorted(set(games.values_list("player__username", flat=True)))

    return Sharing(
        device=names(others.filter(device=game.device)) if game.device else [],
        address=names(others.filter(address=game.address)) if game.address else [],
    )


def review_page(limit: int = REVIEW_QUEUE_LIMIT) -> dict[str, Any]:
    """What the staff page shows: the `limit` latest runs waiting (each held one with whom its
    player shares a device or address) and the latest decisions."""
    rows = [
        {"run": run, "sharing": sharing(run) if run.held else None} for run in pending()[:limit]
    ]
    return {"rows": rows, "decisions": list(recent_decisions())}


def runs_to_review(limit: int = REVIEW_QUEUE_LIMIT) -> list[dict[str, Any]]:
    """The `limit` latest runs waiting for a decision (one query), each with its player, game and
    the reason it waits."""
    return [
        result_payload(result)
        | {
            "player": player_payload(result.player),
            "game": str(result.game_id),
            "flagged": result.flagged,
            "reason": "; ".join(why for why in (result.hold_reason, result.flag_reason) if why),
        }
        for result in pending()[:limit]
    ]
