"""The statistics page's charts read with 0, 1, 3 and 300 results (issue #38, item 6), checked in
the DOM of a phone at 360x640: scales on their axes, the days they cover, labels that neither
leave the chart nor cover each other, bars no wider than a bar; and axe finds nothing on the page
in the light and the dark theme."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.frontend.axe import in_each_theme
from tests.frontend.conftest import ARTIFACTS, needs_chromium, sign_up
from tests.leaderboard.helpers import daily, finish, other

pytestmark = [pytest.mark.e2e, needs_chromium]

PHONE_SMALL = {"width": 360, "height": 640}
MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

# Each chart's texts: inside the chart's box, none on another; its bars' widths.
READ = """(svg) => {
  const box = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')].map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }));
  const inside = texts.filter((t) => t.r.left < box.left - 1 || t.r.right > box.right + 1 || t.r.top < box.top - 1 || t.r.bottom > box.bottom + 1).map((t) => t.text);
  const overlaps = [];
  texts.forEach((a, i) => texts.slice(i + 1).forEach((b) => {
    if (a.r.left < b.r.right && b.r.left < a.r.right && a.r.top < b.r.bottom && b.r.top < a.r.bottom) overlaps.push([a.text, b.text]);
  }));
  const bars = [...svg.querySelectorAll('rect.win, rect.loss')].map((r) => r.getBoundingClientRect().width / box.width);
  return { texts: texts.map((t) => t.text), outside: inside, overlaps, widest: Math.max(0, ...bars), bars: bars.length };
}"""


def _results(username: str, n: int) -> int:
    """`n` ranked results of `username` over the last weeks, newest now: two wins in three, every
    third a daily deal. Returns the number of wins. One transaction holds them all (each result's
    own is a savepoint in it): the same rows, written by the same writer, with one commit where
    300 commits were most of the 300 results' time on a busy machine."""
    from django.db import transaction
    from django.utils import timezone

    from accounts.models import User
    from tripeaks.play.dealday import deal_day

    player, now, wins = User.objects.get(username=username), timezone.now(), 0
    with transaction.atomic():
        for i in range(n):
            at = now - timedelta(hours=7 * i)
            won = i % 3 != 1
            deal = daily(deal_day(at)) if i % 3 == 0 else other()
            finish(
                player,
                deal,
                won=won,
                time_ms=70_000 + (i * 7919) % 240_000,
                at=at,
                cards_left=3 + i % 20,
            )
            wins += won
    return wins


def _read(page: Any, testid: str) -> dict[str, Any]:
    found: dict[str, Any] = page.get_by_test_id(testid).evaluate(READ)
    assert found["outside"] == [], (testid, found)
    assert found["overlaps"] == [], (testid, found)
    return found


@pytest.mark.parametrize("n", [0, 1, 3, 300])
def test_the_charts_read_with_0_1_3_and_300_results(pages: Any, n: int) -> None:
    page = pages.new(viewport=PHONE_SMALL)
    sign_up(page, f"charts_{n}")
    wins = _results(f"charts_{n}", n)
    page.goto("/#/stats")
    page.get_by_test_id("calendar").wait_for()

    # The calendar always says which days it shows: the weekdays, the months, the span.
    calendar = _read(page, "calendar")
    assert {"Mon", "Wed", "Fri"} <= set(calendar["texts"])
    assert any(t.split()[0] in MONTHS for t in calendar["texts"]), calendar["texts"]
    assert " to " in page.get_by_test_id("calendar-span").inner_text()
    if n == 0:
        for empty in (
            "No ranked games finished yet.",
            "No ranked games yet.",
            "No ranked wins yet.",
        ):
            assert page.get_by_text(empty).is_visible()
    else:
        recent = _read(page, "recent-chart")
        assert recent["bars"] == min(n, 20)
        assert recent["widest"] <= 0.08, recent  # a bar, not a block across the chart
        assert any(":" in t for t in recent["texts"]) and "28 left" in recent["texts"]
        assert any(t.split()[0] in MONTHS for t in recent["texts"]), recent["texts"]  # its days

        rate = _read(page, "rate-chart")
        assert {"0%", "50%", "100%"} <= set(rate["texts"]), rate["texts"]
        assert any(t.split()[0] in MONTHS for t in rate["texts"]), rate["texts"]

        times = _read(page, "times-chart")
        assert times["bars"] >= 6 and times["widest"] <= 0.2, times
        counts = [int(t) for t in times["texts"] if t.isdigit()]
        assert sum(counts) == wins  # each bar says how many wins it holds
        assert sum(":" in t for t in times["texts"]) >= 3  # the times under the bars, the best
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE_SMALL["width"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"phone-stats-{n}-results.png"), full_page=True)

    if n <= 3:
        for theme, found in in_each_theme(page).items():
            assert found == [], (n, theme, found)


def test_stats_and_layouts_fit_360_px_in_german(pages: Any) -> None:
    page = pages.new(viewport=PHONE_SMALL, locale="de-DE")
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": pages.base_url}])
    sign_up(page, "breit_nicht")  # in English, then the pages in German
    _results("breit_nicht", 3)
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": pages.base_url}])
    page.goto("/#/stats")
    page.get_by_test_id("times-chart").wait_for()
    for testid in ("recent-chart", "rate-chart", "times-chart", "calendar"):
        _read(page, testid)  # no label outside its chart or over another, in German
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    page.goto("/#/layouts")
    page.wait_for_selector(".thumb")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
