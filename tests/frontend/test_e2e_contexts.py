"""The browser tests' pages are as separate as two players' browsers: each page of `pages.new` has a
browser context of its own, whose cookies and storage no other page sees, though one Chromium
serves the process's tests and its contexts' pages share renderer processes where Chromium may
(--renderer-process-limit=1, tests/frontend/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from tests.frontend.conftest import needs_chromium, sign_up

pytestmark = [pytest.mark.e2e, needs_chromium]

SIGNED_IN = "[data-testid=signed-in-as]"


def test_a_sign_in_and_the_storage_of_one_page_are_not_anothers(pages: Any) -> None:
    signed = pages.new()
    sign_up(signed, "own_context_olga")
    signed.evaluate("localStorage.setItem('tp.theme', 'dark')")
    signed.reload()
    assert signed.locator(SIGNED_IN).count() == 1

    other = pages.new()
    other.goto("/")
    other.wait_for_selector("#app")
    assert other.locator(SIGNED_IN).count() == 0
    assert other.evaluate("localStorage.getItem('tp.theme')") is None
    assert settings.SESSION_COOKIE_NAME not in {c["name"] for c in other.context.cookies()}
    assert signed.locator(SIGNED_IN).count() == 1  # and the first page keeps its own
