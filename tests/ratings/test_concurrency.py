"""Concurrent races with players in common (real PostgreSQL, one connection per thread): rows
are locked in user-id order, so nobody deadlocks and no race's update is lost."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from tripeaks.ratings.models import Rating, RatingEvent
from tripeaks.ratings.services import rate_race

RULES = "wrap-closed"


@pytest.mark.django_db(transaction=True)
def test_overlapping_races_at_once_lose_no_update(make_user: Any, settings: Any) -> None:
    settings.RATING_PAIR_LIMIT = 100  # the same pairs race again and again here: rate them all
    players = [make_user().pk for _ in range(5)]
    # Every pair and some triples, in both orders: each thread's placings list its players in
    # a different order, so only the service's own ordering keeps the locks in one order.
    races = [[(players[i], 1), (players[j], 2)] for i in range(5) for j in range(5) if i != j] + [
        [(players[i], 1), (players[(i + 2) % 5], 2), (players[(i + 4) % 5], 2)] for i in range(5)
    ]
    # Eight connections at once, each rating its share of the races one after the other.
    shares = [list(enumerate(races))[k::8] for k in range(8)]
    start = threading.Barrier(len(shares))
    errors: list[BaseException] = []

    def rate(share: list[tuple[int, list[tuple[int, int]]]]) -> None:
        try:
            start.wait(timeout=30)
            for number, placings in share:
                rate_race(rules_key=RULES, placings=placings, race=f"race-{number}")
        except BaseException as error:  # noqa: BLE001 - the test reports it below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=rate, args=(share,)) for share in shares]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    for player in players:
        row = Rating.objects.get(user_id=player, rules_key=RULES)
        events = list(RatingEvent.objects.filter(user_id=player).order_by("id"))
        expected = sum(1 for placings in races if player in dict(placings))
        assert row.races == len(events) == expected
        # Each race started from the rating the one before it left: no update was lost.
        assert events[0].rating_before == 1500.0
        for earlier, later in zip(events, events[1:], strict=False):
            assert later.rating_before == earlier.rating_after
            assert later.rd_before == earlier.rd_after
        assert row.rating == events[-1].rating_after
