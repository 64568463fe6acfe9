"""Faults on a private stack (stack.py): a killed ASGI server, a restarting PostgreSQL, Redis
down, a killed Celery worker, two servers racing on one game. Nothing acknowledged is lost,
nothing is half-written, failures are clear 503s, and everything comes back.

In three files, each under 30 s on one worker: this one (the ASGI server), test_faults_services.py
(PostgreSQL, Redis) and test_faults_celery.py; their helpers are tests/reliability/faults.py."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from typing import Any

import pytest

from bench.play_load import choose
from tests.reliability.faults import assert_consistent, send, start
from tests.reliability.stack import Stack, request

pytestmark = pytest.mark.slow


# --------------------------------------------------------------------------- the ASGI server


def test_sigkill_of_the_server_mid_game_loses_no_acknowledged_move(stack: Stack) -> None:
    ((_, token),) = stack.players(1, "crash")
    server = stack.start_server("crash")
    first = start(server, token)
    chooser = random.Random(3)
    acked = first
    for _ in range(10):
        status, acked, _, _ = send(server, token, acked, **choose(acked, chooser))
        assert status == 200, acked
    # One more move in flight when the server dies: it is either stored or not, never half.
    in_flight = choose(acked, chooser)

    def fly() -> None:
        with contextlib.suppress(OSError):  # the server dies under it: no answer
            send(server, token, acked, **in_flight)

    flight = threading.Thread(target=fly, daemon=True)
    flight.start()
    time.sleep(random.uniform(0, 0.02))
    killed_at = time.monotonic()
    server.kill()
    flight.join(timeout=20)
    again = stack.start_server("crash-restarted", port=server.port)
    back_after = time.monotonic() - killed_at

    status, now, _, _ = request("GET", f"{again.url}/api/games/current", token=token)
    assert status == 200 and now["id"] == first["id"]
    assert now["seq"] in (acked["seq"], acked["seq"] + 1)
    if now["seq"] == acked["seq"]:
        assert now["positions"] == acked["positions"]
    # The client retries its unanswered move: applied exactly once either way.
    status, retried, _, _ = send(again, token, acked, **in_flight)
    assert status == 200 and retried["seq"] == acked["seq"] + 1, retried
    assert retried.get("replayed", False) == (now["seq"] == acked["seq"] + 1)
    # The undo history survived the crash: undo back to the deal as dealt.
    view = retried
    for _ in range(100):
        status, body, _, _ = send(again, token, view, action="undo")
        if status != 200:
            assert status == 400 and "nothing to undo" in body["detail"]
            break
        view = body
    assert view["positions"] == first["positions"]
    assert_consistent(stack)
    print(f"server SIGKILLed and back in {back_after:.1f} s")


def test_two_moves_at_once_from_two_servers_exactly_one_applies(stack: Stack) -> None:
    ((_, token),) = stack.players(1, "race")
    one, two = stack.start_server("race-1"), stack.start_server("race-2")
    game = start(one, token)
    seq = game["seq"]
    for round_ in range(16):
        barrier = threading.Barrier(2)
        answers: list[Any] = []
        moves = [{"action": "draw"}, {"action": "undo" if round_ % 2 else "draw"}]

        def race(
            server: Any,
            move: dict[str, Any],
            barrier: threading.Barrier = barrier,
            answers: list[Any] = answers,
            seq: int = seq,
        ) -> None:
            barrier.wait()
            answers.append((move, send(server, token, game, seq=seq, **move)))

        threads = [
            threading.Thread(target=race, args=pair) for pair in zip((one, two), moves, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=20)
        applied = [a for a in answers if a[1][0] == 200 and not a[1][1].get("replayed")]
        others = [a for a in answers if a not in applied]
        assert len(applied) == 1, answers
        (move, (status, body, _, _)) = others[0]
        # The loser is told (409 with the current view), or it was the very same move (a retry).
        assert status == 409 or (status == 200 and body.get("replayed")), answers
        seq += 1
    logged = stack.sql("SELECT count(*) FROM play_move WHERE game_id = %s", game["id"])[0][0]
    assert logged == seq == 16
    assert_consistent(stack)
