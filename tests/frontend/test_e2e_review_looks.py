"""The game review's looks (issue 39): axe finds nothing on it in English, German and Nepali, in
the light and the dark theme, at the losing move with the analysis in and with the winning line
on the table (a shared link, signed out). The sizes: test_e2e_review_sizes.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.frontend.axe import assert_no_violations, switch_to_dark
from tests.frontend.conftest import needs_chromium
from tests.frontend.test_e2e_review import in_thread, lost_game
from tripeaks.review.models import StoredAnalysis
from tripeaks.review.services import create_share_link

pytestmark = [pytest.mark.e2e, needs_chromium]


def shared_review() -> tuple[str, int]:
    """A shared, analysed lost game's review link, and its losing move."""
    player = get_user_model().objects.create_user(username="looks_lena", password="x" * 20)
    game = lost_game(player)
    link = in_thread(lambda: create_share_link(game=game))
    losing = in_thread(lambda: StoredAnalysis.objects.get(game=game).losing_move)
    assert losing is not None
    return f"/#/review/s/{link.token}", losing


@pytest.fixture
def shared(transactional_db: Any) -> tuple[str, int]:
    return shared_review()


def at_losing_move(page: Any, link: str, losing: int) -> None:
    page.goto(link)
    page.get_by_test_id("losing-move").wait_for(state="attached")
    for _ in range(losing):
        page.keyboard.press("ArrowRight")
    expect(page.locator(".review-list [aria-current]")).to_have_count(1)
    assert page.locator(".review-list [aria-current]").evaluate(
        "(b) => b.closest('li').dataset.i"
    ) == str(losing)


LOCALES = ("en-US", "de-DE", "ne-NP")


def test_axe_finds_nothing_on_the_review_in_each_language_light_and_dark(
    pages: Any, shared: tuple[str, int]
) -> None:
    """One shared review (its game played and analysed once), read afresh in each language."""
    link, losing = shared
    for locale in LOCALES:
        page = pages.new(locale=locale)
        at_losing_move(page, link, losing)
        if locale == "ne-NP":  # the move counter in Devanagari digits
            counter = page.get_by_test_id("review-at").inner_text()
            assert not any(c.isascii() and c.isdigit() for c in counter), counter
        assert_no_violations(page, f"review {locale} light")
        page.get_by_test_id("show-winning-line").click()
        assert_no_violations(page, f"review's winning line {locale} light")
        switch_to_dark(page)  # the same page in the dark theme
        assert_no_violations(page, f"review's winning line {locale} dark", colours_only=True)
        page.get_by_test_id("back-to-game").click()
        assert_no_violations(page, f"review {locale} dark")
