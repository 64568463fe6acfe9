"""The data export holds what a player did in contests: their ratings and rating history, every
race they sat in (their seat, never another player's name) and every arena entry with its games,
on the first page, in a fixed number of queries however much they played."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leaderboard import export
from tests.arenas.helpers import join as join_arena
from tests.arenas.helpers import lose, running_arena
from tests.arenas.helpers import start as start_arena_game
from tests.play.contests import begun_race, game_of
from tests.play.helpers import client_for
from tripeaks.arenas.models import Arena
from tripeaks.play import services
from tripeaks.races.models import Race, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races and arenas deal from the pool (tests/conftest.py)."""


def raced(ann: Any, opponent: Any, settings: Any) -> Race:
    """A finished, rated race of the two: the opponent resigns, and Ann, the one left playing,
    wins at once."""
    race = begun_race(ann, opponent, settings)
    game = game_of(race, opponent)
    services.apply_move(game_id=game.pk, user=opponent, seq=game.seq, action="resign")
    race.refresh_from_db()
    assert race.state == "finished"
    return race


def test_the_export_holds_ratings_races_and_arenas(make_user: Any, settings: Any) -> None:
    ann, opponent = make_user("ann"), make_user("zz-the-opponent")
    race = raced(ann, opponent, settings)
    seat = Seat.objects.get(race=race, user=ann)
    arena = running_arena(name="Evening arena")
    api = client_for(ann)
    assert join_arena(api, arena).status_code == 200
    lost = lose(api, start_arena_game(api, arena))

    response = api.get("/api/me/export")
    assert response.status_code == 200
    body = response.json()

    [rating] = body["ratings"]
    assert rating["rules"] == race.rules_key and rating["races"] == 1 and rating["provisional"]
    [event] = body["rating_history"]
    assert event["race"] == race.group and event["players"] == 2
    assert (event["place"], event["rating_after"]) == (seat.place, rating["rating"])
    [raced_in] = body["races"]
    assert raced_in["id"] == str(race.pk) and raced_in["state"] == "finished"
    assert raced_in["players"] == 2 and raced_in["ends_at"] == race.ends_at.isoformat()
    assert raced_in["seat"]["game"] == str(seat.game_id)
    assert raced_in["seat"]["status"] == "finished" and raced_in["seat"]["place"] == seat.place == 1
    assert raced_in["seat"]["rating_after"] == rating["rating"]
    [entry] = body["arenas"]
    assert entry["id"] == str(arena.pk) and entry["name"] == "Evening arena"
    assert (entry["games"], entry["wins"], entry["points"]) == (1, 0, 0)
    assert entry["finished_games"] == [
        {
            "game": lost["id"],
            "won": False,
            "points": 0,
            "counted": True,
            "finished_at": entry["finished_games"][0]["finished_at"],
        }
    ]
    # Their games are in the export too, the race's and the arena's.
    assert {str(seat.game_id), lost["id"]} <= {game["id"] for game in body["games"]}
    # Nothing of the other player: not their name, not their race code.
    text = json.dumps(body)
    assert "zz-the-opponent" not in text and race.code not in text


def test_contest_sections_come_on_the_first_page_only(
    make_user: Any, settings: Any, monkeypatch: Any
) -> None:
    ann = make_user("ann")
    raced(ann, make_user("bob"), settings)
    api = client_for(ann)
    join_arena(api, running_arena())
    lose(api, start_arena_game(api, Arena.objects.get()))
    monkeypatch.setattr(export, "EXPORT_GAMES_PER_PAGE", 1)

    first = api.get("/api/me/export").json()
    second = api.get("/api/me/export", data={"cursor": first["next"]}).json()

    assert len(first["games"]) == len(second["games"]) == 1 and second["next"] is None
    assert {"ratings", "rating_history", "races", "arenas"} <= set(first)
    assert not {"account", "ratings", "rating_history", "races", "arenas"} & set(second)


def played_contests(ann: Any, bob: Any, settings: Any) -> None:
    """One more race of the two, and one more arena with a game of Ann's."""
    raced(ann, bob, settings)
    api = client_for(ann)
    arena = running_arena()
    join_arena(api, arena)
    lose(api, start_arena_game(api, arena))


def test_more_contests_cost_no_more_queries(make_user: Any, settings: Any) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    played_contests(ann, bob, settings)
    with CaptureQueriesContext(connection) as once:
        export.export_page(user=ann)
    played_contests(ann, bob, settings)
    with CaptureQueriesContext(connection) as twice:
        document = export.export_page(user=ann)

    assert len(document["races"]) == len(document["arenas"]) == 2
    assert len(document["rating_history"]) == 2
    assert len(twice.captured_queries) == len(once.captured_queries)
