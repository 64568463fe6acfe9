"""Finishes on one deal at the same moment take turns on its record row: whatever the order, the
record ends as the best run, exactly one winner holds the first win, and every line is counted."""

from __future__ import annotations

import random
import threading
from datetime import date, timedelta
from typing import Any

import pytest
from django.db import connection

from leaderboard.boards import improves
from leaderboard.models import DealRecord, Result
from tests.leaderboard.helpers import T0, daily, finish

DAY = date(2026, 4, 1)


@pytest.mark.django_db(transaction=True)
def test_concurrent_finishes_leave_the_best_run_as_the_record(make_user: Any) -> None:
    deal = daily(DAY)
    chooser = random.Random(11)
    players = [make_user(f"racer{i}") for i in range(8)]
    runs = [
        {
            "won": chooser.random() < 0.7,
            "time_ms": chooser.randrange(30_000, 90_000),
            "moves": chooser.randrange(30, 60),
            "at": T0 + timedelta(seconds=i),
        }
        for i in range(len(players))
    ]
    barrier = threading.Barrier(len(players))
    failures: list[BaseException] = []

    def play(player: Any, run: dict[str, Any]) -> None:
        try:
            barrier.wait()
            finish(player, deal, **run)
        except BaseException as error:  # noqa: BLE001 - reported below, in the test's thread
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=play, args=pair) for pair in zip(players, runs, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures

    results = list(Result.objects.filter(deal=deal))
    best = results[0]
    for result in results[1:]:
        if improves("daily", result, best):
            best = result
    record = DealRecord.objects.get(deal=deal)
    assert record.lines == len(players)
    assert record.version == len(players)
    assert record.best_id == best.pk and record.holder_id == best.player_id
    assert [r.pk for r in results if r.new_record] != []
    winners = [r for r in results if r.won]
    if winners:
        assert record.first_win_id in {r.pk for r in winners}
        assert sum(r.first_win for r in results) == 1
