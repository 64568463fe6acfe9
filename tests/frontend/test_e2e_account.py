"""The account pages in Chromium: play as a guest and sign up keeping it, sessions ended from
the sessions page, password change, deletion."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import (
    DESKTOP,
    PASSWORD,
    PHONE,
    needs_chromium,
    shot,
    sign_up,
)
from tests.frontend.helpers import wait_seq

pytestmark = [pytest.mark.e2e, needs_chromium]

NEW_PASSWORD = "seven-Peaks-of-Hearts-9"


def me(page: Any) -> Any:
    return page.request.get("/api/me")


def test_a_visitor_plays_as_a_guest_then_signs_up_keeping_the_game(pages: Any) -> None:
    page = pages.new(viewport=PHONE)
    page.goto("/#/play")
    page.get_by_role("link", name="Play as guest").first.click()
    page.get_by_test_id("play-as-guest").click()
    page.wait_for_selector("[data-testid=signed-in-as]", state="attached")
    assert "Guest" in page.get_by_test_id("signed-in-as").inner_text()
    guest = me(page).json()
    assert guest["guest"] is True
    # Issue 38: the guest lands on a deal, dealt at once.
    started = wait_seq(page, 0)
    assert started["mode"] == "random" and started["ranking_code"] == "guest"

    page.goto("/#/")  # the game on a phone has the whole screen: the header is on the others
    page.get_by_test_id("account-link").click()
    page.get_by_test_id("guest-signup").click()
    page.get_by_label("Username").fill("was_a_guest")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_selector("[data-testid=signed-in-as]", state="attached")

    account = me(page).json()
    assert account["id"] == guest["id"] and account["username"] == "was_a_guest"
    assert account["guest"] is False
    assert page.request.get("/api/games/current").json()["id"] == started["id"]
    shot(page, "phone-light-guest-signed-up")


def test_sessions_page_ends_another_device_and_password_change_and_deletion(pages: Any) -> None:
    laptop = pages.new(viewport=DESKTOP)
    sign_up(laptop, "two_devices")
    laptop.goto("/")
    phone = pages.new(viewport=PHONE)
    phone.goto("/accounts/login/")
    phone.get_by_label("Username").fill("two_devices")
    phone.get_by_label("Password").fill(PASSWORD)
    phone.get_by_role("button", name="Sign in").click()
    phone.wait_for_selector("[data-testid=signed-in-as]", state="attached")

    laptop.get_by_test_id("account-link").click()
    laptop.get_by_role("link", name="Your sessions").click()
    rows = laptop.get_by_test_id("session-row")
    rows.first.wait_for()
    assert rows.count() == 2
    assert "this session" in laptop.get_by_test_id("sessions").inner_text()
    shot(laptop, "desktop-light-sessions")
    laptop.get_by_test_id("end-others").click()
    laptop.wait_for_selector("[data-testid=messages]")
    assert laptop.get_by_test_id("session-row").count() == 1
    assert me(phone).status in (401, 403)

    laptop.goto("/accounts/password/")
    laptop.get_by_label("Old password").fill(PASSWORD)
    laptop.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    laptop.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    laptop.get_by_role("button", name="Change password").click()
    laptop.wait_for_selector("[data-testid=messages]")
    assert me(laptop).status == 200

    laptop.goto("/accounts/delete/")
    laptop.get_by_label("Your password").fill(NEW_PASSWORD)
    laptop.get_by_test_id("delete-account").click()
    laptop.wait_for_selector("text=Play as guest")
    assert me(laptop).status in (401, 403)
