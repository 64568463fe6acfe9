"""Play first, sign up later: guest accounts, their boards, signing up in place, idle removal."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import AccessRecord, User
from accounts.services import guests
from leaderboard.models import DealBest, PlayerStats, Result
from tests.accounts.helpers import STRONG, Browser
from tests.leaderboard.helpers import T0, daily, finish
from tests.play.helpers import solution
from tripeaks.engine.rules import Rules
from tripeaks.play import deals
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db


def guest() -> Browser:
    browser = Browser()
    response = browser.post("/api/auth/guest")
    assert response.status_code == 201, response.content
    assert response.json()["guest"] is True
    return browser


def win_the_daily(browser: Browser) -> dict[str, Any]:
    """Start today's daily deal through the API and play the solver's line to a win."""
    game = browser.post("/api/games", {"mode": "daily"})
    assert game.status_code == 201, game.content
    view = game.json()
    deal = deals.daily_deal(deal_day(), Rules())
    for seq, step in enumerate(solution(deal)):
        response = browser.post(f"/api/games/{view['id']}/moves", {"seq": seq, **step})
        assert response.status_code == 200, response.content
    return view


def test_a_guest_is_created_signed_in_and_can_play_at_once() -> None:
    browser = guest()

    me = browser.get("/api/me").json()
    assert me["guest"] is True and me["public_name"] == "Guest"
    user = User.objects.get(username=me["username"])
    assert user.is_guest and not user.has_usable_password()
    assert browser.post("/api/games", {"mode": "daily"}).status_code == 201


def test_guest_creation_needs_the_csrf_token() -> None:
    browser = Browser()
    response = browser.client.post("/api/auth/guest")

    assert response.status_code == 403
    assert not User.objects.exists()


def test_a_signed_in_request_gets_its_own_account_back_not_a_second_guest() -> None:
    browser = guest()
    again = browser.post("/api/auth/guest")

    assert again.status_code == 200
    assert User.objects.count() == 1


def test_a_guests_win_counts_in_its_statistics_but_on_no_board(make_user: Any) -> None:
    browser = guest()
    win_the_daily(browser)

    user = User.objects.get(is_guest=True)
    result = Result.objects.get(player=user)
    assert result.won and result.mode == "daily" and result.ranked and result.hidden
    assert PlayerStats.objects.get(player=user, rules_key="all").won == 1
    stats = browser.get("/api/me/stats").json()
    assert stats["overall"]["won"] == 1
    assert not DealBest.objects.filter(player=user).exists()
    board = browser.get("/api/leaderboards/daily").json()
    assert board["lines"] == [] and board["me"] is None and board["total"] == 0
    for name in ("daily-wins", "win-rate", "daily-streak"):
        lines = Browser().get(f"/api/leaderboards/alltime/{name}").json()["lines"]
        assert all(line["player"]["username"] != user.username for line in lines), name


def test_a_guest_is_left_out_of_all_time_boards(make_user: Any) -> None:
    guest_user = guests.create_guest()
    player = make_user("ranked")
    for user in (guest_user, player):
        finish(user, daily(T0.date()), at=T0)

    lines = Browser().get("/api/leaderboards/alltime/daily-wins").json()["lines"]

    assert [line["player"]["username"] for line in lines] == ["ranked"]


def test_signing_up_from_a_guest_keeps_the_same_account_and_everything_played() -> None:
    browser = guest()
    win_the_daily(browser)
    started = browser.post("/api/games", {"mode": "random"})
    assert started.status_code == 201
    guest_id = User.objects.get(is_guest=True).pk

    response = browser.post(
        "/api/auth/signup", {"username": "late_joiner", "password": STRONG, "display_name": "LJ"}
    )

    assert response.status_code == 201, response.content
    assert response.json()["id"] == guest_id and response.json()["guest"] is False
    user = User.objects.get(pk=guest_id)
    assert user.username == "late_joiner" and not user.is_guest and user.check_password(STRONG)
    assert User.objects.count() == 1
    # Still signed in with the same cookie; the game in progress and the statistics are kept.
    assert browser.get("/api/me").json()["username"] == "late_joiner"
    assert browser.get("/api/games/current").json()["id"] == started.json()["id"]
    assert browser.get("/api/me/stats").json()["overall"]["won"] == 1
    # The daily scouted as a guest stays with the account (the first-try rule sees it) and off
    # the board: signing up does not rank it.
    assert Result.objects.filter(player=user, mode="daily", day=deal_day()).count() == 1
    assert Game.objects.filter(player=user).count() == 2
    assert not DealBest.objects.filter(player=user).exists()
    assert browser.get("/api/leaderboards/daily").json()["lines"] == []


def test_a_signed_up_guest_ranks_from_then_on() -> None:
    browser = guest()
    browser.post("/api/auth/signup", {"username": "now_ranked", "password": STRONG})

    finish(User.objects.get(username="now_ranked"), daily(T0.date()), at=T0)

    assert DealBest.objects.filter(player__username="now_ranked").count() == 1


def test_signing_up_from_a_guest_with_a_taken_name_changes_nothing(make_user: Any) -> None:
    make_user("taken_name")
    browser = guest()

    response = browser.post("/api/auth/signup", {"username": "TAKEN_NAME", "password": STRONG})

    assert response.status_code == 400
    assert User.objects.filter(is_guest=True).count() == 1


def test_a_guest_cannot_be_claimed_by_a_signup_without_its_session() -> None:
    guest()
    stranger = Browser()

    response = stranger.post("/api/auth/signup", {"username": "stranger", "password": STRONG})

    assert response.status_code == 201
    assert User.objects.filter(is_guest=True).count() == 1
    assert User.objects.get(username="stranger").pk != User.objects.get(is_guest=True).pk


def test_guests_have_no_password_to_change_or_email_to_add() -> None:
    browser = guest()

    change = browser.post("/api/me/password", {"old_password": "x", "new_password": STRONG})
    email = browser.put("/api/me/email", {"email": "g@example.com"})

    assert change.status_code == 400 and email.status_code == 400


def test_guest_creation_is_limited_per_address(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {**settings.PLAY_THROTTLE_RATES, "guest_address": "3/hour"}
    answers = [Browser().post("/api/auth/guest").status_code for _ in range(5)]

    assert answers == [201, 201, 201, 429, 429]
    assert User.objects.filter(is_guest=True).count() == 3


@pytest.mark.django_db(transaction=True)
def test_concurrent_guest_creation_cannot_pass_the_limit(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {**settings.PLAY_THROTTLE_RATES, "guest_address": "4/hour"}
    browsers = [Browser() for _ in range(12)]
    for browser in browsers:
        browser.csrf()

    def create(browser: Browser) -> int:
        try:
            return int(browser.post("/api/auth/guest").status_code)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(create, browsers))

    assert sorted(answers) == [201] * 4 + [429] * 8
    assert User.objects.filter(is_guest=True).count() == 4


def test_idle_guests_are_removed_with_what_they_played(make_user: Any) -> None:
    old, recent, active = (guests.create_guest() for _ in range(3))
    player = make_user("kept")
    long_ago = timezone.now() - timedelta(days=31)
    User.objects.filter(pk__in=[old.pk, recent.pk, active.pk, player.pk]).update(
        date_joined=long_ago
    )
    User.objects.filter(pk=recent.pk).update(date_joined=timezone.now())
    AccessRecord.objects.create(user=active, kind="session", key="k" * 32)
    finish(old, daily(T0.date()), at=T0)
    Game.objects.filter(player=old).update(created_at=long_ago)
    finish(recent, daily(T0.date()), at=T0)

    from accounts.tasks import remove_idle_guests

    assert remove_idle_guests.delay().get() == 1
    assert set(User.objects.values_list("pk", flat=True)) == {recent.pk, active.pk, player.pk}
    assert not Result.objects.filter(player_id=old.pk).exists()
    assert not Game.objects.filter(player_id=old.pk).exists()


def test_a_daily_started_as_a_guest_and_finished_after_signing_up_is_that_accounts_one_try() -> (
    None
):
    """The game in progress is kept: finished after signing up, it is the account's first and
    only try at the deal (it saw no more of the deal than any player's first try), so it ranks;
    a guest that finished the deal and signs up has used its try (the guest-path test above)."""
    browser = guest()
    view = browser.post("/api/games", {"mode": "daily"}).json()
    *line, last = solution(deals.daily_deal(deal_day(), Rules()))
    for seq, step in enumerate(line):
        assert (
            browser.post(f"/api/games/{view['id']}/moves", {"seq": seq, **step}).status_code == 200
        )
    browser.post("/api/auth/signup", {"username": "finisher", "password": STRONG})

    done = browser.post(f"/api/games/{view['id']}/moves", {"seq": len(line), **last})

    assert done.status_code == 200 and done.json()["status"] == "won"
    result = Result.objects.get(player__username="finisher")
    assert not result.hidden
    assert Game.objects.filter(player__username="finisher").count() == 1


def test_a_guest_claimed_a_moment_ago_cannot_be_claimed_again() -> None:
    """Two sign-ups racing from one guest session: the second finds the row locked, then no
    longer a guest (the API answers 400), and makes no second account from it."""
    guest_user = guests.create_guest()
    stale = User.objects.get(pk=guest_user.pk)  # what the second request read before the first
    guests.claim_guest(guest=guest_user, username="first_click", password=STRONG)

    with pytest.raises(guests.NotAGuest):
        guests.claim_guest(guest=stale, username="second_click", password=STRONG)

    assert list(User.objects.values_list("username", flat=True)) == ["first_click"]


def test_a_claim_whose_session_cannot_be_saved_leaves_the_guest_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The session follows the account's new password hash in the claim's own transaction: when
    that fails, the claim is undone (before: the guest became an account, and its session, still
    on the guest's hash, was signed out of it)."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import DatabaseError

    browser = guest()
    name = browser.get("/api/me").json()["username"]

    def broken(self: SessionStore) -> None:
        raise DatabaseError("the session table is gone")

    monkeypatch.setattr(SessionStore, "cycle_key", broken)
    try:
        answer = browser.post("/api/auth/signup", {"username": "halfway", "password": STRONG})
        assert answer.status_code >= 500, answer.content
    except DatabaseError:
        pass  # the test client re-raises what the view did not answer
    monkeypatch.undo()

    user = User.objects.get(username=name)
    assert user.is_guest and not user.has_usable_password() and user.display_name == ""
    assert not User.objects.filter(username="halfway").exists()
    assert browser.get("/api/me").json()["username"] == name  # still signed in as the guest
