"""A face-down card or the stock order never leaves the server."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.play.helpers import move
from tripeaks.play.models import Game
from tripeaks.play.services import load_game_state

pytestmark = pytest.mark.django_db


def hidden_tokens(game_id: str) -> set[str]:
    state = load_game_state(Game.objects.select_related("deal").get(pk=game_id))
    hidden = {state.deal.stock[i].token for i in range(state.drawn, len(state.deal.stock))}
    for p in range(state.deal.layout.size):
        if state.in_layout(p) and not state.is_face_up(p):
            hidden.add(state.deal.layout_cards[p].token)
    return hidden


# Hints a game asks for at most. A hint is a solver search from the position (a request's budget:
# not remembered, tests/solver_memo.py); drawn as often as any other move, the four games asked
# for 68, 43 % of the file's time under the profiler, every answer of one shape (the game's view
# and a move). Each game still asks for its first few among its other moves, each answer checked.
HINTS_PER_GAME = 3


@pytest.mark.parametrize("mode", ["random", "daily"])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_never_reveals_a_hidden_card(api: APIClient, mode: str, seed: int) -> None:
    chooser = random.Random(seed)
    game = api.post("/api/games", {"mode": mode}, format="json").json()
    hints = 0
    for _ in range(60):
        payloads = [game]
        hidden = hidden_tokens(game["id"])
        leaked = {card for card in hidden if f'"{card}"' in json.dumps(payloads)}
        assert not leaked, f"hidden cards in a payload: {leaked}"
        if game["status"] != "playing":
            break
        options: list[dict[str, Any]] = [
            {"action": "play", "position": p} for p in game["playable"]
        ]
        options += [{"action": "draw"}] * (game["stock_left"] > 0) + [{"action": "undo"}] * game[
            "can_undo"
        ]
        options += [{"action": "play", "position": chooser.randrange(28)}]
        options += [{"action": "hint"}] * (hints < HINTS_PER_GAME)
        step = chooser.choice(options)
        hints += step["action"] == "hint"
        response = move(api, game, **step)
        body = response.json()
        hidden_now = hidden_tokens(game["id"])
        assert not {card for card in hidden_now if f'"{card}"' in json.dumps(body)}
        if response.status_code == 200:
            game = body
