from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.play.helpers import client_for, move, start_custom, winnable_code
from tripeaks.play.models import Game
from tripeaks.play.replay import replay_log
from tripeaks.play.services import load_game_state

pytestmark = pytest.mark.django_db


def test_a_game_continues_with_its_undo_history_from_the_database_alone(
    api: APIClient, player: Any
) -> None:
    code, line = winnable_code()
    start = start_custom(api, code)
    game = start
    for step in line[:5]:
        game = move(api, game, **step).json()
    # A fresh client and fresh model instances: nothing in memory carries over, as after a restart.
    fresh = client_for(player)
    game = fresh.get("/api/games/current").json()
    for _ in range(5):
        game = move(fresh, game, "undo").json()
    assert game["positions"] == start["positions"]


def test_the_stored_state_is_the_replay_of_the_move_log(api: APIClient) -> None:
    code, line = winnable_code()
    game = start_custom(api, code)
    for step in [
        *line[:6],
        {"action": "undo"},
        {"action": "hint"},
        {"action": "undo"},
        {"action": "restart"},
        *line[:3],
    ]:
        game = move(api, game, **step).json()
    stored = Game.objects.select_related("deal").get(pk=game["id"])
    replayed = replay_log(stored)
    assert load_game_state(stored).position == replayed.position
    assert load_game_state(stored).history == replayed.history
