"""Issue 15: the daily board ranks first tries; a hint seen on a deal never ranks on it again;
all-time boards count clean first tries only. Played through the REST API as a player would."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from leaderboard.models import DealBest, FirstTry, PlayerStats, Result
from leaderboard.services.recompute import recompute_stats
from leaderboard.services.review import review_run
from tests.leaderboard.helpers import daily, finish, numbered
from tests.leaderboard.test_game_over import winnable_numbered
from tests.play.helpers import client_for, move, solution
from tripeaks.engine.rules import Rules
from tripeaks.play import deals
from tripeaks.play.dealday import deal_day

pytestmark = pytest.mark.django_db

LOSS = [{"action": "draw"}, {"action": "resign"}]


def start(api: APIClient, **body: Any) -> dict[str, Any]:
    response = api.post("/api/games", {"mode": "daily"} | body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def play(api: APIClient, game: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    for step in steps:
        response = move(api, game, step["action"], step.get("position"))
        assert response.status_code == 200, response.content
        game = response.json()
    return game


def board(api: APIClient, which: str | None = None) -> dict[str, Any]:
    query = {} if which is None else {"board": which}
    response = api.get("/api/leaderboards/daily", query)
    assert response.status_code == 200, response.content
    return response.json()


def lines(body: dict[str, Any]) -> list[tuple[str, bool, int]]:
    return [(line["player"]["username"], line["won"], line["moves"]) for line in body["lines"]]


def test_the_same_daily_deal_played_twice_keeps_the_first_try_and_betters_the_best(
    make_user: Any,
) -> None:
    api = client_for(make_user("ann"))
    winning = solution(deals.daily_deal(deal_day(), Rules()))

    first = start(api)
    assert first["ranking"] == "first-try" and "first try" in first["ranking_reason"]
    first = play(api, first, LOSS)
    assert first["result"]["attempt"] == "first-try"
    assert first["result"]["first_try"] == {"rank": 1, "lines": 1}  # on the ranked board
    first_board = board(api)
    assert first_board["board"]["ranking"] == "first"
    assert lines(first_board) == [("ann", False, 1)]

    again = start(api)
    assert again["ranking"] == "practice" and "Practice" in again["ranking_reason"]
    again = play(api, again, winning)
    assert again["status"] == "won" and again["result"]["attempt"] == "practice"
    assert again["result"]["first_try"] is None
    assert again["result"]["board"]["this_run"] is True  # the best board's line

    assert board(api) == first_board | {"me": first_board["me"]}  # the first try stands
    assert lines(board(api, "first")) == [("ann", False, 1)]
    assert lines(board(api, "best")) == [("ann", True, len(winning))]
    assert board(api)["me"]["won"] is False and board(api, "best")["me"]["won"] is True


def test_a_first_try_counts_however_it_ends_and_an_unplayed_game_is_no_try(
    make_user: Any,
) -> None:
    api = client_for(make_user("bea"))
    start(api)  # opened, never played: replaced by the next start, no try
    game = start(api)
    assert game["ranking"] == "first-try"
    play(api, game, [{"action": "resign"}])  # resigned without a move: still no try
    game = start(api)
    assert game["ranking"] == "first-try"
    play(api, game, LOSS)
    assert start(api)["ranking"] == "practice"


def test_bad_board_parameter_is_a_400(api_client: APIClient) -> None:
    for bad in ("worst", "FIRST", "first,best"):
        response = api_client.get("/api/leaderboards/daily", {"board": bad})
        assert response.status_code == 400 and "board" in response.json()["errors"], bad
    # A NUL is refused before any view runs (tripeaks/infra/nul_guard.py).
    assert api_client.get("/api/leaderboards/daily", {"board": "first\x00"}).status_code == 400


# --------------------------------------------------------------------------- seen the answer


def test_a_player_who_took_a_hint_never_ranks_on_that_daily_deal_again(make_user: Any) -> None:
    api = client_for(make_user("peek"))
    winning = solution(deals.daily_deal(deal_day(), Rules()))
    game = start(api)
    hinted = api.post(f"/api/games/{game['id']}/moves", {"seq": 0, "action": "hint"}, "json")
    assert hinted.status_code == 200 and hinted.json()["ranking"] == "unranked"
    game = play(api, hinted.json(), winning)
    assert game["result"]["assisted"] is True and game["result"]["attempt"] == "unranked"

    replay = start(api)  # the hint line, unassisted
    assert replay["ranking"] == "unranked" and "hint" in replay["ranking_reason"]
    replay = play(api, replay, winning)
    assert replay["result"]["assisted"] is False and replay["result"]["attempt"] == "unranked"
    assert replay["result"]["board"] is None
    assert lines(board(api)) == [] and lines(board(api, "best")) == []
    assert not FirstTry.objects.exists() and not DealBest.objects.exists()


def test_a_hint_on_a_numbered_deal_bars_that_player_only(make_user: Any) -> None:
    deal, line = winnable_numbered()
    peek, honest = client_for(make_user("peek")), client_for(make_user("honest"))
    path = {"mode": "numbered", "number": deal.number}
    game = start(peek, **path)
    game = play(peek, game, [{"action": "hint"}, *line])
    game = play(peek, start(peek, **path), line)  # replayed without a hint
    assert game["result"]["attempt"] == "unranked" and game["result"]["board"] is None

    game = play(honest, start(honest, **path), line)
    result = game["result"]
    assert result["attempt"] == "first-try" and result["board"]["rank"] == 1
    kinds = {news["kind"] for news in result["announcements"]}
    assert kinds == {"first_win", "record"}  # news and records, for the honest player
    # A practice run of the honest player still betters their line on the numbered board.
    practice = play(honest, start(honest, **path), line)
    assert practice["result"]["attempt"] == "practice"
    assert practice["result"]["board"]["lines"] == 1
    body = honest.get(f"/api/leaderboards/numbered/{deal.number}").json()
    assert [line["player"]["username"] for line in body["lines"]] == ["honest"]


# --------------------------------------------------------------------------- all-time boards


def alltime(name: str) -> list[tuple[str, Any]]:
    body = APIClient().get(f"/api/leaderboards/alltime/{name}").json()
    return [(line["player"]["username"], line["value"]) for line in body["lines"]]


def test_all_time_boards_count_clean_first_tries_only(make_user: Any) -> None:
    """The issue's attack: 43 hints on the daily and 20 hinted random wins made an account #1 on
    every all-time board; a hidden run still counted on daily-wins."""
    cheat, honest, held = make_user("cheat"), make_user("honest"), make_user("held")
    today = deal_day()
    for days_ago in range(3):
        deal = daily(today - timedelta(days=days_ago))
        finish(cheat, deal, assisted=True)
        finish(honest, deal, won=days_ago != 1)
        finish(cheat, deal)  # the hint line replayed: unranked
    for _ in range(20):
        finish(cheat, numbered(), assisted=True)
        finish(honest, numbered(), won=True)
    # Held (as a possible second account's run would be), then hidden by staff: the one path
    # that hides a single run.
    hidden = finish(honest, daily(today - timedelta(days=5)))
    Result.objects.filter(pk=hidden.pk).update(held=True)
    review_run(
        result_id=hidden.pk,
        staff=make_user("staff"),
        decision="hide",
        reason="not humanly possible",
    )
    assert Result.objects.filter(pk=hidden.pk, hidden=True, held=False).exists()
    practice_deal = daily(today - timedelta(days=6))
    finish(honest, practice_deal, won=False)
    finish(honest, practice_deal, won=True)  # practice: a win, not a daily won
    Result.objects.filter(pk=finish(held, daily(today)).pk).update(held=True)
    recompute_stats([held.pk])

    assert alltime("daily-wins") == [("honest", 2)]
    assert alltime("daily-streak") == [("honest", 1)]
    assert [name for name, _ in alltime("win-rate")] == ["honest"]

    stats = APIClient().get("/api/players/cheat/stats").json()
    assert stats["overall"]["played"] == 26 and stats["overall"]["won"] == 26
    assert stats["overall"]["daily_won"] == 3  # the statistics page shows everything
    assert any(r["assisted"] for r in stats["recent"])
    assert {r["attempt"] for r in stats["recent"]} == {"unranked"}
    honest_stats = PlayerStats.objects.get(player=honest, rules_key="all")
    assert honest_stats.daily_won == 4 and honest_stats.board_daily_won == 2


def test_all_time_counts_survive_a_recomputation(make_user: Any) -> None:
    player = make_user("steady")
    deal = daily(deal_day())
    finish(player, deal, won=False)
    finish(player, deal, won=True)
    finish(player, numbered(), assisted=True)
    before = list(PlayerStats.objects.filter(player=player).order_by("rules_key").values())
    recompute_stats([player.pk])
    after = list(PlayerStats.objects.filter(player=player).order_by("rules_key").values())
    strip = [{k: v for k, v in row.items() if k != "id"} for row in (*before, *after)]
    assert strip[: len(before)] == strip[len(before) :]
    assert before[0]["board_played"] == 1 and before[0]["board_daily_won"] == 0
