"""What a game's finish reads for fair play's timing check: the move log's times as integers
(microseconds since the epoch), not datetimes, which cost the finish 5-10 us of CPU each to
load (issue #37 item 4: a solo move's cost), with the same think times to the last bit."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from leaderboard import fairplay, fairplay_model
from tests.play.helpers import solution
from tripeaks.engine.rules import Rules
from tripeaks.play import deals, services
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Move


@pytest.mark.django_db
def test_the_finish_reads_the_move_times_as_integers(
    make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = make_player("timed")
    read: list[Any] = []
    facts = fairplay.facts

    def reading(game: Any, answers: Any) -> fairplay.Facts:
        read.append(answers)
        return facts(game, answers)

    monkeypatch.setattr(fairplay, "facts", reading)
    game = services.start_game(user=user, mode="daily", rules=Rules())
    for seq, step in enumerate(solution(deals.daily_deal(deal_day(), Rules()))):
        services.apply_move(game_id=game.pk, user=user, seq=seq, **step)

    (answers,) = read
    actions, ats = answers[5], answers[6]
    assert ats and all(type(at) is int for at in ats)  # were datetimes
    log = Move.objects.filter(game=game).order_by("seq").values_list("action", "at")
    assert list(actions) == [action for action, _ in log]
    game.refresh_from_db()
    shown = fairplay_model.microseconds(game.created_at)
    assert fairplay_model.think_times_us(shown, zip(actions, ats, strict=True)) == (
        fairplay_model.think_times(game.created_at, log)
    )


def test_think_times_from_microseconds_are_those_from_datetimes() -> None:
    chooser = random.Random(37)
    start = datetime(2026, 12, 5, 22, 0, tzinfo=UTC)
    for _ in range(200):
        at, log = start, []
        for _ in range(chooser.randrange(1, 40)):
            at += timedelta(
                microseconds=chooser.choice([0, 1, 999, 250_000, chooser.randrange(10**8)])
            )
            log.append((chooser.choice(["play", "draw", "undo", "resume", "hint"]), at))
        # The reference: think_times' own loop as it was, on datetimes.
        expected, shown = [], start
        for action, when in log:
            if action in fairplay_model.TIMED_ACTIONS:
                expected.append(max(0.0, (when - shown).total_seconds() * 1000))
                shown = when
            elif action == "resume":
                shown = when
        micro = [(action, fairplay_model.microseconds(when)) for action, when in log]
        assert fairplay_model.think_times_us(fairplay_model.microseconds(start), micro) == expected
        assert fairplay_model.think_times(start, log) == expected
