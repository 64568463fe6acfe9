"""Issue 38, item 2: the game view says what the server will do with the run (`ranks`, and the
`ranking_code` the page says in the player's words): before the first move what it will count
for, and once it is over what its result did: a guest's run, a hint, a custom deal, a contest's
game, a run held as a possible second account's and one flagged by the timing check never rank,
and the view says which."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leaderboard.models import Result
from tests.accounts.helpers import Browser
from tests.leaderboard.test_first_try import LOSS, start
from tests.leaderboard.test_guest_first_try import account, as_guest, play
from tests.play.helpers import client_for, solution, start_custom, winnable_code
from tripeaks.engine.rules import Rules
from tripeaks.play import deals, services
from tripeaks.play.dealday import deal_day
from tripeaks.play.payloads import REASONS

pytestmark = pytest.mark.django_db


def winning() -> list[dict[str, Any]]:
    return solution(deals.daily_deal(deal_day(), Rules()))


def said(view: dict[str, Any]) -> tuple[bool, str]:
    assert view["ranking_reason"], view  # every code has its words for other clients
    return view["ranks"], view["ranking_code"]


def test_a_guests_daily_is_told_before_and_after_that_it_never_ranks() -> None:
    guest = as_guest("81.2.69.20", "g" * 24)
    before = guest.post("/api/games", {"mode": "daily"}).json()
    assert said(before) == (False, "guest") and before["ranking_reason"] == REASONS["guest"]

    won = play(guest, winning())
    assert won["status"] == "won" and won["result"]["board"] is None
    assert said(won) == (False, "guest")
    current = guest.get(f"/api/games/{won['id']}").json()
    assert said(current) == (False, "guest")


def test_an_accounts_first_try_ranks_and_its_replay_is_practice(make_user: Any) -> None:
    api = client_for(make_user("ann"))
    first = start(api)
    assert said(first) == (True, "first-try")
    api.post(f"/api/games/{first['id']}/moves", {"seq": 0, "action": "draw"}, format="json")
    again = start(api)
    assert said(again) == (True, "practice")


def test_a_won_first_try_stays_ranked_and_a_hint_unranks_it(make_user: Any) -> None:
    api = client_for(make_user("bea"))
    won = play(api, winning())
    assert won["status"] == "won" and won["result"]["board"]["rank"] == 1
    assert said(won) == (True, "first-try")

    other = client_for(make_user("cal"))
    game = start(other)
    hinted = other.post(
        f"/api/games/{game['id']}/moves", {"seq": 0, "action": "hint"}, format="json"
    )
    assert hinted.status_code == 200, hinted.content
    assert said(hinted.json()) == (False, "hint")
    lost = other.post(
        f"/api/games/{game['id']}/moves", {"seq": 1, "action": "resign"}, format="json"
    ).json()
    assert said(lost) == (False, "hint")


def test_a_custom_deal_and_a_contests_game_are_said_as_such(make_user: Any) -> None:
    api = client_for(make_user("dee"))
    custom = start_custom(api, winnable_code()[0])
    assert said(custom) == (False, "custom")

    user = make_user("eve")
    game = services.start_game(user=user, mode="random", rules=Rules(), contest="race:1")
    view = client_for(user).get(f"/api/games/{game.pk}").json()
    assert said(view) == (False, "contest")


def test_a_run_held_as_a_second_accounts_says_held(make_user: Any, settings: Any) -> None:
    settings.FAIR_PLAY_HOLD_SHARED = True
    play(as_guest("81.2.69.20", "h" * 24), LOSS)
    api = account(make_user, "second", "81.2.69.20", "i" * 24)
    before = start(api)
    assert said(before) == (True, "first-try")  # nothing is known against it yet
    run = play(api, winning())
    assert run["result"]["held"] is True
    assert said(run) == (False, "held")


def test_a_run_the_timing_check_flags_says_flagged(make_user: Any, settings: Any) -> None:
    settings.FAIR_PLAY_TIMING_CHECK = True
    api: APIClient | Browser = client_for(make_user("bot"))
    run = play(api, winning())  # the solver's line at machine speed
    assert Result.objects.get(game_id=run["id"]).flagged
    assert said(run) == (False, "flagged")
    assert "timing check" in run["ranking_reason"]
