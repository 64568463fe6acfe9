"""Arena test helpers: an arena running now, a player's arena game won (the solver's line) or
lost (resigned) through the ordinary game API."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from rest_framework.test import APIClient

from tests.play.helpers import move, solution
from tripeaks.arenas import services
from tripeaks.arenas.models import Arena
from tripeaks.play.models import Game


def running_arena(minutes: int = 30, rules: str = "wrap-closed", **fields: Any) -> Arena:
    now = timezone.now()
    return services.create_arena(
        name=fields.pop("name", "Test arena"),
        rules_key=rules,
        starts_at=now - timedelta(seconds=1),
        ends_at=now + timedelta(minutes=minutes),
        **fields,
    )


def join(api: APIClient, arena: Arena) -> Any:
    return api.post(f"/api/arenas/{arena.pk}/join")


def start(api: APIClient, arena: Arena) -> dict[str, Any]:
    response = api.post(f"/api/arenas/{arena.pk}/play")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["game"]["id"] == body["game_id"]
    return dict(body["game"])


def play_line(api: APIClient, view: dict[str, Any], line: list[dict[str, Any]]) -> dict[str, Any]:
    for step in line:
        response = move(api, view, step["action"], step.get("position"))
        assert response.status_code == 200, response.content
        view = response.json()
    return view


def win(api: APIClient, view: dict[str, Any]) -> dict[str, Any]:
    line = solution(Game.objects.select_related("deal").get(pk=view["id"]).deal)
    view = play_line(api, view, line)
    assert view["status"] == "won", view["status"]
    return view


def lose(api: APIClient, view: dict[str, Any]) -> dict[str, Any]:
    response = move(api, view, "resign")
    assert response.status_code == 200, response.content
    return dict(response.json())


def win_game(api: APIClient, arena: Arena) -> dict[str, Any]:
    return win(api, start(api, arena))


def lose_game(api: APIClient, arena: Arena) -> dict[str, Any]:
    return lose(api, start(api, arena))
