"""Buttons on pages that are drawn again as frames and clocks come stay the same elements while
what they show is the same: a button replaced under the player's finger loses the tap (Playwright
saw the arena's Join "detached from the DOM" for 10 s in CI)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.frontend.conftest import PHONE, needs_chromium
from tests.frontend.helpers import an_arena
from tests.frontend.test_e2e_review import in_thread, signed_up
from tripeaks.arenas import services as arenas
from tripeaks.engine.rules import Rules
from tripeaks.races import services as races

pytestmark = [pytest.mark.e2e, needs_chromium]


def still_there(handle: Any) -> bool:
    return bool(handle.evaluate("(b) => b.isConnected"))


def test_an_arena_frame_leaves_the_join_button_in_place(pages: Any) -> None:
    arena = an_arena("Busy arena", -timedelta(minutes=1), timedelta(minutes=10))
    page = pages.new(viewport=PHONE)
    signed_up(page, "steady_sam")
    page.goto(f"/#/arenas/{arena.pk}")
    join = page.locator("button[data-act=join]")
    join.wait_for()
    button = join.element_handle()

    def bob_joins() -> None:
        bob = get_user_model().objects.create_user(username="busy_bob", password="x" * 20)
        arenas.join(arena_id=arena.pk, user=bob)

    in_thread(bob_joins)  # the arena socket brings everyone the new standings
    page.locator("[data-testid=standings] tr:has-text('busy_bob')").wait_for()
    assert still_there(button), "the standings frame drew the Join button again"
    button.click()
    page.get_by_role("button", name="Play the next game").wait_for()


def test_the_race_lobbys_join_buttons_stay_while_the_lobby_is_read_again(pages: Any) -> None:
    def a_race() -> None:
        host = get_user_model().objects.create_user(username="lobby_host", password="x" * 20)
        races.create_race(host=host, rules=Rules(), seats=3)

    in_thread(a_race)
    page = pages.new(viewport=PHONE)
    signed_up(page, "lobby_lou")
    page.goto("/#/races")
    join = page.locator("button[data-join]")
    join.wait_for()
    button = join.element_handle()
    # The lobby reads the open races again every few seconds, each round asked for once the last
    # is drawn: two asks after the button was found mean at least one round drawn again.
    for _ in range(2):
        with page.expect_request(lambda r: "/api/races?state=open" in r.url, timeout=10_000):
            pass
    assert still_there(button), "reading the lobby again drew its Join buttons again"
