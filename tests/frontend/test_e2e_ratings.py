"""The ratings page in a real browser: reached from the site's navigation, the board of a rule
set (established players only, the provisional counted), the player's own rating, the rule-set
picker, a phone's width, German, and the app's #/ratings route."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.factories import UserFactory
from tests.frontend.axe import violations
from tests.frontend.conftest import DESKTOP, PHONE, needs_chromium, sign_up
from tripeaks.ratings.models import Rating
from tripeaks.ratings.services import rate_race

pytestmark = [pytest.mark.e2e, needs_chromium]


def rated(user: Any, rules_key: str, rating: float, races: int) -> None:
    Rating.objects.create(user=user, rules_key=rules_key, rating=rating, rd=80, races=races)


def board_rows(page: Any) -> list[list[str]]:
    rows = page.get_by_test_id("ratings-board").locator("tbody tr")
    return [row.locator("td").all_inner_texts() for row in rows.all()]


def test_the_board_from_the_navigation_on_a_phone(pages: Any) -> None:
    rated(UserFactory(username="kanchha", display_name="Kanchha"), "wrap-closed", 1712.4, 23)
    rated(UserFactory(username="maili", display_name="Maili"), "wrap-closed", 1588, 10)
    rated(UserFactory(username="sano", display_name="Sano"), "wrap-closed", 2100, 4)
    rated(UserFactory(username="jetha", display_name="Jetha"), "nowrap-open", 1650, 12)
    page = pages.new(viewport=PHONE)
    sign_up(page, "racer_ram", "Ram")
    ram = get_user_model().objects.get(username="racer_ram")
    rated(ram, "wrap-closed", 1540, 3)
    # And a race just rated: Ram beat Maili on nowrap-open.
    maili = get_user_model().objects.get(username="maili")
    change = rate_race(rules_key="nowrap-open", placings=[(ram.pk, 1), (maili.pk, 2)])[ram.pk]

    page.goto("/")
    page.get_by_role("link", name="Ratings").first.click()
    page.wait_for_url("**/ratings/")
    page.get_by_test_id("ratings-board").wait_for()
    assert page.locator("h1").inner_text() == "Ratings"
    assert page.get_by_role("link", name="Ratings").first.get_attribute("aria-current") == "page"
    assert board_rows(page) == [
        ["1", "Kanchha", "1,712", "±80", "23"],
        ["2", "Maili", "1,588", "±80", "10"],
    ]
    assert (
        "2 players with a provisional rating"
        in page.get_by_test_id("ratings-provisional").inner_text()
    )
    mine = page.get_by_test_id("ratings-me").inner_text()
    assert "1,540?" in mine and "7 more rated races" in mine
    assert page.get_by_test_id("ratings-history").count() == 0  # none rated here (made by hand)
    # Nothing wider than a phone, and nothing axe-core (WCAG 2.x A/AA) finds.
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert violations(page) == []

    page.get_by_label("Rules").select_option("nowrap-open")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=ratings-board] td:nth-child(2)')?.textContent === 'Jetha'"
    )
    assert board_rows(page) == [["1", "Jetha", "1,650", "±80", "12"]]
    assert page.url.endswith("/ratings/?rules=nowrap-open")
    mine = page.get_by_test_id("ratings-me").inner_text()
    assert f"{round(change.after):,}?" in mine and "1 race" in mine and "9 more rated races" in mine
    history = page.get_by_test_id("ratings-history").inner_text()
    assert f"Place 1 of 2: 1,500 → {round(change.after):,} (+{change.change})" in history
    page.reload()
    page.get_by_test_id("ratings-board").wait_for()
    assert page.get_by_label("Rules").input_value() == "nowrap-open"
    assert board_rows(page) == [["1", "Jetha", "1,650", "±80", "12"]]


def test_an_empty_board_in_german_and_the_apps_route(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP, locale="de-DE", dark=True)
    page.goto("/ratings/")
    page.get_by_test_id("ratings-empty").wait_for()
    assert page.locator("h1").inner_text() == "Wertungen"
    assert "feste Wertung" in page.get_by_test_id("ratings-empty").inner_text()
    assert violations(page) == []
    rated(UserFactory(username="didi", display_name="Didi"), "wrap-closed", 1600, 11)
    page.goto("/#/ratings")
    page.get_by_test_id("ratings-board").wait_for()
    assert page.locator("#page-title").inner_text() == "Wertungen"
    assert board_rows(page) == [["1", "Didi", "1.600", "±80", "11"]]
