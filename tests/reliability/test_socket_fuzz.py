"""The game socket fuzzed with hypothesis: random and malformed frames (not JSON, huge, wrong
types, unknown actions, binary, near-valid moves). Every frame gets exactly one answer; a refused
frame changes nothing; the socket stays usable; the stored game is the replay of its log."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.play.helpers import client_for, start_custom, winnable_code
from tests.play.test_restart_and_replay import replay_log
from tripeaks.config.asgi import application
from tripeaks.play.models import Game
from tripeaks.play.services import load_game_state

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

EXAMPLES = 60
FRAMES: list[int] = []

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
near_moves = st.fixed_dictionaries(
    {
        "seq": st.one_of(st.integers(-3, 5), st.text(max_size=3), st.none(), st.floats()),
        "action": st.one_of(
            st.sampled_from(["play", "draw", "undo", "hint", "pause", "resume", "teleport", ""]),
            st.integers(),
            st.none(),
        ),
    },
    optional={
        "position": st.one_of(st.integers(-5, 60), st.text(max_size=3), st.booleans()),
        "type": st.sampled_from(["sync", "move", "admin", ""]),
    },
)
frames = st.one_of(
    st.text(max_size=200).map(lambda text: ("text", text)),
    json_values.map(lambda value: ("text", json.dumps(value))),
    near_moves.map(lambda move: ("text", json.dumps(move))),
    st.binary(max_size=64).map(lambda data: ("bytes", data)),
    st.just(("text", "")),
    st.integers(4000, 20_000).map(
        lambda size: ("text", '{"seq": 0, "action": "' + "d" * size + '"}')
    ),
)


@pytest.fixture
def game() -> tuple[Any, str]:
    user = get_user_model().objects.create_user(username="fuzzsock", password="long password 12")
    code, _ = winnable_code()
    return user, start_custom(client_for(user), code)["id"]


async def _drive(user: Any, game_id: str, batch: list[tuple[str, Any]]) -> None:
    socket = WebsocketCommunicator(
        application, f"/ws/games/{game_id}/", headers=[(b"origin", b"http://localhost")]
    )
    socket.scope["user"] = user
    connected, _ = await socket.connect()
    assert connected
    seq = (await socket.receive_json_from())["game"]["seq"]
    for kind, data in batch:
        # Straight to the consumer, so empty frames go too (send_to refuses them).
        await socket.send_input({"type": "websocket.receive", kind: data})
        reply = await socket.receive_json_from(timeout=5)
        assert reply["type"] in ("view", "error"), reply
        if reply["type"] == "error":
            assert isinstance(reply["detail"], str) and reply["detail"], reply
            assert reply.get("game", {"seq": seq})["seq"] == seq  # a refusal changed nothing
        else:
            assert reply["game"]["seq"] in (seq, seq + 1)  # a sync, or a move that was legal
            seq = reply["game"]["seq"]
        FRAMES.append(1)
    await socket.send_json_to({"type": "sync"})  # still usable
    assert (await socket.receive_json_from(timeout=5))["game"]["seq"] == seq
    assert await socket.receive_nothing(timeout=0.05)
    await socket.disconnect()
    stored = await database_sync_to_async(lambda: Game.objects.get(pk=game_id).seq)()
    assert stored == seq


def test_fuzzed_frames_get_one_answer_each_and_refusals_change_nothing(
    game: tuple[Any, str],
) -> None:
    user, game_id = game

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
    )
    @given(st.lists(frames, min_size=1, max_size=12))
    def run(batch: list[tuple[str, Any]]) -> None:
        async_to_sync(_drive)(user, game_id, batch)

    run()
    stored = Game.objects.select_related("deal").get(pk=game_id)
    replayed = replay_log(stored)
    assert load_game_state(stored).position == replayed.position
    assert load_game_state(stored).history == replayed.history
    assert len(FRAMES) >= EXAMPLES
