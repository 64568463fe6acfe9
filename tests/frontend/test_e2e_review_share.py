"""A shared review (issue 39): the owner's link opens the replay signed out, and stops once
withdrawn; an account that may not see a game, a signed-out visitor and a guessed link get no
card of it, only a page that says there is nothing to review; today's daily run replays for its
player at once, its analysis only once the day has ended."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import needs_chromium
from tests.frontend.test_e2e_review import lost_game, signed_up

pytestmark = [pytest.mark.e2e, needs_chromium]


NOT_FOUND = "the server responded with a status of 404"


def expect_nothing_shown(page: Any) -> None:
    """The page says there is nothing to review, and no card of any game is on it."""
    expect(page.get_by_test_id("review-missing")).to_be_visible()
    assert page.locator(".table, .review-list, [data-testid=review-strip]").count() == 0


def forgive_not_found(pages: Any, expected: int) -> None:
    """The browser logs each 404 it was answered as a console error: the `expected` ones (the
    review asked for what it may not see) are taken off the list, any other error stays."""
    found = [e for e in pages.errors if NOT_FOUND in e]
    assert len(found) == expected, pages.errors
    pages.errors[:] = [e for e in pages.errors if NOT_FOUND not in e]


def test_a_shared_link_opens_signed_out_and_stops_once_withdrawn(pages: Any) -> None:
    owner = pages.new()
    game = lost_game(signed_up(owner, "share_sara"))
    owner.goto(f"/#/review/{game.pk}")
    owner.get_by_test_id("review-share").click()
    said = owner.get_by_test_id("review-share-link")
    expect(said).to_contain_text("/#/review/s/")
    link = said.inner_text().split(" ")[-1]
    assert link.startswith("http://127.0.0.1:")
    visitor = pages.new()  # signed out
    visitor.goto(link)
    expect(visitor.get_by_test_id("review-at")).to_have_text(f"0/{len(game.log.all()) - 1}")
    expect(visitor.get_by_test_id("analysis-lost-at")).to_be_visible()
    expect(visitor.get_by_test_id("review-share")).to_be_hidden()  # not the visitor's to share
    visitor.keyboard.press("End")
    owner.get_by_test_id("review-unshare").click()
    expect(said).to_have_text("This link does not work.")
    visitor.reload()
    expect_nothing_shown(visitor)
    expect(visitor.get_by_test_id("review-missing")).to_contain_text("This link does not work")
    forgive_not_found(pages, 1)


def test_no_card_reaches_an_account_that_may_not_see_the_game_nor_a_guessed_link(
    pages: Any,
) -> None:
    owner = pages.new()
    game = lost_game(signed_up(owner, "owner_olga"))
    other = pages.new()
    signed_up(other, "other_otto")
    for hash_ in (
        f"#/review/{game.pk}",
        "#/review/s/AAAAAAAAAAAAAAAAAAAAAA",
        "#/review/..%2F..%2Fme%2Fgames",
        "#/review/../../me/games",
        "#/review/",
    ):
        other.goto("/" + hash_)
        expect_nothing_shown(other)
    signed_out = pages.new()
    signed_out.goto(f"/#/review/{game.pk}")
    expect_nothing_shown(signed_out)
    # The game twice and the guessed token: a key that is no id's nor token's asks for nothing.
    forgive_not_found(pages, 3)


def test_todays_daily_run_replays_for_its_player_but_its_analysis_waits_for_the_day(
    pages: Any,
) -> None:
    page = pages.new()
    game = lost_game(signed_up(page, "today_tia"), "daily", analysed=False)
    page.goto(f"/#/review/{game.pk}")
    expect(page.get_by_test_id("review-at")).to_have_text(re.compile(r"^0/\d+$"))
    expect(page.get_by_test_id("analysis-later")).to_contain_text("day or contest is over")
    expect(page.get_by_test_id("show-winning-line")).to_have_count(0)
    assert page.locator(".review-strip .cell.v-lost, .review-strip .cell.v-winnable").count() == 0
    # The browser logs the analysis' 404 (analysis_later) as a console error: that one is expected.
    assert [e for e in pages.errors if "status of 404" in e] == [pages.errors[0]]
    pages.errors.clear()
