"""In a real browser: the home page loads its CSS, and a newcomer signs up and is signed in.

Debian's Chromium (/usr/bin/chromium) through Playwright's Python package; Playwright never
downloads a browser. Skipped when Chromium is not installed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
]

CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    # Playwright's sync API runs an event loop in this thread; the Django calls made here
    # (the live server's database set-up and flush) are still synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(base_url=live_server.url)
            yield context.new_page()
            context.close()
        finally:
            browser.close()
    os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


def test_home_page_loads_with_its_stylesheet(page: Any) -> None:
    page.goto("/")

    assert page.title() == "TriPeaks Online"
    heading = page.get_by_role("heading", name="TriPeaks Online")
    assert heading.is_visible()
    # The CSS really arrived: the header is laid out as a flex row.
    assert page.eval_on_selector(".site-header", "el => getComputedStyle(el).display") == "flex"


def test_a_newcomer_signs_up_and_is_signed_in(page: Any) -> None:
    page.goto("/")
    # The header's (the welcome table's line offers it too).
    nav = page.get_by_role("navigation", name="Account")
    nav.get_by_role("link", name="Sign up", exact=True).click()
    page.get_by_label("Username").fill("browser_bob")
    page.get_by_label("Display name").fill("Bob")
    page.get_by_label("Password", exact=True).fill("tri-peaks-Solitaire-42")
    page.get_by_label("Password confirmation").fill("tri-peaks-Solitaire-42")
    page.get_by_role("button", name="Sign up").click()

    page.wait_for_url("**/")
    assert "Signed in as Bob" in page.get_by_test_id("signed-in-as").inner_text()

    page.get_by_role("button", name="Sign out").click()
    page.wait_for_selector("text=Sign in")
    assert page.get_by_test_id("signed-in-as").count() == 0
