"""Deal codes, usernames, numbers, dates and query parameters at and past every limit: a clear
answer (the value at the limit works, the one past it is a 400 naming the problem), never a 500."""

from __future__ import annotations

from typing import Any

import pytest

from tests.play.helpers import client_for, start_custom, winnable_code

pytestmark = pytest.mark.django_db


def readable(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    if status >= 400:
        assert isinstance(body["detail"], str) and body["detail"].strip()
    return body


@pytest.fixture
def api(user: Any) -> Any:
    return client_for(user)


CODE_CASES = [
    ("", 400),
    ("x", 400),
    ("7H " * 52, 400),  # one card 52 times
    ("x" * 400, 400),  # at the length limit: read, refused for what it says
    ("x" * 401, 400),  # past it
    ("7h 8c", 400),
    ("\u0000" * 10, 400),
    ("🂡" * 52, 400),
    ("ZZ " * 52, 400),
]


@pytest.mark.parametrize(("code", "status"), CODE_CASES)
def test_deal_codes_at_and_past_every_limit(api: Any, code: str, status: int) -> None:
    readable(api.post("/api/games", {"mode": "custom", "deal": code}, format="json"), status)


def test_a_real_deal_code_in_lower_case_and_spacing_variants(api: Any) -> None:
    code, _ = winnable_code()
    start_custom(api, code)
    start_custom(api, "  " + code.lower() + "  ")


@pytest.mark.parametrize(
    ("number", "status"),
    [
        (1, 201),
        (50_000, 201),
        (0, 400),
        (-1, 400),
        (50_001, 400),
        (2**63, 400),
        (2**64, 400),
        (1e3, 400),
        ("7", 400),
        (True, 400),
        (None, 400),
        ([1], 400),
    ],
)
def test_numbered_deal_numbers_at_and_past_the_limits(api: Any, number: Any, status: int) -> None:
    body = {"mode": "numbered", "number": number}
    readable(api.post("/api/games", body, format="json"), status)


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"seq": -1, "action": "draw"}, 400),
        ({"seq": 2**63, "action": "draw"}, 409),  # a number, just not the game's: resync
        ({"seq": 2**200, "action": "draw"}, 409),
        ({"seq": 0, "action": "play", "position": -1}, 400),
        ({"seq": 0, "action": "play", "position": 52}, 400),
        ({"seq": 0, "action": "play", "position": 2**31}, 400),
        ({"seq": 0, "action": "play", "position": "3"}, 400),
        ({"seq": 0, "action": "x" * 500}, 400),
        ({"seq": 0, "action": "x" * 10_000}, 413),  # over the move's body limit
        ({"seq": 0.0, "action": "draw"}, 400),
        ({"seq": 0, "action": None}, 400),
        ({}, 400),
    ],
)
def test_move_fields_past_their_limits(api: Any, body: dict[str, Any], status: int) -> None:
    code, _ = winnable_code()
    game = start_custom(api, code)
    readable(api.post(f"/api/games/{game['id']}/moves", body, format="json"), status)
    assert api.get(f"/api/games/{game['id']}").json()["seq"] == 0


def test_a_play_past_the_layout_but_inside_the_field_range_is_refused_by_the_rules(
    api: Any,
) -> None:
    code, _ = winnable_code()
    game = start_custom(api, code)
    body = {"seq": 0, "action": "play", "position": 51}
    refused = readable(api.post(f"/api/games/{game['id']}/moves", body, format="json"), 400)
    assert "position" in refused["detail"]


@pytest.mark.parametrize(
    ("username", "status"),
    [
        ("abc", 201),
        ("a" * 30, 201),
        ("a" * 31, 400),
        ("ab", 400),
        ("", 400),
        ("a b", 400),
        ("ädam", 400),
        ("x" * 5_000, 400),
        ("x" * 10_000, 413),  # over the API's body limit
        ("admin\u0000", 400),
    ],
)
def test_usernames_at_and_past_the_limits(api_client: Any, username: str, status: int) -> None:
    body = {"username": username, "password": "a long enough password 1"}
    readable(api_client.post("/api/auth/signup", body, format="json"), status)


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("limit=1", 200),
        ("limit=200", 200),
        ("limit=0", 400),
        ("limit=201", 400),
        ("limit=-1", 400),
        ("limit=99999999999999999999999", 400),
        ("limit=1e3", 400),
        ("date=2026-02-28", 200),
        ("date=2026-02-30", 400),
        ("date=0001-01-01", 200),
        ("date=9999-12-31", 200),
        ("date=10000-01-01", 400),
        ("date=yesterday", 400),
        ("cursor=" + "A" * 400, 400),
        ("cursor=" + "A" * 401, 400),
        ("cursor=%00", 400),
        ("rules=wrap-closed", 200),
        ("rules=" + "x" * 5000, 400),
    ],
)
def test_daily_board_query_parameters_at_and_past_the_limits(
    api: Any, query: str, status: int
) -> None:
    readable(api.get(f"/api/leaderboards/daily?{query}"), status)


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/leaderboards/numbered/1", 200),
        ("/api/leaderboards/numbered/50000", 200),
        ("/api/leaderboards/numbered/0", 400),
        ("/api/leaderboards/numbered/50001", 400),
        ("/api/leaderboards/numbered/" + "9" * 400, 400),
        ("/api/leaderboards/alltime/daily-wins", 200),
        ("/api/leaderboards/alltime/nope", 400),
        ("/api/players/" + "a" * 5000 + "/stats", 404),
        ("/api/games/not-a-uuid", 404),
    ],
)
def test_path_parameters_at_and_past_the_limits(api: Any, path: str, status: int) -> None:
    readable(api.get(path), status)
