from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.play.helpers import move, start_custom, winnable_code
from tripeaks.play.models import Deal, Game, Source

pytestmark = pytest.mark.django_db


def test_a_random_deal_is_proven_winnable_before_the_player_gets_it(api: APIClient) -> None:
    response = api.post("/api/games", {"mode": "random"}, format="json")
    assert response.status_code == 201
    game = response.json()
    deal = Game.objects.get(pk=game["id"]).deal
    assert deal.source == Source.RANDOM and deal.winnable is True and deal.claimed is True
    assert game["mode"] == "random" and "deal" not in game  # verdict and par only after the end


def test_the_daily_deal_is_the_same_for_everybody(api: APIClient, make_player: Any) -> None:
    from tests.play.helpers import client_for

    first = api.post("/api/games", {"mode": "daily"}, format="json").json()
    second = (
        client_for(make_player("bob")).post("/api/games", {"mode": "daily"}, format="json").json()
    )
    assert first["id"] != second["id"]
    assert Game.objects.get(pk=first["id"]).deal_id == Game.objects.get(pk=second["id"]).deal_id
    assert first["positions"] == second["positions"] and first["waste"] == second["waste"]


def test_each_rule_set_has_its_own_daily_deal(api: APIClient) -> None:
    api.post("/api/games", {"mode": "daily"}, format="json")
    api.post("/api/games", {"mode": "daily", "rules": {"wrap": False, "open": True}}, format="json")
    assert sorted(Deal.objects.filter(source="daily").values_list("rules_key", flat=True)) == [
        "nowrap-open",
        "wrap-closed",
    ]


@pytest.mark.parametrize(
    "moment, day",
    [
        (datetime(2026, 11, 29, 18, 14, 59, tzinfo=UTC), "2026-11-29"),
        (datetime(2026, 11, 29, 18, 15, 0, tzinfo=UTC), "2026-11-30"),
    ],
)
def test_the_daily_deal_turns_at_midnight_in_kathmandu(
    api: APIClient, monkeypatch: pytest.MonkeyPatch, moment: datetime, day: str
) -> None:
    monkeypatch.setattr(timezone, "now", lambda: moment)
    game = api.post("/api/games", {"mode": "daily"}, format="json").json()
    assert game["day"] == day


def test_a_numbered_deal_is_the_same_every_time(api: APIClient) -> None:
    first = api.post("/api/games", {"mode": "numbered", "number": 4242}, format="json").json()
    second = api.post("/api/games", {"mode": "numbered", "number": 4242}, format="json").json()
    assert first["number"] == 4242 and first["positions"] == second["positions"]
    assert Deal.objects.filter(source="numbered").count() == 1


def test_a_numbered_deal_verdict_is_solved_and_shown_only_at_the_end(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = api.post("/api/games", {"mode": "numbered", "number": 7}, format="json").json()
    deal = Game.objects.get(pk=game["id"]).deal
    deal.refresh_from_db()
    assert deal.winnable is not None  # eager Celery in tests solved it on commit
    assert "deal" not in game
    finished = move(api, game, "resign").json()
    assert finished["deal"]["winnable"] == deal.winnable


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"mode": "weekly"},
        {"mode": "numbered"},
        {"mode": "numbered", "number": 0},
        {"mode": "numbered", "number": 50_001},
        {"mode": "numbered", "number": "12"},
        {"mode": "custom"},
        {"mode": "custom", "deal": "AC AD"},
        {"mode": "custom", "deal": " ".join(["AC"] * 52)},
        {"mode": "custom", "deal": "X" * 5000},
        {"mode": "random", "layout": "no-such-layout"},
        {"mode": "random", "rules": {"wrap": "yes"}},
        {"mode": "daily", "layout": "x" * 41},
    ],
)
def test_bad_start_requests_are_clear_400s_and_create_nothing(
    api: APIClient, body: dict[str, Any]
) -> None:
    response = api.post("/api/games", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()
    assert not Game.objects.exists()


def test_starting_another_game_resigns_the_unfinished_one_as_a_loss(api: APIClient) -> None:
    code, line = winnable_code()
    old = start_custom(api, code)
    old = move(api, old, **line[0]).json()
    start_custom(api, code)
    stored = Game.objects.get(pk=old["id"])
    assert stored.status == "lost" and stored.finished_at is not None
    assert Game.objects.filter(finished_at__isnull=True).count() == 1
