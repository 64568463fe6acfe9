"""GET /api/ratings (the board, public) and /api/ratings/me (signed in), and hostile input."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tripeaks.ratings.models import Rating
from tripeaks.ratings.services import rate_race

pytestmark = pytest.mark.django_db

RULES = "wrap-closed"


def rated(user: Any, rating: float, races: int, rules_key: str = RULES) -> None:
    Rating.objects.create(user=user, rules_key=rules_key, rating=rating, rd=70, races=races)


def test_the_board_is_public_and_counts_the_provisional(make_user: Any, api_client: Any) -> None:
    rated(make_user("ace", display_name="Ace"), 1800.4, 14)
    rated(make_user("newbie"), 1900, 3)
    body = api_client.get("/api/ratings?rules=wrap-closed").json()
    assert body == {
        "rules": RULES,
        "provisional_races": 10,
        "provisional": 1,
        "lines": [
            {
                "rank": 1,
                "player": {"username": "ace", "display_name": "Ace"},
                "rating": 1800,
                "rd": 70,
                "races": 14,
            }
        ],
        "me": None,
    }


def test_the_board_shows_the_signed_in_players_own_standing(
    user: Any, token_client: Any, make_user: Any
) -> None:
    rated(make_user(), 1700, 20)
    rated(user, 1650, 11)
    body = token_client.get("/api/ratings?rules=WRAP-CLOSED").json()
    assert body["rules"] == RULES
    assert body["me"] == {
        "rules": RULES,
        "rating": 1650,
        "rd": 70,
        "races": 11,
        "provisional": False,
        "rank": 2,
    }


def test_a_guest_with_an_established_rating_has_no_rank(make_user: Any) -> None:
    guest = make_user(is_guest=True)
    rated(guest, 1650, 11)
    client = Client()
    client.force_login(guest)
    assert client.get("/api/ratings").json()["me"]["rank"] is None


def test_my_ratings_need_a_signed_in_player(api_client: Any) -> None:
    response = api_client.get("/api/ratings/me")
    assert response.status_code == 401
    assert "detail" in response.json()


def test_my_ratings_per_rule_set_with_the_latest_races(
    user: Any, token_client: Any, make_user: Any
) -> None:
    rival = make_user()
    first = rate_race(rules_key=RULES, placings=[(user.pk, 1), (rival.pk, 2)], race="race-1")
    second = rate_race(rules_key=RULES, placings=[(user.pk, 2), (rival.pk, 1)], race="race-2")
    rate_race(rules_key="nowrap-open", placings=[(user.pk, 1), (rival.pk, 1)], race="race-3")
    body = token_client.get("/api/ratings/me").json()
    assert body["provisional_races"] == 10
    assert [r["rules"] for r in body["ratings"]] == ["nowrap-open", RULES]
    mine = body["ratings"][1]
    assert mine["rating"] == round(second[user.pk].after) and mine["races"] == 2
    assert mine["provisional"] is True and mine["rank"] is None
    assert [(h["race"], h["place"], h["change"]) for h in mine["history"]] == [
        ("race-2", 2, second[user.pk].change),
        ("race-1", 1, first[user.pk].change),
    ]
    assert mine["history"][0]["before"] == mine["history"][1]["after"]


def test_no_ratings_yet_is_an_empty_list(token_client: Any) -> None:
    assert token_client.get("/api/ratings/me").json()["ratings"] == []


@pytest.mark.parametrize(
    "query",
    [
        "rules=wrap-sideways",
        "rules=" + "x" * 5000,
        "rules=wrap%00closed",
        "rules=ｗｒａｐ-closed",
        "limit=0",
        "limit=-1",
        "limit=100000000000000000000000000",
        "limit=201",
        "limit=%D9%A3",  # Arabic-Indic three: int() would take it
        "limit=%EF%BC%93",  # fullwidth three
        "limit=1e2",
        "limit=3.0",
        "limit= 3",
        "limit=abc",
    ],
)
def test_hostile_board_queries_are_400s(api_client: Any, query: str) -> None:
    response = api_client.get(f"/api/ratings?{query}")
    assert response.status_code == 400, response.content
    assert response.json()["detail"]


def test_an_empty_rules_parameter_is_the_default_rule_set(api_client: Any) -> None:
    # As DRF reads an empty query parameter of an optional field (and as the leaderboards do).
    assert api_client.get("/api/ratings?rules=").json()["rules"] == RULES


def test_the_limit_caps_the_lines(make_user: Any, api_client: Any) -> None:
    for i in range(3):
        rated(make_user(), 1500 + i, 10)
    assert len(api_client.get("/api/ratings?limit=2").json()["lines"]) == 2
    assert len(api_client.get("/api/ratings?limit=200").json()["lines"]) == 3


def test_only_get(token_client: Any) -> None:
    assert token_client.post("/api/ratings", {}, format="json").status_code == 405
    assert token_client.delete("/api/ratings/me").status_code == 405


def test_the_schema_documents_both_endpoints(api_client: Any) -> None:
    schema = api_client.get("/api/schema", HTTP_ACCEPT="application/json").content.decode()
    assert "/api/ratings" in schema and "/api/ratings/me" in schema


def test_the_ratings_page(client: Any) -> None:
    response = client.get("/ratings/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "data-ratings-page" in page and "pages/ratings.js" in page
    german = client.get("/ratings/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<h1 class="page-title">Wertungen</h1>' in german
    assert client.post("/ratings/").status_code == 405


def test_staff_see_ratings_in_the_admin_but_cannot_edit_them(admin_client: Any, user: Any) -> None:
    rated(user, 1600, 12)
    listing = admin_client.get("/admin/ratings/rating/")
    assert listing.status_code == 200 and user.username in listing.content.decode()
    assert admin_client.get("/admin/ratings/rating/add/").status_code == 403
    row = Rating.objects.get(user=user)
    admin_client.post(f"/admin/ratings/rating/{row.pk}/change/", {"rating": 3000})
    row.refresh_from_db()
    assert row.rating == 1600
    assert admin_client.get("/admin/ratings/ratingevent/").status_code == 200
