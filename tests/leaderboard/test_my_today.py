"""GET /api/me/today: the home page's word on today's daily deals, per rule set."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.play.helpers import client_for, move, solution
from tripeaks.engine.rules import Rules
from tripeaks.play.deals import refill_pool
from tripeaks.play.models import Deal

pytestmark = pytest.mark.django_db(transaction=True)


def start_daily(api: APIClient, wrap: bool) -> dict[str, Any]:
    response = api.post("/api/games", {"mode": "daily", "rules": {"wrap": wrap}}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_today_says_not_played_in_progress_and_the_result_with_its_rank(user: Any) -> None:
    api = client_for(user)
    today = api.get("/api/me/today").json()
    assert set(today["rule_sets"]) == {"wrap-closed", "wrap-open", "nowrap-closed", "nowrap-open"}
    assert {e["state"] for e in today["rule_sets"].values()} == {"not_played"}
    assert today["daily_streak"] == 0

    game = start_daily(api, wrap=False)
    assert api.get("/api/me/today").json()["rule_sets"]["nowrap-closed"] == {"state": "playing"}

    game = start_daily(api, wrap=True)  # the nowrap deal, untouched, is left as it was
    deal = Deal.objects.get(source="daily", rules_key="wrap-closed", day=game["day"])
    for step in solution(deal):
        game = move(api, game, **step).json()
    assert game["status"] == "won"
    won = api.get("/api/me/today").json()
    entry = won["rule_sets"]["wrap-closed"]
    assert entry["state"] == "won" and entry["rank"] == 1 and entry["lines"] == 1
    assert entry["moves"] == game["moves"] and entry["ranked"] is True
    assert won["daily_streak"] == 1


def test_today_needs_a_signed_in_player() -> None:
    assert APIClient().get("/api/me/today").status_code in (401, 403)


def test_history_lists_runs_oldest_first_per_rule_set(user: Any) -> None:
    from tests.play.helpers import start_custom, winnable_code

    api = client_for(user)
    code, line = winnable_code(5)
    game = start_custom(api, code)
    for step in line:
        game = move(api, game, **step).json()
    assert game["status"] == "won"
    # From the pool, as a running service deals it: proving random shuffles on the spot within a
    # request's node budget can run out without wrap (seen once in a full run: a 503 here).
    refill_pool(Rules(wrap=False), "classic", 1)
    game = api.post(
        "/api/games", {"mode": "random", "rules": {"wrap": False}}, format="json"
    ).json()
    game = move(api, game, "draw").json()
    assert move(api, game, "resign").json()["status"] == "lost"

    body = api.get("/api/me/history").json()
    fields = body["fields"]
    runs = [dict(zip(fields, run, strict=True)) for run in body["runs"]]
    assert [(r["mode"], r["won"], r["ranked"]) for r in runs] == [
        ("custom", True, False),
        ("random", False, True),
    ]
    assert runs[0]["finished_at"] < runs[1]["finished_at"] and body["layouts"] == ["classic"]
    only = api.get("/api/me/history?rules=nowrap-closed").json()["runs"]
    assert [r[1] for r in only] == ["random"]
    assert api.get("/api/me/history?rules=nonsense").status_code == 400
    assert APIClient().get("/api/me/history").status_code in (401, 403)
