"""The other pages in a real browser: a live daily board that shows a second player's finished
run as it happens, page weight and first-screen time, and screenshots of the main screens at
phone and desktop sizes, light and dark (under test-artifacts/frontend/)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from tests.frontend.axe import SETTLED
from tests.frontend.conftest import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    api_post,
    needs_chromium,
    shot,
    sign_up,
)
from tests.frontend.helpers import line_for, wait_seq

pytestmark = [pytest.mark.e2e, needs_chromium]

STATIC = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend"
WEIGHT_LIMIT = 150 * 1024


def play_line(page: Any, game: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    for move in moves:
        response = api_post(page, f"/api/games/{game['id']}/moves", {"seq": game["seq"], **move})
        assert response.status == 200, response.text()
        game = response.json()
    return game


def test_a_second_players_win_appears_on_the_live_board(pages: Any) -> None:
    from tripeaks.play.models import Deal

    watcher = pages.new(viewport=DESKTOP)
    watcher.goto("/#/boards")
    watcher.wait_for_selector("text=Nobody has finished this deal yet.")

    player = pages.new(viewport=PHONE)
    sign_up(player, "second_sue", "Sue Second")
    started = api_post(player, "/api/games", {"mode": "daily", "rules": {"wrap": True}})
    assert started.status == 201
    game = started.json()
    code = Deal.objects.get(source="daily", rules_key="wrap-closed", day=game["day"]).code
    finished = play_line(player, game, line_for(code))
    assert finished["status"] == "won"

    row = watcher.locator("[data-testid=board] tbody tr", has_text="Sue Second")
    row.wait_for()
    assert "Won" in row.inner_text()
    shot(watcher, "desktop-light-boards")

    # The winner sees their own line on the board, marked as theirs.
    player.goto("/#/boards")
    player.locator("tr.mine", has_text="Sue Second").wait_for()
    shot(player, "phone-light-boards")


def test_page_weight_first_screen_time_recorded(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_function("() => performance.getEntriesByName('tp-first-screen').length > 0")
    page.wait_for_load_state("networkidle")
    figures = page.evaluate(
        """() => {
        const own = (e) => new URL(e.name).origin === location.origin;
        const nav = performance.getEntriesByType('navigation')[0];
        const res = performance.getEntriesByType('resource').filter(own)
          .filter((e) => /\\.(js|css)$/.test(new URL(e.name).pathname));
        return {
          html: nav.decodedBodySize,
          assets: res.reduce((n, e) => n + e.decodedBodySize, 0),
          files: res.map((e) => new URL(e.name).pathname),
          first_screen_ms: performance.getEntriesByName('tp-first-screen')[0].startTime,
          dom_content_loaded_ms: nav.domContentLoadedEventEnd,
        };
    }"""
    )
    page_bytes = figures["html"] + figures["assets"]
    # Everything the app can ever load (every page module), not just the first screen, as it
    # travels: compressed (WhiteNoise serves the collected files gzipped and brotli'd), so the
    # JSDoc types the modules carry weigh what they cost a player.
    everything = figures["html"] + sum(
        len(gzip.compress(p.read_bytes())) for p in STATIC.rglob("*") if p.suffix in (".js", ".css")
    )
    figures.update(page_bytes=page_bytes, all_modules_bytes=everything)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "perf.json").write_text(json.dumps(figures, indent=2))
    print(
        f"\nfirst screen {figures['first_screen_ms']:.0f} ms; start page {page_bytes} B; "
        f"all modules {everything} B gzipped"
    )
    assert figures["files"], "no scripts or styles measured"
    assert page_bytes < WEIGHT_LIMIT
    assert everything < WEIGHT_LIMIT


def shots(page: Any, name: str) -> None:
    """The screen as it stands, shot in the light and the dark theme (the system's: the page's
    own colours follow prefers-color-scheme), `name` with the theme in it: "phone-{}-stats"."""
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        page.wait_for_function(SETTLED)  # a theme's colours ease in: the shot shows them set
        shot(page, name.format(theme))


def test_screenshots_of_the_main_screens_light_and_dark(pages: Any) -> None:
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = pages.new(viewport=viewport)
        page.goto("/")
        page.wait_for_selector("[data-testid=countdown]")
        shots(page, f"{size}-{{}}-start-anonymous")
        sign_up(page, f"shots_{size}")
        page.reload()  # the start page, signed in
        page.goto("/#/layouts")
        page.wait_for_selector(".thumb")
        page.locator(".thumb").nth(3).click()
        shots(page, f"{size}-{{}}-layouts")
        page.goto("/#/")
        page.get_by_role("button", name="New deal").first.click()
        page.wait_for_selector(".table .pc")
        page.wait_for_function(SETTLED)  # dealt in: the shot shows the cards in place
        shots(page, f"{size}-{{}}-table-new-deal")
        wait_seq(page, 0)  # the table's live part is loaded: N asks for a new deal (not before)
        page.keyboard.press("n")
        page.wait_for_selector("dialog[data-testid=new-deal]")
        shots(page, f"{size}-{{}}-new-deal-dialog")
        page.keyboard.press("Escape")
        page.goto("/#/stats")
        page.wait_for_selector("text=Overall")
        shots(page, f"{size}-{{}}-stats")
        page.goto("/#/numbered")
        page.wait_for_selector("[data-testid=record]")
        shots(page, f"{size}-{{}}-numbered")
    landscape = pages.new(viewport={"width": 844, "height": 390})
    sign_up(landscape, "shots_side")
    landscape.goto("/#/")
    landscape.get_by_role("button", name="New deal").first.click()
    landscape.wait_for_selector(".table .pc")
    landscape.wait_for_function(SETTLED)
    shots(landscape, "phone-landscape-{}-table")
