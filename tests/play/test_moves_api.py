from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.play.helpers import client_for, move, start_custom, winnable_code
from tripeaks.play.models import Game, Move

pytestmark = pytest.mark.django_db


def test_a_solver_line_played_over_the_api_wins_and_stops_the_clock(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    code, line = winnable_code()
    with django_capture_on_commit_callbacks(
        execute=True
    ):  # Celery (eager here) solves the deal on commit
        game = start_custom(api, code)
    # The clock runs from the start: the deal is shown (docs/fair-play.md, "One clock").
    assert game["status"] == "playing" and game["seq"] == 0 and game["clock_running"] is True
    for step in line:
        response = move(api, game, **step)
        assert response.status_code == 200, response.json()
        game = response.json()
    assert game["status"] == "won"
    assert game["cards_left"] == 0
    assert game["moves"] == len(line)
    assert game["clock_running"] is False and game["finished_at"] is not None
    assert game["deal"]["winnable"] is True and game["deal"]["par"] <= len(line)
    assert Move.objects.filter(game_id=game["id"]).count() == len(line)


def test_the_clock_starts_when_the_deal_is_shown_and_the_game_with_the_first_move(
    api: APIClient,
) -> None:
    code, line = winnable_code()
    game = start_custom(api, code)
    stored = Game.objects.get(pk=game["id"])
    assert stored.started_at is None and stored.running_since == stored.created_at
    assert game["clock_running"] is True
    game = move(api, game, **line[0]).json()
    assert game["clock_running"] is True and game["started_at"] is not None
    first = Move.objects.get(game_id=game["id"], seq=1)
    # The first move's think time is on the clock: from the start to the move.
    assert first.elapsed_ms == int((first.at - stored.created_at).total_seconds() * 1000)


@pytest.mark.parametrize(
    "body, reason",
    [
        ({"action": "play", "position": 0}, "face down"),
        ({"action": "play", "position": 99}, "position"),
        ({"action": "play"}, "position"),
        ({"action": "play", "position": "3"}, "position"),
        ({"action": "play", "position": True}, "position"),
        ({"action": "fly"}, "action"),
        ({"position": 3}, "action"),
    ],
)
def test_illegal_or_malformed_moves_are_refused_and_change_nothing(
    api: APIClient, body: dict[str, Any], reason: str
) -> None:
    code, _ = winnable_code()
    game = start_custom(api, code)
    response = api.post(f"/api/games/{game['id']}/moves", {"seq": 0, **body}, format="json")
    assert response.status_code == 400
    assert reason in str(response.json())
    after = api.get(f"/api/games/{game['id']}").json()
    assert after["seq"] == 0 and after["positions"] == game["positions"]
    assert not Move.objects.filter(game_id=game["id"]).exists()


def test_a_card_that_does_not_fit_is_refused_with_a_reason(api: APIClient) -> None:
    code, _ = winnable_code()
    game = start_custom(api, code)
    unfit = [
        p["position"]
        for p in game["positions"]
        if p["free"] and p["position"] not in game["playable"]
    ]
    assert unfit, "the fixture deal should have a free card that does not fit"
    response = move(api, game, "play", unfit[0])
    assert response.status_code == 400
    assert "does not fit" in response.json()["detail"]


def test_seq_retry_is_idempotent_and_a_wrong_seq_is_a_conflict_with_the_view(
    api: APIClient,
) -> None:
    code, _ = winnable_code()
    game = start_custom(api, code)
    first = move(api, game, "draw")
    assert first.status_code == 200
    again = move(api, game, "draw")  # the same request retried with the old seq
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.json()["seq"] == 1 and again.json()["stock_left"] == first.json()["stock_left"]
    conflict = move(api, game, "undo", seq=5)
    assert conflict.status_code == 409
    assert conflict.json()["game"]["seq"] == 1
    stale = move(api, game, "undo", seq=0)  # an old seq that is not a retry of what was applied
    assert stale.status_code == 409
    assert Move.objects.filter(game_id=game["id"]).count() == 1


def test_undo_goes_back_to_the_deal_and_counts_as_a_move(api: APIClient) -> None:
    code, line = winnable_code()
    game = start = start_custom(api, code)
    for step in line[:3]:
        game = move(api, game, **step).json()
    for _ in range(3):
        game = move(api, game, "undo").json()
    assert game["positions"] == start["positions"] and game["waste"] == start["waste"]
    assert game["moves"] == 6
    assert move(api, game, "undo").status_code == 400


def test_restart_deals_the_same_cards_again(api: APIClient) -> None:
    code, line = winnable_code()
    start = start_custom(api, code)
    game = start
    for step in line[:4]:
        game = move(api, game, **step).json()
    game = move(api, game, "restart").json()
    assert game["positions"] == start["positions"] and game["stock_left"] == start["stock_left"]
    assert game["can_undo"] is False


def test_resign_ends_the_game_as_lost_and_later_moves_are_refused(api: APIClient) -> None:
    code, line = winnable_code()
    game = start_custom(api, code)
    game = move(api, game, **line[0]).json()
    game = move(api, game, "resign").json()
    assert game["status"] == "lost" and game["finished_at"] is not None
    refused = move(api, game, "draw")
    assert refused.status_code == 400 and "over" in refused.json()["detail"]


def test_hint_names_a_winning_move_and_marks_the_game_assisted(api: APIClient) -> None:
    code, _ = winnable_code()
    game = start_custom(api, code)
    response = move(api, game, "hint")
    assert response.status_code == 200
    body = response.json()
    assert body["assisted"] is True and body["hints"] == 1
    assert body["hint"]["winnable"] is True
    hinted = body["hint"]["move"]
    follow = move(api, body, **hinted)
    assert follow.status_code == 200


def test_pause_stops_the_clock_and_hides_the_cards(api: APIClient) -> None:
    code, line = winnable_code()
    game = start_custom(api, code)
    game = move(api, game, **line[0]).json()
    paused = move(api, game, "pause").json()
    assert paused["paused"] is True and paused["clock_running"] is False
    assert all(p["card"] is None for p in paused["positions"]) and paused["waste"] is None
    assert move(api, paused, "draw").status_code == 400
    resumed = move(api, paused, "resume").json()
    assert resumed["clock_running"] is True and resumed["waste"] is not None
    assert resumed["elapsed_ms"] >= paused["elapsed_ms"]


def test_nobody_reads_or_moves_in_another_players_game(api: APIClient, make_player: Any) -> None:
    code, line = winnable_code()
    game = start_custom(api, code)
    mallory = client_for(make_player("mallory"))
    assert mallory.get(f"/api/games/{game['id']}").status_code == 404
    assert move(mallory, game, **line[0]).status_code == 404
    assert Game.objects.get(pk=game["id"]).seq == 0


def test_anonymous_players_cannot_start_or_move() -> None:
    client = APIClient()
    assert client.post("/api/games", {"mode": "random"}, format="json").status_code in (401, 403)


def test_the_unfinished_game_can_be_continued(api: APIClient) -> None:
    code, line = winnable_code()
    game = start_custom(api, code)
    game = move(api, game, **line[0]).json()
    current = api.get("/api/games/current")
    assert (
        current.status_code == 200
        and current.json()["id"] == game["id"]
        and current.json()["seq"] == 1
    )


def test_no_current_game_is_a_404(api: APIClient) -> None:
    assert api.get("/api/games/current").status_code == 404
