"""GET /api/me/games: the signed-in player's (or guest's) latest finished games, newest first,
with their review's state; nobody else's, no unfinished game."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.review.helpers import client_for, deal, played
from tripeaks.play.dealday import deal_day
from tripeaks.review.models import StoredAnalysis

pytestmark = pytest.mark.django_db


def test_the_list_holds_my_finished_games_newest_first(alice: Any, bob: Any) -> None:
    first = played(alice, deal("custom"))
    second = played(alice, deal("numbered", number=3))
    played(bob, deal("random"))
    current = played(alice, deal("random"), finish=False)
    StoredAnalysis.objects.create(game=first, payload={"losing_move": 2}, nodes=10, losing_move=2)
    games = client_for(alice).get("/api/me/games").json()["games"]
    assert [g["id"] for g in games] == [str(second.pk), str(first.pk)]
    assert str(current.pk) not in {g["id"] for g in games}
    newest, oldest = games
    assert newest["deal"]["label"] == "Deal #3" and newest["layout"] == "classic"
    assert newest["status"] == "lost" and newest["moves"] == second.moves
    assert newest["review"] == {"state": "none", "losing_move": False}
    assert oldest["review"] == {"state": "ready", "losing_move": True}
    assert set(newest) == {
        "id",
        "deal",
        "layout",
        "status",
        "score",
        "moves",
        "elapsed_ms",
        "finished_at",
        "review",
    }


def test_the_limit_is_kept_and_bad_limits_are_clear_400s(alice: Any) -> None:
    for _ in range(3):
        played(alice, deal("custom"))
    client = client_for(alice)
    assert len(client.get("/api/me/games?limit=2").json()["games"]) == 2
    for bad in ("0", "51", "-1", "abc", "٣", "2.5", "", "9" * 30):
        response = client.get("/api/me/games", {"limit": bad})
        assert response.status_code == 400 and response.json()["code"] == "bad_limit", bad


def test_a_guest_has_a_list_and_signed_out_has_none(make_user: Any) -> None:
    guest = make_user("guest.00ff00ff", is_guest=True)
    game = played(guest, deal("random"))
    assert client_for(guest).get("/api/me/games").json()["games"][0]["id"] == str(game.pk)
    assert client_for(None).get("/api/me/games").status_code in (401, 403)


def test_the_list_reads_a_fixed_number_of_queries(
    alice: Any, django_assert_max_num_queries: Any
) -> None:
    for _ in range(5):
        played(alice, deal("custom"))
    with django_assert_max_num_queries(6):
        assert len(client_for(alice).get("/api/me/games").json()["games"]) == 5


def test_a_stored_analysis_the_route_still_holds_is_later_not_ready(alice: Any) -> None:
    """Today's daily: its analysis is stored at the finish but opens when the day ends, and the
    list says so (before: "ready", and the statistics said "Losing move found" for an analysis
    the review then refused with analysis_later)."""
    today = played(alice, deal("daily"))
    yesterday = played(alice, deal("daily", day=deal_day() - timedelta(days=1)))
    for game in (today, yesterday):
        StoredAnalysis.objects.create(game=game, payload={}, nodes=10, losing_move=4)
    games = {g["id"]: g for g in client_for(alice).get("/api/me/games").json()["games"]}
    assert games[str(today.pk)]["review"] == {"state": "later", "losing_move": False}
    assert games[str(yesterday.pk)]["review"] == {"state": "ready", "losing_move": True}
    held = client_for(alice).get(f"/api/games/{today.pk}/analysis")
    assert held.status_code == 404 and held.json()["code"] == "analysis_later"
