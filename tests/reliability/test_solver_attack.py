"""Issue #16's solver row, against a real server (stack.py: production profile, PostgreSQL, Redis):
25 players ask for hints at once, again and again, on a custom `waves` no-wrap deal the solver
cannot finish (unbounded: seconds of CPU per hint). Every hint is answered within its budget
("no certain hint") or refused with Retry-After, and another player's requests all answer.
Latency figures are the bench's (bench/hint_attack.py), not asserted here."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from tests.reliability.stack import Stack, request
from tripeaks.engine.deal import from_seed
from tripeaks.engine.layouts import get_layout

pytestmark = pytest.mark.slow

HARD = from_seed(5, get_layout("waves")).code
ATTACKERS = 25
ATTACK_SECONDS = 4.0


def test_25_hints_at_once_on_a_hard_deal_leave_another_player_answered(stack: Stack) -> None:
    server = stack.start_server("solver-attack")
    players = stack.players(ATTACKERS + 1, "hinter")
    bystander = players[-1][1]
    games = []
    for _, token in players[:ATTACKERS]:
        body = {"mode": "custom", "deal": HARD, "layout": "waves", "rules": {"wrap": False}}
        status, game, _, _ = request("POST", f"{server.url}/api/games", body, token)
        assert status == 201, game
        games.append((token, game))

    hints: list[tuple[int, dict[str, Any], dict[str, str]]] = []
    mine: list[int] = []
    go = threading.Event()
    until = [0.0]

    def attack(token: str, game: dict[str, Any]) -> None:
        go.wait()
        seq = game["seq"]
        while time.monotonic() < until[0]:
            status, body, headers, _ = request(
                "POST",
                f"{server.url}/api/games/{game['id']}/moves",
                {"seq": seq, "action": "hint"},
                token,
                timeout=60,
            )
            hints.append((status, body, headers))
            if status == 200:
                seq = body["seq"]

    def watch() -> None:
        go.wait()
        while time.monotonic() < until[0]:
            status, _, _, _ = request("GET", f"{server.url}/api/me", token=bystander, timeout=60)
            mine.append(status)
            time.sleep(0.05)

    threads = [threading.Thread(target=attack, args=pair) for pair in games]
    threads.append(threading.Thread(target=watch))
    for thread in threads:
        thread.start()
    until[0] = time.monotonic() + ATTACK_SECONDS
    go.set()
    for thread in threads:
        thread.join()

    assert mine and set(mine) == {200}, mine
    statuses = {status for status, _, _ in hints}
    assert statuses <= {200, 429, 503}, statuses
    answered = [body["hint"] for status, body, _ in hints if status == 200]
    refused = [(status, headers) for status, _, headers in hints if status != 200]
    # The first hints were answered, and honestly: nothing could be proven within the budget.
    assert answered and all(
        hint == {"move": None, "winnable": None, "certain": False, "fewest_draws": False}
        for hint in answered
    )
    # More than the service's slots asked at once: the rest were told when to come back.
    assert refused and all(int(headers.get("retry-after", "0")) >= 1 for _, headers in refused)
    assert any(status == 503 for status, _ in refused)  # the service-wide limit, not only rates
