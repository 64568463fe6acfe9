"""Finishing games without playing them: a finished Game row handed to record_result, exactly
as play's `_finish` does, for tests that need many precise results."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from leaderboard.models import Result
from leaderboard.services import record_result
from tripeaks.play.models import Deal, Game, Move

_numbers = itertools.count(1)
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def daily(day: date, rules_key: str = "wrap-closed", par: int | None = 40) -> Deal:
    deal, _ = Deal.objects.get_or_create(
        source="daily",
        day=day,
        rules_key=rules_key,
        layout="classic",
        defaults={"code": "x", "winnable": True, "par": par},
    )
    return deal


def numbered(number: int | None = None, rules_key: str = "wrap-closed") -> Deal:
    return Deal.objects.create(
        source="numbered",
        number=number or next(_numbers),
        rules_key=rules_key,
        layout="classic",
        code="x",
    )


def other(source: str = "random", rules_key: str = "wrap-closed") -> Deal:
    return Deal.objects.create(source=source, rules_key=rules_key, layout="classic", code="x")


def finish(
    player: Any,
    deal: Deal,
    *,
    won: bool = True,
    time_ms: int = 60_000,
    moves: int = 40,
    cards_left: int | None = None,
    at: datetime | None = None,
    assisted: bool = False,
    score: int = 0,
    log: Sequence[tuple[str, datetime]] = (),
) -> Result:
    """Record one finished game of `player` on `deal`, in its own transaction like play's; with
    `log`, its move log (action, server time), in seq order."""
    at = at or timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            player=player,
            deal=deal,
            state={},
            status="won" if won else "lost",
            moves=moves,
            cards_left=0 if won else (5 if cards_left is None else cards_left),
            score=score,
            assisted=assisted,
            hints=int(assisted),
            elapsed_ms=time_ms,
            started_at=at - timedelta(milliseconds=time_ms),
            finished_at=at,
        )
        Move.objects.bulk_create(
            [
                Move(game=game, seq=seq, action=action, at=when, elapsed_ms=0)
                for seq, (action, when) in enumerate(log, start=1)
            ]
        )
        if log:  # the deal was shown a second before the log's first action
            game.created_at = log[0][1] - timedelta(seconds=1)
            Game.objects.filter(pk=game.pk).update(created_at=game.created_at)
        result = record_result(game=game)
    return result
