"""The boards page offers a daily deal's two boards, the first try (ranked) and the best run, with
a switch the page keeps in its URL (issue #38, item 4); the all-time board fits a phone in German."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import UserFactory
from tests.frontend.conftest import DESKTOP, needs_chromium, not_reused, shot, sign_up
from tests.leaderboard.helpers import daily, finish

pytestmark = [pytest.mark.e2e, needs_chromium]


def _first_try_lost_then_won(username: str) -> None:
    """Today's daily deal: `username`'s first try lost, a practice run won; Bea won at once."""
    from accounts.models import User
    from tripeaks.play.dealday import deal_day

    deal = daily(deal_day())
    finish(User.objects.get(username=username), deal, won=False, cards_left=7, time_ms=90_000)
    finish(User.objects.get(username=username), deal, won=True, time_ms=75_000)
    finish(UserFactory(username="bea", display_name="Bea Best"), deal, won=True, time_ms=80_000)


def _line(page: Any, name: str) -> str:
    text: str = page.locator(".board-out tr", has_text=name).first.inner_text()
    return text


@pytest.mark.parametrize("tab", ["today", "past"])
def test_the_switch_shows_the_first_try_and_the_best_run_and_stays_in_the_url(
    pages: Any, tab: str
) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, f"switch_{tab}", "Sam Switch")
    if tab == "today":
        _first_try_lost_then_won(f"switch_{tab}")
    page.goto(f"/#/boards/{tab}")
    switch = page.get_by_test_id("board-switch")
    assert switch.get_by_label("First try").is_checked()
    if tab == "past":  # yesterday: nobody played it
        page.wait_for_selector(".board-out .empty")
        page.get_by_label("Best run").check()
        page.wait_for_function("() => location.hash === '#/boards/past/best'")
        page.wait_for_selector("[data-testid=board-note]:has-text('best run')")
        return

    # The first try: Sam lost it (7 left) and is below Bea; the best run: Sam's win is first.
    page.wait_for_selector(".board-out tr:has-text('Sam Switch')")
    assert "7 left" in _line(page, "Sam Switch")
    assert page.locator("[data-testid=live]").is_visible()
    switch.get_by_label("Best run").check()
    page.wait_for_function("() => location.hash === '#/boards/today/best'")
    page.wait_for_selector("[data-testid=board-note]:has-text('best run')")
    first = page.locator("[data-testid=board] tbody tr").first
    assert "Sam Switch" in first.inner_text() and "Won" in first.inner_text()
    assert "1:15" in first.inner_text()
    assert not page.locator("[data-testid=live]").is_visible()  # the best-run board is not live

    # The URL brings the same board back (a reload, a shared link), and the switch goes back.
    page.reload()
    page.wait_for_selector("[data-testid=board-note]:has-text('best run')")
    assert page.get_by_test_id("board-switch").get_by_label("Best run").is_checked()
    assert "Won" in _line(page, "Sam Switch")
    page.get_by_label("First try").check()
    page.wait_for_function("() => location.hash === '#/boards/today/first'")
    page.wait_for_selector(".board-out tr:has-text('7 left')")


def test_a_bad_board_in_the_url_shows_the_first_try(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    page.goto("/#/boards/today/<img>")
    page.wait_for_selector("[data-testid=board-note]")
    assert page.get_by_label("First try").is_checked()
    assert "first try" in page.get_by_test_id("board-note").inner_text()


def _on_every_board() -> None:
    """Lines on every board: today's first try and best run, yesterday's, and the all-time boards
    (the win rate's needs 20 clean first tries)."""
    from datetime import timedelta

    from tests.leaderboard.helpers import other
    from tripeaks.play.dealday import deal_day

    long_name = UserFactory(username="wolfgang", display_name="Wolfgang Amadeus Langername")
    yesterday = daily(deal_day() - timedelta(days=1))
    finish(long_name, yesterday, won=True, time_ms=3_723_000, moves=1234)
    finish(long_name, daily(deal_day()), won=False, cards_left=12, time_ms=3_723_000)
    finish(long_name, daily(deal_day()), won=True, time_ms=3_600_000, moves=1234)
    for i in range(21):
        finish(long_name, other(), won=i % 4 != 0, time_ms=100_000)


@pytest.mark.parametrize("hours", [-20, 30])
def test_past_days_open_on_the_day_before_the_servers_deal_day_whatever_the_browsers_clock(
    pages: Any, hours: int
) -> None:
    """The deal day turns at midnight in Kathmandu: a browser whose date is not Kathmandu's (UTC
    from 18:15 to midnight every day, Germany's evening) opened the past boards on the day before
    its own date, so they showed the day before yesterday and its line was missing."""
    from datetime import timedelta

    from django.utils import timezone

    from tripeaks.play.dealday import deal_day

    yesterday = deal_day() - timedelta(days=1)
    finish(UserFactory(display_name="Yuri Yesterday"), daily(yesterday), won=True, time_ms=70_000)
    page = pages.new(viewport=DESKTOP)
    not_reused(page).clock.install(time=timezone.now() + timedelta(hours=hours))
    page.goto("/#/boards/past/best")
    # Its date is never Kathmandu's: 25 h 45 min behind it, or 24 h 15 min ahead.
    assert page.evaluate("() => new Date().toISOString().slice(0, 10)") != deal_day().isoformat()
    page.wait_for_selector(".board-out tr:has-text('Yuri Yesterday')")
    assert page.locator("input[name=date]").input_value() == yesterday.isoformat()


def _fits(page: Any, width: int, where: str) -> None:
    wide = page.evaluate(
        """() => [...document.querySelectorAll('.board-out, .board-out table, main')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.className || e.tagName)"""
    )
    cells = page.evaluate(
        "() => [...document.querySelectorAll('.board-out th, .board-out tbody tr:first-child td')].map((e) => [e.textContent, Math.round(e.getBoundingClientRect().width)])"
    )
    assert wide == [], (where, wide, cells)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, where


PHONE_360 = {"width": 360, "height": 640}
ROUTES = {
    "#/boards/today/first": "[data-testid=board]",
    "#/boards/today/best": "[data-testid=board]",
    "#/boards/past/best": "[data-testid=board]",
    "#/boards/numbered": ".board-out :is(table, .empty)",
    "#/boards/alltime": ".board-out table",
}


def test_every_board_fits_360_px_in_german(pages: Any) -> None:
    _on_every_board()
    page = pages.new(viewport=PHONE_360, locale="de-DE")
    for route, ready in ROUTES.items():
        page.goto(f"/{route}")
        page.wait_for_selector(ready)
        _fits(page, PHONE_360["width"], route)
    # Each all-time board, its widest column's title ("Gewinnquote (ab 20 Spielen)") included.
    for board, title in (("daily-streak", "Beste Tagesserie"), ("win-rate", "Gewinnquote")):
        page.locator("select[name=board]").select_option(board)
        page.wait_for_selector(f".board-out th:has-text('{title}')")
        page.wait_for_selector(".board-out tr:has-text('Wolfgang')")
        _fits(page, PHONE_360["width"], board)
        last = page.locator(".board-out thead th").last.bounding_box()
        assert last["x"] + last["width"] <= PHONE_360["width"]
    shot(page, "phone-de-360-alltime-win-rate")


def test_axe_finds_nothing_on_either_daily_board_or_all_time_light_and_dark(pages: Any) -> None:
    """Each board loaded once at each size and read in both themes (once a test a theme, each
    loading the boards and their players afresh)."""
    from tests.frontend.axe import in_each_theme

    _on_every_board()
    found = {}
    for viewport in (DESKTOP, PHONE_360):
        page = pages.new(viewport=viewport, locale="de-DE")
        for route, ready in ROUTES.items():
            page.goto(f"/{route}")
            page.wait_for_selector(ready)
            for theme, on in in_each_theme(page).items():
                found[f"{route} {viewport['width']} {theme}"] = on
    assert len(found) == 2 * len(ROUTES) * 2
    assert {k: v for k, v in found.items() if v} == {}
