"""The boards and statistics endpoints: shapes, own line, pagination, bad params, query counts."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leaderboard.models import PlayerStats
from tests.leaderboard.helpers import T0, daily, finish, numbered, other
from tripeaks.play.dealday import deal_day

pytestmark = pytest.mark.django_db

DAY = date(2026, 3, 1)


def signed_in(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def board(make_user: Any) -> list[Any]:
    deal = daily(DAY)
    users = [make_user(f"p{i}", display_name=f"Player {i}" if i % 2 else "") for i in range(6)]
    for i, user in enumerate(users):
        finish(user, deal, time_ms=10_000 * (i + 1), moves=40 + i, score=1000 - i, at=T0)
    return users


def test_daily_board_is_public_with_ranked_lines(api_client: APIClient, board: Any) -> None:
    response = api_client.get("/api/leaderboards/daily", {"date": "2026-03-01"})
    assert response.status_code == 200
    body = response.json()
    assert body["board"] == {
        "kind": "daily",
        "date": "2026-03-01",
        "rules": "wrap-closed",
        "ranking": "first",
    }
    assert body["total"] == 6 and body["me"] is None and body["next_cursor"] is None
    first = body["lines"][0]
    assert first["rank"] == 1
    assert first["player"] == {"username": "p0", "display_name": "p0"}
    assert body["lines"][1]["player"] == {"username": "p1", "display_name": "Player 1"}
    assert (
        first["won"],
        first["time_ms"],
        first["moves"],
        first["score"],
        first["cards_left"],
    ) == (True, 10_000, 40, 1000, 0)


def test_daily_board_defaults_to_today_and_classic_rules(
    api_client: APIClient, make_user: Any
) -> None:
    today = deal_day()
    finish(make_user("today"), daily(today), at=timezone.now())
    body = api_client.get("/api/leaderboards/daily").json()
    assert body["board"]["date"] == today.isoformat() and body["board"]["rules"] == "wrap-closed"
    assert [line["player"]["username"] for line in body["lines"]] == ["today"]


def test_signed_in_player_gets_their_line_outside_the_page(board: Any) -> None:
    body = (
        signed_in(board[5])
        .get("/api/leaderboards/daily", {"date": "2026-03-01", "limit": 2})
        .json()
    )
    assert [line["rank"] for line in body["lines"]] == [1, 2]
    assert body["me"]["rank"] == 6 and body["me"]["player"]["username"] == "p5"
    assert body["next_cursor"]
    second = (
        signed_in(board[5])
        .get(
            "/api/leaderboards/daily",
            {"date": "2026-03-01", "limit": 2, "cursor": body["next_cursor"]},
        )
        .json()
    )
    assert [line["rank"] for line in second["lines"]] == [3, 4]
    assert [line["player"]["username"] for line in second["lines"]] == ["p2", "p3"]


def test_a_board_nobody_played_is_empty(api_client: APIClient) -> None:
    body = api_client.get("/api/leaderboards/daily", {"date": "2020-01-01"}).json()
    assert body["lines"] == [] and body["total"] == 0


def test_numbered_board(api_client: APIClient, make_user: Any) -> None:
    deal = numbered(12)
    finish(make_user("two"), deal, won=False, cards_left=2, at=T0)
    finish(make_user("won"), deal, at=T0)
    body = api_client.get("/api/leaderboards/numbered/12", {"layout": "classic"}).json()
    assert body["board"]["number"] == 12
    assert [(line["player"]["username"], line["cards_left"]) for line in body["lines"]] == [
        ("won", 0),
        ("two", 2),
    ]
    other_rules = api_client.get("/api/leaderboards/numbered/12", {"rules": "nowrap-open"})
    assert other_rules.json()["lines"] == []


@pytest.mark.parametrize(
    ("url", "params", "field"),
    [
        ("/api/leaderboards/daily", {"date": "2026-13-01"}, "date"),
        ("/api/leaderboards/daily", {"date": "yesterday"}, "date"),
        ("/api/leaderboards/daily", {"rules": "wrap-sideways"}, "rules"),
        ("/api/leaderboards/daily", {"limit": "0"}, "limit"),
        ("/api/leaderboards/daily", {"limit": "1000"}, "limit"),
        ("/api/leaderboards/daily", {"limit": "-1"}, "limit"),
        ("/api/leaderboards/daily", {"limit": "x"}, "limit"),
        ("/api/leaderboards/daily", {"cursor": "not-a-cursor"}, "cursor"),
        ("/api/leaderboards/daily", {"cursor": "eyJiIjoxfQ"}, "cursor"),
        ("/api/leaderboards/numbered/0", {}, "number"),
        ("/api/leaderboards/numbered/abc", {}, "number"),
        ("/api/leaderboards/numbered/99999999", {}, "number"),
        ("/api/leaderboards/numbered/3", {"layout": "nope"}, "layout"),
        ("/api/leaderboards/alltime/fastest", {}, "board"),
        ("/api/leaderboards/alltime/daily-wins", {"rules": "x"}, "rules"),
        ("/api/leaderboards/alltime/win-rate", {"cursor": "eyJiIjoiYSJ9"}, "cursor"),
    ],
)
def test_bad_parameters_are_clear_400s(
    api_client: APIClient, board: Any, url: str, params: dict[str, str], field: str
) -> None:
    response = api_client.get(url, params)
    assert response.status_code == 400, response.content
    body = response.json()
    assert field in body["errors"] and body["detail"].startswith(field)


def test_a_cursor_from_another_board_is_refused(api_client: APIClient, board: Any) -> None:
    cursor = api_client.get("/api/leaderboards/daily", {"date": "2026-03-01", "limit": 1}).json()[
        "next_cursor"
    ]
    response = api_client.get("/api/leaderboards/alltime/daily-wins", {"cursor": cursor})
    assert response.status_code == 400


def test_alltime_boards(make_user: Any, api_client: APIClient) -> None:
    steady, lucky, newbie = make_user("steady"), make_user("lucky"), make_user("newbie")
    for i in range(3):
        finish(steady, daily(DAY + timedelta(days=i)), at=T0 + timedelta(days=i))
    finish(lucky, daily(DAY), at=T0)
    finish(lucky, daily(DAY + timedelta(days=2)), at=T0 + timedelta(days=2))
    for i in range(20):
        finish(newbie, other(), won=i % 4 != 0, at=T0 + timedelta(minutes=i))
    for i in range(25):
        finish(lucky, other(), won=i % 5 != 0, at=T0 + timedelta(minutes=i))

    wins = api_client.get("/api/leaderboards/alltime/daily-wins").json()
    assert [(line["player"]["username"], line["value"]) for line in wins["lines"]] == [
        ("steady", 3),
        ("lucky", 2),
    ]
    streak = api_client.get("/api/leaderboards/alltime/daily-streak").json()
    assert [(line["player"]["username"], line["value"]) for line in streak["lines"]] == [
        ("steady", 3),
        ("lucky", 1),
    ]
    rate = api_client.get("/api/leaderboards/alltime/win-rate").json()
    # steady played 3 games: below the 20-game minimum.
    assert [line["player"]["username"] for line in rate["lines"]] == ["lucky", "newbie"]
    assert rate["lines"][0]["value"] == pytest.approx(22 / 27)

    me = signed_in(newbie).get("/api/leaderboards/alltime/win-rate", {"limit": 1}).json()
    assert me["me"]["rank"] == 2 and me["me"]["player"]["username"] == "newbie"
    page2 = api_client.get(
        "/api/leaderboards/alltime/win-rate", {"limit": 1, "cursor": me["next_cursor"]}
    ).json()
    assert [(line["rank"], line["player"]["username"]) for line in page2["lines"]] == [
        (2, "newbie")
    ]


def test_player_stats_per_rule_set_overall_and_recent_results(
    make_user: Any, api_client: APIClient
) -> None:
    player = make_user("statto")
    finish(player, daily(DAY), time_ms=50_000, at=T0)
    finish(player, other(rules_key="nowrap-open"), won=False, at=T0 + timedelta(1))
    for i in range(22):
        finish(player, other("custom"), at=T0 + timedelta(days=2, minutes=i))

    body = api_client.get("/api/players/STATTO/stats").json()
    assert body["player"]["username"] == "statto"
    assert (body["overall"]["played"], body["overall"]["won"], body["overall"]["lost"]) == (2, 1, 1)
    assert set(body["rules"]) == {"wrap-closed", "nowrap-open"}
    assert body["rules"]["wrap-closed"]["best_win_ms"] == 50_000
    assert len(body["recent"]) == 20 and body["recent"][0]["ranked"] is False

    mine = signed_in(player).get("/api/me/stats").json()
    assert mine["overall"] == body["overall"]


def test_stats_of_nobody_is_404_and_me_needs_sign_in(api_client: APIClient) -> None:
    assert api_client.get("/api/players/ghost/stats").status_code == 404
    assert api_client.get("/api/me/stats").status_code == 401


def test_board_and_stats_endpoints_make_a_fixed_number_of_queries(
    make_user: Any, django_assert_num_queries: Any
) -> None:
    deal = daily(DAY)
    users = [make_user(f"q{i}") for i in range(30)]
    for i, user in enumerate(users):
        finish(user, deal, time_ms=1000 + i, at=T0)
        finish(user, other(), at=T0 + timedelta(minutes=1))
    viewer = signed_in(users[-1])
    best = {"date": "2026-03-01", "board": "best"}
    # Cold: record, page (lines + players), own line, own rank counted, and the rank cache is
    # rebuilt (a Celery task, eager in tests): one query for the board's lines. A past day's
    # board adds one: its lines' games (tripeaks/review opens their replays).
    with django_assert_num_queries(6):
        viewer.get("/api/leaderboards/daily", best | {"limit": 3})
    # Warm: the own rank comes from Redis; the same for 3 or 30 lines.
    for limit in (3, 25):
        with django_assert_num_queries(4):
            assert viewer.get("/api/leaderboards/daily", best | {"limit": limit}).status_code == 200
    # The first-try board (the default) counts its lines (its record row counts the best board's).
    first = {"date": "2026-03-01"}
    with django_assert_num_queries(7):  # cold: record, page, own line, rank, rebuild, total, games
        viewer.get("/api/leaderboards/daily", first | {"limit": 3})
    for limit in (3, 25):
        with django_assert_num_queries(5):
            assert (
                viewer.get("/api/leaderboards/daily", first | {"limit": limit}).status_code == 200
            )
    with django_assert_num_queries(3):  # user, stats rows, recent results
        assert APIClient().get("/api/players/q3/stats").status_code == 200
    with django_assert_num_queries(2):  # page, total
        assert APIClient().get("/api/leaderboards/alltime/daily-wins").status_code == 200
    with django_assert_num_queries(4):  # page, total, own row, own rank
        response = viewer.get("/api/leaderboards/alltime/daily-wins", {"limit": 5})
        assert response.json()["me"]["rank"] == 30
    assert PlayerStats.objects.filter(rules_key="all").count() == 30
