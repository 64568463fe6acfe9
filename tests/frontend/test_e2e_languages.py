"""The three languages in a real browser: German from Accept-Language, a switch to Nepali that
is remembered, <html lang>, numbers, times and dates in the locale (Devanagari digits for ne)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.frontend.axe import violations
from tests.frontend.conftest import PHONE, api_post, needs_chromium, sign_up
from tests.frontend.helpers import open_game

pytestmark = [pytest.mark.e2e, needs_chromium]

DEVANAGARI_DIGITS = re.compile("[०-९]")


def test_german_from_the_browser_then_nepali_chosen_and_remembered(pages: Any) -> None:
    page = pages.new(viewport=PHONE, locale="de-DE")
    page.goto("/")
    page.wait_for_selector("[data-testid=countdown]")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert "Tagesspiel" in page.locator("#app").inner_text()
    assert re.fullmatch(
        r"\d+ Std\. \d\d Min\. \d\d Sek\.", page.get_by_test_id("countdown").inner_text()
    )
    page.goto("/#/help")
    page.get_by_role("heading", name="Das Ziel").wait_for()
    assert page.title().startswith("So wird gespielt")

    page.get_by_label("Sprache").select_option("ne")
    page.wait_for_function("() => document.documentElement.lang === 'ne'")
    assert page.evaluate("location.hash") == "#/help"  # back on the same screen
    page.get_by_role("heading", name="लक्ष्य").wait_for()
    page.goto("/")
    countdown = page.get_by_test_id("countdown")
    countdown.wait_for()
    assert DEVANAGARI_DIGITS.search(countdown.inner_text())
    assert not re.search(r"[0-9]", countdown.inner_text())
    assert "आजको डिल" in page.locator("#app").inner_text()
    assert violations(page) == []


def test_the_game_in_nepali_counts_in_devanagari(pages: Any) -> None:
    page = pages.new(viewport=PHONE)
    sign_up(page, "nepali_nabin")  # in English, then the game in Nepali
    page.context.add_cookies([{"name": "django_language", "value": "ne", "url": pages.base_url}])
    assert api_post(page, "/api/games", {"mode": "random", "rules": {"wrap": True}}).status == 201
    open_game(page)
    assert page.evaluate("document.documentElement.lang") == "ne"
    assert page.get_by_test_id("stock-left").inner_text() == "२३"
    # The clock runs from the deal's showing: on a busy machine a second may have passed.
    assert re.fullmatch("[०-९]+:[०-५][०-९]", page.get_by_test_id("time").inner_text())
    labels = page.locator(".controls .tool .lbl").all_inner_texts()
    assert labels == ["फिर्ता", "सङ्केत", "फेरि सुरु", "नयाँ डिल"]
    assert page.locator(".table .stock").get_attribute("aria-label").startswith("थाक, २३ पत्ती बाँकी")
    page.keyboard.press("h")
    page.locator("dialog[data-testid=hint-warning]").get_by_role(
        "button", name="गणनामै राख्नुहोस्"
    ).click()
    assert violations(page) == []
