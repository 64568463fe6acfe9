"""Starts that share players, at the same moment (a race's, an arena's and a player's own new
game): `play.services.start_games` locks its players in id order whatever order it is given them,
so overlapping starts wait for each other and never deadlock; each player is left with one
unfinished game, every other resigned."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.base_user import AbstractBaseUser

from tests.play.helpers import winnable_code
from tests.together import at_once
from tripeaks.engine.rules import Rules
from tripeaks.play import services as play
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 5


def test_overlapping_starts_in_opposite_orders_all_start_and_leave_one_game_each(
    make_player: Any,
) -> None:
    code, _ = winnable_code()
    a, b, c = (make_player(f"overlap-{name}") for name in "abc")

    def starting(users: list[AbstractBaseUser]) -> Callable[[], object]:
        return lambda: play.start_games(users=users, mode="custom", rules=Rules(), code=code)

    for _ in range(ROUNDS):
        answers = at_once(
            [starting([a, b, c]), starting([c, b, a]), starting([b]), starting([c, a])]
        )
        assert [answer for answer in answers if isinstance(answer, BaseException)] == []
    assert Game.objects.count() == ROUNDS * 9
    for user in (a, b, c):
        assert Game.objects.filter(player=user, finished_at__isnull=True).count() == 1
