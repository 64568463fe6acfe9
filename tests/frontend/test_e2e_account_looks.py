"""The account pages in the site's style on a phone (issue #38, item 8): the sessions table in
German at 360 px no wider than the screen, its times in the browser's own zone and named, the
deletion said on the page it lands on; axe finds nothing on the sessions and delete pages, light
and dark."""

from __future__ import annotations

import re
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.frontend.axe import in_each_theme
from tests.frontend.conftest import PASSWORD, WAIT_MS, needs_chromium, shot, sign_up

pytestmark = [pytest.mark.e2e, needs_chromium]

PHONES = {"360x640": {"width": 360, "height": 640}, "390x844": {"width": 390, "height": 844}}


def _phone(pages: Any, browser: Any, size: str, locale: str, zone: str) -> Any:
    """A phone in `zone` speaking `locale` (a context of its own: Pages has no time zone)."""
    context = browser.new_context(
        base_url=pages.base_url, viewport=PHONES[size], locale=locale, timezone_id=zone
    )
    pages.contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.on("console", lambda m: pages.errors.append(m.text) if m.type == "error" else None)
    return page


def _fits(page: Any, width: int) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("size", list(PHONES))
def test_sessions_in_german_fit_the_phone_in_its_zone(pages: Any, browser: Any, size: str) -> None:
    from accounts.models import AccessRecord, User

    page = _phone(pages, browser, size, "de-DE", "Asia/Kathmandu")
    username = f"sitzung_{size.replace('x', '_')}"
    language = [{"name": "django_language", "value": "en", "url": pages.base_url}]
    page.context.add_cookies(language)  # signed up in English, then the page in German
    sign_up(page, username)
    page.goto("/")  # the start page in English: its shell sets the zone cookie (tp_tz) first
    page.context.add_cookies([{**language[0], "value": "de"}])
    page.goto("/accounts/sessions/")
    table = page.get_by_test_id("sessions")
    table.wait_for()
    _fits(page, PHONES[size]["width"])
    # The zone as the browser names it (Chromium's ICU still says "Asia/Katmandu").
    zone = page.get_by_test_id("sessions-zone").inner_text()
    assert re.search(r"Zeitzone \(Asia/Kath?mandu\)", zone), zone
    created = AccessRecord.objects.get(user=User.objects.get(username=username)).created_at
    shown = page.locator("[data-testid=session-row] time").first
    assert shown.get_attribute("datetime").endswith("+05:45")
    local = created.astimezone(ZoneInfo("Asia/Kathmandu"))
    assert shown.inner_text() == local.strftime("%d.%m.%Y %H:%M")  # de: SHORT_DATETIME_FORMAT
    # In the site's style: the rows ruled like a board's, every label of a session said.
    row = page.get_by_test_id("session-row").first
    assert row.evaluate("(r) => getComputedStyle(r).borderBottomStyle") == "solid"
    for label in ("Gerät", "Adresse", "Angemeldet"):
        assert page.locator(f"[data-testid=session-row] td[data-label^='{label}']").count() == 1
    assert not page.get_by_text("Action", exact=True).is_visible()
    shot(page, f"phone-de-sessions-{size}")

    for path in ("/accounts/", "/accounts/delete/"):
        page.goto(path)
        _fits(page, PHONES[size]["width"])


def test_deleting_the_account_says_so_where_it_lands(pages: Any, browser: Any) -> None:
    page = _phone(pages, browser, "390x844", "en-US", "Europe/Berlin")
    sign_up(page, "leaving_lou")
    page.goto("/accounts/delete/")
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_test_id("delete-account").click()
    page.wait_for_url("**/")
    said = page.get_by_test_id("messages")
    assert said.is_visible() and "Your account was deleted." in said.inner_text()
    assert said.get_attribute("role") == "status"


def test_axe_finds_nothing_on_the_sessions_and_delete_pages_light_and_dark(pages: Any) -> None:
    """Each page loaded once and read in both themes."""
    page = pages.new(viewport=PHONES["390x844"])
    sign_up(page, "axe_account")
    found = {}
    for path in ("/accounts/", "/accounts/sessions/", "/accounts/delete/"):
        page.goto(path)
        found |= {f"{path} {theme}": on for theme, on in in_each_theme(page).items()}
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/accounts/sessions/")
    found |= {f"sessions, desktop {theme}": on for theme, on in in_each_theme(page).items()}
    assert len(found) == 8
    assert {k: v for k, v in found.items() if v} == {}
