"""Two players race in two browsers: one opens a race in the lobby, the other joins it from its
link, both see the countdown and their own table, each sees the other's progress (counts, never
cards), and both see the result."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F

from tests.frontend.conftest import (
    DESKTOP,
    PHONE,
    api_post,
    needs_chromium,
    not_reused,
    shot,
    sign_up,
)
from tests.frontend.helpers import click_move, wait_seq
from tests.races.helpers import winning_line
from tripeaks.infra import redis_client
from tripeaks.races import presence
from tripeaks.races.models import Race

pytestmark = [pytest.mark.e2e, needs_chromium]


def test_two_browsers_race_to_a_result(pages: Any) -> None:
    ann = pages.new(viewport=DESKTOP)
    bob = pages.new(viewport=PHONE)
    sign_up(ann, "racer_ann", "Ann")
    sign_up(bob, "racer_bob", "Bob")

    race_id = open_two_seats(ann)
    ann.wait_for_selector("[data-testid=race-state][data-state=open]")

    # Bob finds it in the lobby and joins: the last seat, so the countdown begins.
    bob.goto("/#/races")
    bob.locator(f"[data-join='{race_id}']").click()
    bob.wait_for_url(f"**/#/races/{race_id}")
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=race-state][data-state=countdown]")
    assert "Starting in" in ann.locator("[data-testid=race-state]").inner_text()

    # At the start instant both get their game on the same deal.
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=race-state][data-state=running]")
        wait_seq(page, 0)
    ann_view = ann.evaluate("window.__tpGame.view()")
    bob_view = bob.evaluate("window.__tpGame.view()")
    assert ann_view["positions"] == bob_view["positions"] and ann_view["id"] != bob_view["id"]

    # Ann plays the winning line: her first moves by click, the rest as her page's requests.
    # Bob's strip shows her cards left going down with each card she plays.
    line = winning_line(race_id)
    for move in line[:3]:
        click_move(ann, move)
    left = ann_view["cards_left"] - sum(move["action"] == "play" for move in line[:3])
    bob.wait_for_function(
        "(left) => document.querySelector(\"[data-player='racer_ann'] [data-testid=cards-left]\")"
        "?.textContent === String(left)",
        arg=left,
    )
    shot(bob, "race-phone-running")
    seq = 3
    for move in line[3:]:
        answer = api_post(ann, f"/api/games/{ann_view['id']}/moves", {"seq": seq, **move})
        assert answer.status == 200, answer.text()
        seq += 1
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=race-state][data-state=finished]")
        assert "Ann wins" in page.locator("[data-testid=race-state]").inner_text()
    places = bob.locator("[data-testid=race-results] tbody tr")
    assert places.nth(0).get_attribute("data-player") == "racer_ann"
    assert bob.get_by_role("button", name="Rematch").is_visible()
    shot(ann, "race-desktop-finished")


def open_two_seats(page: Any) -> str:
    """The page's player opens a two-seat race from the lobby's form; returns its id."""
    page.goto("/#/races")
    form = page.locator("[data-testid=race-form]")
    form.locator("select[name=seats]").select_option("2")
    form.get_by_role("button", name="Open a race").click()
    page.wait_for_url("**/#/races/*")
    return str(page.url.rsplit("/", 1)[1])


def two_seat_race(ann: Any, bob: Any) -> str:
    """Ann opens a two-seat race, Bob joins it; both tables are dealt. Returns the race's id."""
    race_id = open_two_seats(ann)
    bob.goto(f"/#/races/{race_id}")
    bob.locator("[data-testid=race-join]").click()
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=race-state][data-state=running]")
        wait_seq(page, 0)
    return race_id


def test_one_racer_giving_up_ends_a_two_seat_race_for_the_other(pages: Any) -> None:
    ann = pages.new(viewport=DESKTOP)
    bob = pages.new(viewport=DESKTOP)
    sign_up(ann, "quits_ann", "Ann")
    sign_up(bob, "stays_bob", "Bob")
    two_seat_race(ann, bob)

    ann.locator("[data-testid=race-leave]").click()  # "Give up"

    # Bob, the one left playing, wins at once: no playing on alone until the cap.
    bob.wait_for_selector("[data-testid=race-state][data-state=finished]", timeout=5000)
    assert "Bob wins" in bob.locator("[data-testid=race-state]").inner_text()
    rows = bob.locator("[data-testid=race-results] tbody tr")
    assert rows.nth(0).get_attribute("data-player") == "stays_bob"
    assert rows.nth(1).get_attribute("data-player") == "quits_ann"
    assert rows.nth(0).locator("td").nth(0).inner_text() == "1"
    assert rows.nth(1).locator("td").nth(0).inner_text() == "2"
    assert rows.nth(1).locator("[data-testid=player-status]").inner_text() == "left"
    assert rows.nth(0).locator("[data-testid=rating-change]").inner_text().startswith("+")
    # The page writes a loss with a true minus sign (U+2212), as its number format does.
    assert rows.nth(1).locator("[data-testid=rating-change]").inner_text().startswith("\u2212")
    ann.wait_for_selector("[data-testid=race-state][data-state=finished]")
    assert "Bob wins" in ann.locator("[data-testid=race-state]").inner_text()
    shot(bob, "race-given-up")


def test_a_racer_whose_page_is_gone_is_claimed_against_with_the_button(pages: Any) -> None:
    ann = pages.new(viewport=DESKTOP)
    bob = pages.new(viewport=DESKTOP)
    not_reused(ann).clock.install()  # Ann's page's clock, moved on below instead of waiting 30 s
    sign_up(ann, "claims_ann", "Ann")
    sign_up(bob, "gone_bob", "Bob")
    race_id = two_seat_race(ann, bob)
    claim = ann.get_by_role("button", name="Claim the win over Bob")
    assert claim.count() == 0  # Bob is here

    # Bob's connection is lost: no race socket, no move. His socket's close is noted (the
    # absence counts from it); then the server's view is moved 31 s on, as Ann's page's clock.
    bob_id = get_user_model().objects.get(username="gone_bob").pk
    closed_at = time.time()
    bob.close()
    assert until_noted(race_id, bob_id, closed_at)
    back = timedelta(seconds=31)
    Race.objects.filter(pk=race_id).update(starts_at=F("starts_at") - back)
    seen_key = redis_client.key("race-seen", race_id)
    redis_client.client().zadd(seen_key, {str(bob_id): int((closed_at - 31) * 1000)})
    ann.clock.fast_forward("00:31")

    claim.click()

    ann.wait_for_selector("[data-testid=race-state][data-state=finished]", timeout=5000)
    assert "Ann wins" in ann.locator("[data-testid=race-state]").inner_text()
    rows = ann.locator("[data-testid=race-results] tbody tr")
    assert rows.nth(1).get_attribute("data-player") == "gone_bob"
    assert rows.nth(1).locator("[data-testid=player-status]").inner_text() == "left"


def until_noted(race_id: str, user_id: int, since: float) -> bool:
    """Whether the server noted the player's race socket's close (at or after `since`)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        seen = presence.last_seen(race_id=race_id, user_id=user_id)
        if seen is not None and seen >= since - 0.01:
            return True
        time.sleep(0.05)  # polling Redis: the event under test is the socket's close
    return False
