"""axe-core (vendored from npm, tests/frontend/vendor) on every page and every dialog of the
site, in the light and the dark theme (one walk, each screen read in both): 0 violations of WCAG 2.x A/AA and axe's best practices.
The counts per screen go to test-artifacts/frontend/axe-<theme>.json."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.frontend.axe import THEMES, in_each_theme, violations
from tests.frontend.conftest import ARTIFACTS, DESKTOP, PHONE, api_post, needs_chromium, sign_up
from tests.frontend.helpers import click_move, line_for, open_game, win_with_a_click
from tests.play.helpers import winnable_code

pytestmark = [pytest.mark.e2e, needs_chromium]


class Checker:
    """axe on each screen in the light and the dark theme (the system's, prefers-color-scheme):
    one walk of the site reads both (`in_each_theme`), each screen loaded once."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.found: dict[str, dict[str, list[dict[str, Any]]]] = {theme: {} for theme in THEMES}

    def check(self, where: str) -> None:
        for theme, found in in_each_theme(self.page).items():
            self.found[theme][where] = found

    def dialog(self, testid: str, where: str) -> None:
        self.page.locator(f"dialog[data-testid={testid}]").wait_for()
        self.check(where)


def test_axe_finds_nothing_on_any_page_or_dialog_light_and_dark(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    axe = Checker(page)
    page.goto("/")
    page.wait_for_selector("[data-testid=countdown]")
    axe.check("home, signed out")
    for route, ready in (
        ("#/boards", "[data-testid=board], .empty"),
        ("#/layouts", ".thumb"),
        ("#/numbered", "[data-testid=record]"),
        ("#/help", "#app h2"),
        ("#/custom", "[data-testid=custom-form]"),
    ):
        page.goto(f"/{route}")
        page.wait_for_selector(ready)
        axe.check(route)
    page.goto("/accounts/login/")
    axe.check("sign in")
    page.goto("/accounts/signup/")
    axe.check("sign up")

    sign_up(page, "axe_walker")
    code, _ = winnable_code(11)
    assert api_post(page, "/api/games", {"mode": "custom", "deal": code}).status == 201
    open_game(page)
    axe.check("table")
    click_move(page, {"action": "draw"})
    page.locator(".controls [data-act=restart]").click()
    axe.dialog("restart-confirm", "dialog: start again")
    page.keyboard.press("Escape")
    page.keyboard.press("p")
    axe.dialog("pause", "dialog: menu")
    page.keyboard.press("Escape")
    page.locator("dialog[data-testid=pause]").wait_for(state="detached")
    page.keyboard.press("n")
    axe.dialog("new-deal", "dialog: new deal")
    page.keyboard.press("Escape")
    page.goto("/#/")
    page.get_by_test_id("continue").wait_for()
    axe.check("home, a deal waiting")
    page.get_by_role("button", name="New deal").first.click()
    axe.dialog("resign-confirm", "dialog: leave your deal")
    page.keyboard.press("Escape")
    page.goto("/#/stats")
    page.wait_for_selector("text=Overall")
    axe.check("#/stats")

    # A ranked deal: the hint warning; a won deal: the results.
    assert api_post(page, "/api/games", {"mode": "random", "rules": {"wrap": True}}).status == 201
    open_game(page)
    page.keyboard.press("h")
    axe.dialog("hint-warning", "dialog: hint warning")
    page.keyboard.press("Escape")
    started = api_post(page, "/api/games", {"mode": "custom", "deal": code})
    assert started.status == 201
    win_with_a_click(page, started.json(), line_for(code))
    axe.dialog("results", "dialog: results")

    phone = pages.new(viewport=PHONE)
    phone.goto("/")
    phone.wait_for_selector("[data-testid=countdown]")
    phone_axe = Checker(phone)
    phone_axe.check("home on a phone")
    bad = {}
    for theme in THEMES:
        found = axe.found[theme] | {f"phone: {k}": v for k, v in phone_axe.found[theme].items()}
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        counts = {where: len(on) for where, on in found.items()}
        (ARTIFACTS / f"axe-{theme}.json").write_text(json.dumps(counts, indent=1))
        print(f"\naxe {theme}: {sum(counts.values())} violations on {len(counts)} screens")
        bad |= {f"{theme}: {where}": on for where, on in found.items() if on}
    assert len(axe.found["dark"]) == len(axe.found["light"]) == 17
    assert bad == {}, json.dumps(bad, indent=1)


def test_axe_would_catch_the_old_dark_palette(pages: Any) -> None:
    """The check is live: white on the old dark-theme green (#3fa472, 3.1:1) is a violation."""
    page = pages.new(viewport=DESKTOP, dark=True)
    page.goto("/")
    page.wait_for_selector("[data-testid=countdown]")
    page.evaluate(
        "() => document.querySelectorAll('.button').forEach((b) => { b.style.background = '#3fa472'; })"
    )
    assert "color-contrast" in [v["id"] for v in violations(page)]
