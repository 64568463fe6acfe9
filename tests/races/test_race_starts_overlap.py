"""Starts that share players, at the same moment (a race's, an arena's and a player's own new
game): `play.services.start_games` locks its players in id order whatever order it is given them,
so overlapping starts wait for each other and never deadlock; each player is left with one
unfinished game, every other resigned."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection

from tests.play.helpers import winnable_code
from tripeaks.engine.rules import Rules
from tripeaks.play import services as play
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 5


def _at_once(starts: Sequence[Callable[[], object]]) -> list[BaseException]:
    """Run `starts` in threads released together; what each raised."""
    barrier = threading.Barrier(len(starts))
    raised: list[BaseException] = []

    def run(start: Callable[[], object]) -> None:
        try:
            barrier.wait()
            start()
        except BaseException as error:  # noqa: BLE001 (reported to the test, not swallowed)
            raised.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(start,)) for start in starts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return raised


def test_overlapping_starts_in_opposite_orders_all_start_and_leave_one_game_each(
    make_player: Any,
) -> None:
    code, _ = winnable_code()
    a, b, c = (make_player(f"overlap-{name}") for name in "abc")

    def starting(users: list[AbstractBaseUser]) -> Callable[[], object]:
        return lambda: play.start_games(users=users, mode="custom", rules=Rules(), code=code)

    for _ in range(ROUNDS):
        raised = _at_once(
            [starting([a, b, c]), starting([c, b, a]), starting([b]), starting([c, a])]
        )
        assert raised == []
    assert Game.objects.count() == ROUNDS * 9
    for user in (a, b, c):
        assert Game.objects.filter(player=user, finished_at__isnull=True).count() == 1
