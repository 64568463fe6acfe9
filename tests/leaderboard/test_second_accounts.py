"""Issue 15: second accounts. A run by an account that shares a device (cookie id) or a public
network address with another account that already played the deal today is held: off every board,
seen by its owner only (marked), until staff accept it in the review queue; every decision is kept.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from leaderboard.models import Result, RunReview
from tests.leaderboard.test_first_try import LOSS, board, lines, play, start
from tests.leaderboard.test_game_over import winnable_numbered
from tests.play.helpers import solution
from tripeaks.engine.rules import Rules
from tripeaks.infra.devices import DEVICE_COOKIE
from tripeaks.play import deals
from tripeaks.play.dealday import deal_day
from tripeaks.play.models import Game

pytestmark = pytest.mark.django_db

DEVICE = "d" * 24


@pytest.fixture(autouse=True)
def holds_on(settings: Any) -> None:
    settings.FAIR_PLAY_HOLD_SHARED = True


def player(user: Any, *, device: str | None = None, address: str = "81.2.69.1") -> APIClient:
    api = APIClient(REMOTE_ADDR=address)
    api.force_login(user)
    if device:
        api.cookies[DEVICE_COOKIE] = device
    return api


def test_the_site_gives_every_browser_a_long_lived_device_id(make_user: Any) -> None:
    browser = Client()
    first = browser.get("/fair-play/")
    cookie = first.cookies[DEVICE_COOKIE]
    assert len(cookie.value) >= 16 and cookie["httponly"] and cookie["max-age"] >= 365 * 86400
    assert DEVICE_COOKIE not in browser.get("/fair-play/").cookies  # kept, not renewed
    browser.force_login(make_user("kim"))
    response = browser.post("/api/games", {"mode": "daily"}, content_type="application/json")
    assert response.status_code == 201
    assert Game.objects.get(pk=response.json()["id"]).device == cookie.value
    # A forged cookie is not an id this site hands out: replaced.
    browser.cookies[DEVICE_COOKIE] = "x; DROP TABLE"
    assert browser.get("/fair-play/").cookies[DEVICE_COOKIE].value != "x; DROP TABLE"


def test_a_second_account_on_the_same_device_replaying_the_hint_line_is_held(
    make_user: Any,
) -> None:
    """The issue's first attack: A wins today's deal with a hint before every move; B, on the same
    browser (a new network), replays A's line. B's run is held, seen by B only."""
    main, second = make_user("main"), make_user("second")
    a = player(main, device=DEVICE, address="81.2.69.1")
    b = player(second, device=DEVICE, address="81.2.69.9")
    winning = solution(deals.daily_deal(deal_day(), Rules()))
    game = start(a)
    for step in winning:
        game = play(a, game, [{"action": "hint"}, step])
    assert game["result"]["attempt"] == "unranked"

    replay = play(b, start(b), winning)
    result = replay["result"]
    assert result["held"] is True and result["board"] is None and result["attempt"] == "first-try"
    held = Result.objects.get(game_id=replay["id"])
    assert held.hold_reason.startswith("shares a device with another account")
    for which in ("first", "best"):
        assert lines(board(APIClient(), which)) == []
    # Visible to its owner, marked; to nobody else.
    mine = b.get("/api/me/stats").json()["recent"]
    assert [(r["held"], r["won"]) for r in mine] == [(True, True)]
    assert b.get("/api/players/second/stats").json()["recent"][0]["held"] is True
    assert APIClient().get("/api/players/second/stats").json()["recent"] == []
    assert a.get("/api/players/second/stats").json()["recent"] == []
    assert APIClient().get("/api/leaderboards/alltime/win-rate").json()["lines"] == []


def test_a_second_account_on_the_same_public_address_is_held_on_numbered_deals_too(
    make_user: Any,
) -> None:
    deal, line = winnable_numbered()
    path = {"mode": "numbered", "number": deal.number}
    one = player(make_user("one"), address="81.2.69.160", device="a" * 20)
    two = player(make_user("two"), address="81.2.69.160", device="b" * 20)
    three = player(make_user("three"), address="81.2.69.161", device="c" * 20)
    assert play(one, start(one, **path), LOSS)["result"]["held"] is False
    held = play(two, start(two, **path), line)["result"]
    assert held["held"] is True and held["board"] is None
    assert "network address" in Result.objects.get(player__username="two").hold_reason
    assert play(three, start(three, **path), line)["result"]["held"] is False


def test_private_and_loopback_addresses_are_not_shared_addresses(make_user: Any) -> None:
    """Behind a proxy NUM_PROXIES does not describe, every player seems to come from it."""
    for i, address in enumerate(("127.0.0.1", "10.0.0.2", "10.0.0.2", "::1")):
        api = player(make_user(f"p{i}"), address=address, device=f"{i}" * 20)
        assert play(api, start(api), LOSS)["result"]["held"] is False


# --------------------------------------------------------------------------- staff review


def held_run(make_user: Any) -> tuple[Result, APIClient]:
    a = player(make_user("first"), device=DEVICE)
    b = player(make_user("later"), device=DEVICE)
    play(a, start(a), LOSS)
    game = play(b, start(b), [{"action": "draw"}, {"action": "draw"}, {"action": "resign"}])
    result = Result.objects.get(game_id=game["id"])
    assert result.held
    return result, b


def test_the_review_queue_is_for_staff_only(make_user: Any) -> None:
    held_run(make_user)
    anonymous = Client().get("/staff/review/")
    assert anonymous.status_code == 302 and "/accounts/login" in anonymous["Location"]
    someone = Client()
    someone.force_login(make_user("nosy"))
    assert someone.get("/staff/review/").status_code == 403
    assert (
        someone.post("/staff/review/1/", {"decision": "accept", "reason": "x"}).status_code == 403
    )
    assert not RunReview.objects.exists()


def test_staff_accept_a_held_run_with_a_reason_and_the_decision_is_kept(make_user: Any) -> None:
    result, owner = held_run(make_user)
    staff = Client()
    referee = make_user("referee", is_staff=True)
    staff.force_login(referee)
    page = staff.get("/staff/review/").content.decode()
    assert f'data-run="{result.pk}"' in page and "shares a device" in page
    assert "Same device as: first" in page
    api = APIClient()
    api.force_login(referee)
    listed = api.get("/api/staff/flagged-runs").json()["results"]
    assert [(r["held"], r["reason"][:13]) for r in listed] == [(True, "shares a devi")]

    for bad in (
        {"decision": "accept"},
        {"decision": "accept", "reason": "  "},
        {"decision": "promote", "reason": "ok"},
        {"decision": "accept", "reason": "x" * 201},
    ):
        response = staff.post(f"/staff/review/{result.pk}/", bad)
        assert response.status_code == 400, bad
    assert (
        staff.post("/staff/review/999999/", {"decision": "hide", "reason": "x"}).status_code == 400
    )
    assert not RunReview.objects.exists() and Result.objects.get(pk=result.pk).held

    response = staff.post(
        f"/staff/review/{result.pk}/", {"decision": "accept", "reason": "siblings, checked"}
    )
    assert response.status_code == 302
    result.refresh_from_db()
    assert not result.held and not result.hidden
    review = RunReview.objects.get()
    assert (review.staff, review.decision, review.reason) == (
        referee,
        "accept",
        "siblings, checked",
    )
    assert sorted(name for name, *_ in lines(board(APIClient()))) == ["first", "later"]
    assert APIClient().get("/api/players/later/stats").json()["recent"][0]["held"] is False
    page = staff.get("/staff/review/").content.decode()
    assert 'data-testid="queue-empty"' in page and "siblings, checked" in page


def test_staff_hide_a_held_run_and_it_stays_off_every_board(make_user: Any) -> None:
    result, owner = held_run(make_user)
    staff = Client()
    staff.force_login(make_user("referee", is_staff=True))
    response = staff.post(f"/staff/review/{result.pk}/", {"decision": "hide", "reason": "alt"})
    assert response.status_code == 302
    result.refresh_from_db()
    assert result.hidden and not result.held
    assert [name for name, *_ in lines(board(APIClient()))] == ["first"]
    assert RunReview.objects.get().decision == "hide"


def test_the_fair_play_page_says_the_rules_in_plain_words(client: Client) -> None:
    response = client.get("/fair-play/")
    assert response.status_code == 200
    page = response.content.decode()
    for words in ("first try", "hint", "One clock", "held for review", "All-time boards"):
        assert words in page


@pytest.mark.parametrize("forwarded", ["not an address", "1.2.3.4.5", "::ffff:zz", " "])
def test_a_forged_client_address_is_not_stored_and_is_no_500(
    make_user: Any, settings: Any, forwarded: str
) -> None:
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"NUM_PROXIES": 1}
    api = APIClient(HTTP_X_FORWARDED_FOR=forwarded)
    api.force_login(make_user("forger"))
    response = api.post("/api/games", {"mode": "daily"}, format="json")
    assert response.status_code == 201, response.content
    assert Game.objects.get(pk=response.json()["id"]).address is None
    assert api.get("/api/me").status_code == 200  # the session's access record, too


def test_a_nul_in_the_forwarded_address_is_a_400_and_starts_nothing(
    make_user: Any, settings: Any
) -> None:
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"NUM_PROXIES": 1}
    api = APIClient(HTTP_X_FORWARDED_FOR="\x00")
    api.force_login(make_user("forger"))
    assert api.post("/api/games", {"mode": "daily"}, format="json").status_code == 400
    assert not Game.objects.exists()


def test_the_admin_lists_held_runs_and_the_audit_trail_read_only(make_user: Any) -> None:
    result, _ = held_run(make_user)
    admin = Client()
    admin.force_login(make_user("root", is_staff=True, is_superuser=True))
    listed = admin.get("/admin/leaderboard/result/", {"held__exact": "1"})
    assert listed.status_code == 200 and f"/admin/leaderboard/result/{result.pk}/" in (
        listed.content.decode()
    )
    admin.post(f"/staff/review/{result.pk}/", {"decision": "hide", "reason": "audit me"})
    trail = admin.get("/admin/leaderboard/runreview/")
    assert trail.status_code == 200 and "audit me" in trail.content.decode()
    assert admin.get("/admin/leaderboard/runreview/add/").status_code == 403
