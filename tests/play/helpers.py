from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from typing import Any

from celery import current_app
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from tripeaks.engine.deal import from_seed
from tripeaks.engine.game import Move, Play
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import solve
from tripeaks.play import deals, solver_queue
from tripeaks.play.models import Deal


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


async def connect(user: Any, game_id: str) -> WebsocketCommunicator:
    """A game socket of `user`, signed in, not yet connected."""
    from tripeaks.config.asgi import application

    communicator = WebsocketCommunicator(
        application, f"/ws/games/{game_id}/", headers=[(b"origin", b"http://localhost")]
    )
    communicator.scope["user"] = user
    return communicator


def winnable_code(
    seed: int = 7, rules: Rules | None = None, layout: str = "classic"
) -> tuple[str, list[Any]]:
    """A deal code the solver wins, with its winning line as API moves (the caller's own copy)."""
    code, line = _winnable(seed, rules or Rules(), layout)
    return code, [dict(move) for move in line]


@functools.cache
def _winnable(seed: int, rules: Rules, layout: str) -> tuple[str, tuple[dict[str, Any], ...]]:
    """Searched once a test process for each seed, rules and layout: the reliability tests alone
    asked for the same deal some 80 times (9 ms of the solver's CPU each)."""
    while True:
        deal = from_seed(seed, get_layout(layout), rules.start)
        solution = solve(deal, rules)
        if solution.winnable:
            return deal.code, tuple(api_moves(solution.line))
        seed += 1


def api_moves(line: Iterable[Move]) -> list[dict[str, Any]]:
    """A solver's line (plays and draws) as API moves."""
    return [
        {"action": "play", "position": m.position} if isinstance(m, Play) else {"action": "draw"}
        for m in line
    ]


def solution(deal: Deal) -> list[dict[str, Any]]:
    """The solver's winning line for a stored deal, as API moves."""
    return api_moves(solve(deals.engine_deal(deal), Rules.from_key(deal.rules_key)).line)


def start_custom(api: APIClient, code: str, **rules: Any) -> dict[str, Any]:
    response = api.post(
        "/api/games", {"mode": "custom", "deal": code, "rules": rules}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def move(
    api: APIClient,
    game: dict[str, Any],
    action: str,
    position: int | None = None,
    seq: int | None = None,
) -> Any:
    body: dict[str, Any] = {"seq": game["seq"] if seq is None else seq, "action": action}
    if position is not None:
        body["position"] = position
    return api.post(f"/api/games/{game['id']}/moves", body, format="json")


def refills_queued() -> list[str]:
    """The pools whose refill waits in the solver queue (the tasks' args, as Celery shows them)."""
    with current_app.pool.acquire(block=True) as connection:
        raw = connection.default_channel.client.lrange(solver_queue.SOLVER_QUEUE, 0, -1)
    messages = [json.loads(item) for item in raw]
    assert all(m["headers"]["task"] == solver_queue.REFILL_TASK for m in messages)
    return [m["headers"]["argsrepr"] for m in messages]
