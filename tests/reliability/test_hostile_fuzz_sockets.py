"""Hostile frames at the game socket and the live board (tests/reliability/hostile_fuzz.py):
near-valid messages with one field swapped, nested JSON, nasty text, binary; every frame gets
exactly one answer and the socket is usable after."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.play.helpers import client_for, start_custom, winnable_code
from tests.reliability.hostile_fuzz import SOCKET_EXAMPLES, drive, frames

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.mark.parametrize("which", ["game", "board"])
def test_hostile_socket_frames_get_one_answer_each_and_never_break_the_socket(which: str) -> None:
    user = get_user_model().objects.create_user(
        username=f"sock{which}", password="long password 12"
    )
    code, _ = winnable_code()
    game_id = start_custom(client_for(user), code)["id"]
    answers: Counter[str] = Counter()
    batches = []
    started = time.monotonic()

    @settings(
        max_examples=SOCKET_EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(st.lists(frames, min_size=1, max_size=8))
    def hostile(batch: list[tuple[str, Any]]) -> None:
        nonlocal game_id
        if which == "game":
            from tripeaks.play.models import Game

            # A "new" frame may have moved the player to another game: follow it.
            game_id = str(
                Game.objects.filter(player=user, finished_at__isnull=True)
                .values_list("pk", flat=True)
                .first()
                or game_id
            )
            path = f"/ws/games/{game_id}/"
        else:
            path = "/ws/leaderboards/daily/wrap-closed/"
        batches.append(len(batch))
        async_to_sync(drive)(path, user, batch, answers)

    hostile()
    seconds = time.monotonic() - started
    print(
        f"\nhostile {which} socket fuzz: {len(batches)} sockets, {sum(batches)} frames in "
        f"{seconds:.1f} s, answers {dict(sorted(answers.items()))}"
    )
    assert sum(answers.values()) == sum(batches)
