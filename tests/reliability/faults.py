"""What the fault tests (tests/reliability/test_faults*.py) share: a game started and a move sent
over HTTP, and the stack's database checked whole."""

from __future__ import annotations

from typing import Any

from tests.reliability.stack import Stack, request


def start(server: Any, token: str, **body: Any) -> dict[str, Any]:
    status, game, _, _ = request(
        "POST", f"{server.url}/api/games", {"mode": "daily", **body}, token
    )
    assert status == 201, game
    return game


def send(server: Any, token: str, game: dict[str, Any], seq: int | None = None, **move: Any) -> Any:
    body = {"seq": game["seq"] if seq is None else seq, **move}
    return request("POST", f"{server.url}/api/games/{game['id']}/moves", body, token)


def assert_consistent(stack: Stack) -> dict[str, Any]:
    report = stack.python(
        "from tests.reliability.stack import check_database\nprint(json.dumps(check_database()))"
    )
    assert report["replay_mismatches"] == 0, report
    assert report["seq_gaps"] == 0, report
    assert report["stats_equal_recomputed"], report
    return report
