"""Phone first, measured in a real browser at 360x640, 390x844 (upright), 844x390 (sideways) and
1366x800: a game bar of at most 56 px, one row (sideways: one column) of buttons, the table as
wide as the screen allows with the piles at thumb reach, cards as large as every one of the 54
layouts allows; and the game page's weight on the wire, cold, with its first-card time."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.frontend.conftest import ARTIFACTS, api_post, needs_chromium, sign_up
from tests.frontend.helpers import open_game

pytestmark = [pytest.mark.e2e, needs_chromium]

SIZES = {
    "phone-360x640": {"width": 360, "height": 640},
    "phone-390x844": {"width": 390, "height": 844},
    "sideways-844x390": {"width": 844, "height": 390},
    "desktop-1366x800": {"width": 1366, "height": 800},
}
WIRE_LIMIT = 100 * 1024


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.locator(selector).first.bounding_box()
    return found


@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_fills_the_screen_at_every_size(pages: Any, size: str) -> None:
    viewport = SIZES[size]
    w, h = viewport["width"], viewport["height"]
    upright, phone = h > w, w <= 700 or h <= 500
    page = pages.new(viewport=viewport)
    sign_up(page, f"fit_{size.split('-')[0]}_{w}")
    assert api_post(page, "/api/games", {"mode": "random", "rules": {"wrap": True}}).status == 201
    open_game(page)

    assert box(page, ".topbar")["height"] <= 56
    assert page.locator(".site-header").is_visible() is not phone
    tools = [page.locator(".controls .tool").nth(i).bounding_box() for i in range(4)]
    if h <= 500 and not upright:
        assert len({round(t["x"]) for t in tools}) == 1, tools  # one column, on the right
        assert min(t["x"] for t in tools) > w * 0.8
    else:
        assert len({round(t["y"]) for t in tools}) == 1, tools  # one row
        assert max(t["y"] + t["height"] for t in tools) > h - 70  # at the bottom
    for t in tools:
        assert t["height"] >= 40 and t["width"] >= 40  # a thumb's target
        assert t["x"] >= 0 and t["x"] + t["width"] <= w and t["y"] + t["height"] <= h

    table, wrap = box(page, ".table"), box(page, ".table-wrap")
    stock, undo = box(page, ".table .stock"), box(page, ".table .round-undo")
    assert table["x"] >= 0 and table["x"] + table["width"] <= w + 1
    assert table["y"] + table["height"] <= h + 1
    if upright:
        assert table["width"] >= w * 0.97  # the classic layout spans the screen
        assert stock["y"] + stock["height"] > h * 0.75  # the piles at thumb reach
    assert undo["x"] > stock["x"] and undo["y"] + undo["height"] <= table["y"] + table["height"]

    # Every layout's cards as large as the table's area allows: each fills its width or height.
    limited = page.evaluate(
        """async ([w, h]) => {
        const { fit } = await import('/static/frontend/js/geometry.js');
        const data = await (await fetch('/api/layouts?form=outline')).json();
        return data.layouts.map((l) => {
          const slots = l.slots.map(([x, y, z], position) => ({ position, x, y, z }));
          const g = fit(slots, w, h);
          return { name: l.name, full: g.width >= w * 0.97 || g.height >= h * 0.97 || g.cardW === 140, cardW: g.cardW };
        });
    }""",
        [wrap["width"], wrap["height"]],
    )
    assert len(limited) >= 54
    assert [x["name"] for x in limited if not x["full"]] == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    sizes = {x["name"]: x["cardW"] for x in limited}
    (ARTIFACTS / f"card-widths-{size}.json").write_text(json.dumps(sizes, indent=1))


@pytest.mark.parametrize("language", ["en", "ne"])
def test_the_game_page_is_light_on_the_wire_cold(pages: Any, browser: Any, language: str) -> None:
    player = pages.new()
    sign_up(player, f"light_lou_{language}")
    player.context.add_cookies(
        [{"name": "django_language", "value": language, "url": pages.base_url}]
    )
    assert api_post(player, "/api/games", {"mode": "random", "rules": {"wrap": True}}).status == 201
    state = player.context.storage_state()

    # A new context with the player's cookies: nothing cached.
    context = browser.new_context(
        base_url=pages.base_url, storage_state=state, viewport={"width": 390, "height": 844}
    )
    pages.contexts.append(context)
    page = context.new_page()
    page.on("console", lambda m: pages.errors.append(m.text) if m.type == "error" else None)
    page.goto("/#/play")
    page.wait_for_function("() => performance.getEntriesByName('tp-first-card').length > 0")
    page.wait_for_load_state("networkidle")
    figures = page.evaluate(
        """() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const res = performance.getEntriesByType('resource');
        return {
          requests: 1 + res.length,
          wire_bytes: nav.transferSize + res.reduce((n, e) => n + e.transferSize, 0),
          body_bytes: nav.decodedBodySize + res.reduce((n, e) => n + e.decodedBodySize, 0),
          files: res.map((e) => [new URL(e.name).pathname + new URL(e.name).search, e.transferSize, e.decodedBodySize]),
          first_card_ms: performance.getEntriesByName('tp-first-card')[0].startTime,
        };
    }"""
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"game-page-wire-{language}.json").write_text(json.dumps(figures, indent=2))
    print(
        f"\ngame page cold ({language}): {figures['wire_bytes']} B on the wire ({figures['body_bytes']} B "
        f"unpacked) in {figures['requests']} requests; first card {figures['first_card_ms']:.0f} ms"
    )
    paths = [f[0] for f in figures["files"]]
    # The deal in progress and its layout's outline come in the page's boot data: the first card
    # asks for neither (it asked for /api/games/current, then /api/layouts/<name>)
    assert not [p for p in paths if p.startswith(("/api/layouts", "/api/games"))], paths
    assert figures["wire_bytes"] < WIRE_LIMIT
    # Compressed: the scripts and styles travel in far fewer bytes than they hold.
    scripts = [f for f in figures["files"] if f[0].endswith((".js", ".css"))]
    assert sum(f[1] for f in scripts) < 0.6 * sum(f[2] for f in scripts)
