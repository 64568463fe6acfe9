"""A server killed (SIGKILL) with a game's socket open ran no close, and the game's clock ran on
for good: the player was charged for time the cards were on no screen. For real, on a private
stack (tests/reliability/stack.py: its own PostgreSQL and Redis, the server a subprocess): the
server beats for the games its sockets show (play/clock_presence.py, every CLOCK_HEARTBEAT_S,
1 s here), the sweep (play/clock_sweep.py, beat's task) stops a clock whose beat lapsed, at its
last beat plus one interval, and a socket opened again starts it again."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from tests.reliability.conftest import _private_stack, stack  # noqa: F401 - the fixtures
from tests.reliability.faults import start
from tests.reliability.stack import Stack, request, wait_until
from tripeaks.play.models import Game

# A websocket connected without its context manager warned (websockets 17.1 deprecates it): this
# test's sockets are opened as context managers, and any deprecation is an error here.
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("error::DeprecationWarning")]

BEAT_S = 1.0


@pytest.fixture
def beating(stack: Stack) -> Iterator[Stack]:  # noqa: F811 - the fixture imported above
    """The reliability tests' stack with a beat every second, for every process it starts."""
    stack.overrides["CLOCK_HEARTBEAT_S"] = str(BEAT_S)
    try:
        yield stack
    finally:
        del stack.overrides["CLOCK_HEARTBEAT_S"]


@contextlib.contextmanager
def open_socket(server: Any, session: str, game_id: str) -> Iterator[tuple[Any, dict[str, Any]]]:
    """A game socket and its first view, closed on leaving (a socket closed already stays so)."""
    from websockets.sync.client import connect

    with connect(
        f"ws://127.0.0.1:{server.port}/ws/games/{game_id}/",
        additional_headers={"Cookie": f"sessionid={session}", "Origin": server.url},
    ) as socket:
        first = json.loads(socket.recv(timeout=10))
        assert first["type"] == "view", first
        yield socket, first["game"]


def clock_row(private: Stack, game_id: str) -> tuple[int, Any, int]:
    (row,) = private.sql(
        f"SELECT elapsed_ms, running_since, seq FROM {Game._meta.db_table} WHERE id = %s", game_id
    )
    return row[0], row[1], row[2]


def test_a_server_killed_with_a_socket_open_leaves_no_clock_running(beating: Stack) -> None:
    private = beating
    ((session, token),) = private.players(1, "deadclock")
    index = private.python(
        "from tripeaks.play import clock_presence\nprint(json.dumps(clock_presence.index_key()))"
    )
    beats = redis.Redis(port=private.redis_port, db=0)

    def beat() -> float | None:
        score = beats.zscore(index, game["id"])
        return None if score is None else float(score)

    server = private.start_server("clock")
    game = start(server, token)
    with open_socket(server, session, game["id"]) as (socket, view):
        assert view["clock_running"]
        opened_beat = wait_until(beat, 10, "the opening's beat")
        wait_until(lambda: (beat() or 0) > opened_beat, 10, "the server's own beat")
        _, running_since, seq = clock_row(private, game["id"])
        assert running_since is not None

        server.kill()  # kill -9: no close, no hide_game, no more beats
        with contextlib.suppress(Exception):
            socket.close()
    last = beat()
    assert last is not None
    # The lapse (three beats) is the clock under test: waited out on the real clock.
    wait_until(lambda: time.time() > last + 3 * BEAT_S + 0.1, 10, "the beat to lapse")
    swept = private.python(
        "from tripeaks.play.tasks import sweep_lapsed_clocks\n"
        "print(json.dumps(sweep_lapsed_clocks()))"
    )

    assert swept == 1
    elapsed_ms, stopped, after_seq = clock_row(private, game["id"])
    assert stopped is None and after_seq == seq  # stopped, and no move logged
    charged_until_ms = (last - running_since.timestamp()) * 1000
    # Charged up to the last beat, and at most one beat interval after it.
    assert charged_until_ms - 5 <= elapsed_ms <= charged_until_ms + BEAT_S * 1000 + 5, (
        elapsed_ms,
        charged_until_ms,
    )
    assert beat() is None  # swept
    ran_on_s = time.time() - running_since.timestamp() - elapsed_ms / 1000
    print(
        f"clock stopped {elapsed_ms / 1000 - (last - running_since.timestamp()):.2f} s after the"
        f" dead server's last beat; {ran_on_s:.1f} s of the death not charged (before: all of it)"
    )

    # It stays stopped while no screen shows it; a socket opened again starts it again.
    again = private.start_server("clock-again")
    status, read, _, _ = request("GET", f"{again.url}/api/games/{game['id']}", token=token)
    assert status == 200 and not read["clock_running"] and read["elapsed_ms"] == elapsed_ms
    with open_socket(again, session, game["id"]) as (_, back):
        assert back["clock_running"] and back["seq"] == seq + 1  # the resume, logged
        assert 0 <= back["elapsed_ms"] - elapsed_ms < 1000
