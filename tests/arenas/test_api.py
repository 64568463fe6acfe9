"""Joining, leaving and playing an arena over REST, and what each refuses."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.arenas.helpers import join, lose, running_arena, start
from tests.play.helpers import client_for, move
from tripeaks.arenas import services
from tripeaks.arenas.models import Arena, Entry
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db


def later_arena() -> Arena:
    now = timezone.now()
    return services.create_arena(
        name="Later",
        rules_key="nowrap-open",
        starts_at=now + timedelta(hours=1),
        ends_at=now + timedelta(hours=2),
    )


def test_joining_twice_is_joining_once(make_player: Any) -> None:
    arena = running_arena()
    api = client_for(make_player())
    first, second = join(api, arena), join(api, arena)
    assert first.status_code == second.status_code == 200
    assert Entry.objects.filter(arena=arena).count() == 1
    assert second.json()["me"]["points"] == 0 and second.json()["me"]["active"]


def test_the_list_shows_running_upcoming_and_finished_arenas(make_player: Any) -> None:
    running, upcoming = running_arena(), later_arena()
    over = services.create_arena(
        name="Over",
        rules_key="wrap-closed",
        starts_at=timezone.now() - timedelta(hours=2),
        ends_at=timezone.now() - timedelta(hours=1),
    )
    join(client_for(make_player()), running)
    body = APIClient().get("/api/arenas").json()
    assert [a["id"] for a in body["running"]] == [str(running.pk)]
    assert body["running"][0]["players"] == 1 and body["running"][0]["state"] == "running"
    assert [a["id"] for a in body["upcoming"]] == [str(upcoming.pk)]
    assert [a["id"] for a in body["finished"]] == [str(over.pk)]
    assert body["finished"][0]["state"] == "finishing" and not body["finished"][0]["final"]


def test_anyone_may_look_but_only_players_join_and_play(make_player: Any) -> None:
    arena = running_arena()
    anonymous = APIClient()
    assert anonymous.get(f"/api/arenas/{arena.pk}").status_code == 200
    for action in ("join", "leave", "play"):
        assert anonymous.post(f"/api/arenas/{arena.pk}/{action}").status_code in (401, 403)


def test_play_needs_a_joined_player_and_a_running_arena(make_player: Any) -> None:
    api = client_for(make_player())
    arena = running_arena()
    response = api.post(f"/api/arenas/{arena.pk}/play")
    assert response.status_code == 409 and "join" in response.json()["detail"]

    upcoming = later_arena()
    assert join(api, upcoming).status_code == 200  # one may join ahead
    response = api.post(f"/api/arenas/{upcoming.pk}/play")
    assert response.status_code == 409 and "not running" in response.json()["detail"]
    assert not Game.objects.exists()


def test_a_second_click_on_play_gives_the_same_game_and_loses_nothing(make_player: Any) -> None:
    api = client_for(make_player())
    arena = running_arena()
    join(api, arena)
    view = start(api, arena)
    again = api.post(f"/api/arenas/{arena.pk}/play")
    assert again.status_code == 200 and again.json()["game_id"] == view["id"]
    assert Game.objects.count() == 1 and Entry.objects.get().games == 0


def test_starting_an_ordinary_game_gives_up_the_arena_game_as_a_loss(make_player: Any) -> None:
    api = client_for(make_player())
    arena = running_arena()
    join(api, arena)
    view = start(api, arena)
    assert move(api, view, "draw").status_code == 200
    response = api.post("/api/games", {"mode": "random", "rules": {}}, format="json")
    assert response.status_code == 201, response.content
    entry = Entry.objects.get()
    assert (entry.games, entry.points, entry.streak) == (1, 0, 0)


def test_leaving_keeps_the_points_and_stops_new_games(make_player: Any) -> None:
    api = client_for(make_player())
    arena = running_arena()
    join(api, arena)
    lose(api, start(api, arena))
    left = api.post(f"/api/arenas/{arena.pk}/leave")
    assert left.status_code == 200 and not left.json()["me"]["active"]
    assert left.json()["me"]["games"] == 1
    assert api.post(f"/api/arenas/{arena.pk}/play").status_code == 409
    back = join(api, arena)
    assert back.json()["me"]["active"] and back.json()["me"]["games"] == 1
    assert api.post(f"/api/arenas/{arena.pk}/play").status_code == 201


def test_leaving_an_arena_one_never_joined_is_refused(make_player: Any) -> None:
    response = client_for(make_player()).post(f"/api/arenas/{running_arena().pk}/leave")
    assert response.status_code == 409


def test_an_arena_that_is_over_takes_nobody_new(make_player: Any) -> None:
    arena = running_arena()
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now())
    api = client_for(make_player())
    assert join(api, arena).status_code == 409
    assert api.post(f"/api/arenas/{arena.pk}/play").status_code == 409


@pytest.mark.parametrize(
    "path",
    [
        "/api/arenas/not-a-uuid",
        "/api/arenas/00000000-0000-0000-0000-000000000000",
        "/api/arenas/00000000-0000-0000-0000-000000000000/join",
        "/api/arenas/00000000-0000-0000-0000-000000000000/play",
        "/api/arenas/00000000-0000-0000-0000-000000000000/leave",
        "/api/arenas/%00/join",
        "/api/arenas/１２３/play",
    ],
)
def test_no_such_arena_is_a_404(make_player: Any, path: str) -> None:
    api = client_for(make_player())
    response = api.post(path) if path.endswith(("join", "play", "leave")) else api.get(path)
    assert response.status_code == (400 if "%00" in path else 404)  # a NUL: refused at the door
    assert "detail" in response.json()


@pytest.mark.parametrize(
    "body",
    ['{"arena": {"$gt": 1}}', "[[[[[[[[[[]]]]]]]]]]", "not json", '"\\u0000"', "{}" * 10000],
)
def test_hostile_bodies_change_nothing(make_player: Any, body: str) -> None:
    api = client_for(make_player())
    arena = running_arena()
    response = api.post(f"/api/arenas/{arena.pk}/join", body, content_type="application/json")
    assert response.status_code in (200, 400, 413), response.content
    assert Entry.objects.filter(arena=arena).count() <= 1


def test_the_pages_lead_to_the_app(make_player: Any) -> None:
    arena = running_arena()
    assert APIClient().get("/arenas/")["Location"] == "/#/arenas"
    assert APIClient().get(f"/arenas/{arena.pk}/")["Location"] == f"/#/arenas/{arena.pk}"
