"""The ratings board: established ratings only (10 races or more), highest first; guests and
deleted accounts never on it; the provisional players counted."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from tripeaks.ratings import selectors
from tripeaks.ratings.models import Rating

pytestmark = pytest.mark.django_db

RULES = "wrap-closed"


def rated(user: Any, rating: float, races: int, rules_key: str = RULES) -> Rating:
    return Rating.objects.create(user=user, rules_key=rules_key, rating=rating, rd=60, races=races)


def test_the_board_leaves_provisional_players_off_and_orders_by_rating(make_user: Any) -> None:
    low, high, new, mid = (make_user(name) for name in ("low", "high", "new", "mid"))
    rated(low, 1400, 10)
    rated(high, 1900, 25)
    rated(new, 2400, 9)  # provisional, however high
    rated(mid, 1650, 12)
    rated(mid, 2500, 30, rules_key="nowrap-open")  # another rule set's board
    board = selectors.ratings_board(RULES)
    assert [(line["rank"], line["player"]["username"], line["rating"]) for line in board] == [
        (1, "high", 1900),
        (2, "mid", 1650),
        (3, "low", 1400),
    ]
    assert board[0]["races"] == 25 and board[0]["rd"] == 60
    assert selectors.provisional_count(RULES) == 1
    assert [line["player"]["username"] for line in selectors.ratings_board("nowrap-open")] == [
        "mid"
    ]


def test_guests_and_deleted_accounts_are_not_on_the_board(make_user: Any) -> None:
    rated(make_user("guesty", is_guest=True), 2000, 20)
    rated(make_user("gone", deleted_at=timezone.now()), 1900, 20)
    rated(make_user("here"), 1500, 20)
    assert [line["player"]["username"] for line in selectors.ratings_board(RULES)] == ["here"]


def test_the_board_is_capped(make_user: Any) -> None:
    for i in range(5):
        rated(make_user(), 1500 + i, 10)
    assert len(selectors.ratings_board(RULES, limit=2)) == 2
    assert [line["rating"] for line in selectors.ratings_board(RULES, limit=2)] == [1504, 1503]
    assert selectors.ratings_board(RULES, limit=0) == []
    assert len(selectors.ratings_board(RULES, limit=10**9)) == 5


def test_the_board_is_one_query(make_user: Any, django_assert_num_queries: Any) -> None:
    for i in range(3):
        rated(make_user(), 1500 + i, 10)
    with django_assert_num_queries(1):
        selectors.ratings_board(RULES)


def test_a_players_ratings_on_every_rule_set(make_user: Any) -> None:
    me = make_user()
    rated(me, 1700, 12)
    rated(me, 1450, 3, rules_key="nowrap-closed")
    mine = selectors.ratings_of(me.pk)
    assert list(mine) == ["nowrap-closed", RULES]
    assert mine[RULES].as_json() == {"rating": 1700, "rd": 60, "races": 12, "provisional": False}
    assert mine["nowrap-closed"].provisional
