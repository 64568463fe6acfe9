"""axe-core in the browser tests: check the page as it stands (a page, an open dialog) and
return its violations, to assert there are none."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.frontend.conftest import AXE_PATH

# WCAG 2.0-2.2 A and AA, plus axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
THEMES = ("light", "dark")
# axe's tag of the rules that read colours (colour contrast, links told from their text by colour):
# the only ones whose findings a theme can change, as the dark theme sets colours and nothing else
# (tests/frontend/test_axe_themes.py).
COLOUR_RULES = "cat.color"
# Every finite animation and transition has ended (a theme's colours ease in).
SETTLED = """() => document.getAnimations().every(
    (a) => a.playState !== "running" || a.effect.getComputedTiming().iterations === Infinity)"""


def violations(page: Any, colours_only: bool = False) -> list[dict[str, Any]]:
    """Every axe violation on the page now: rule id, impact and the first few offending nodes; of
    the rules that read colours alone (`COLOUR_RULES`) when `colours_only`."""
    if not page.evaluate("() => Boolean(window.axe)"):
        # A script of the page's own origin (the test server's copy, conftest.AXE_PATH), not its
        # 650 kB of source evaluated through DevTools (sent whole through the driver, compiled
        # afresh in each document): a kept page's next document 8 ms of the machine's CPU against
        # 73 ms (20 each way); five axe files in one process 37 s against 44.5 s, their CPU the
        # same (30 s against 28-30 s: their new contexts fetch it cold).
        page.add_script_tag(url=f"/static/{AXE_PATH}")
    found: list[dict[str, Any]] = page.evaluate(
        """async ([tags, only]) => {
        const off = only ? axe.getRules(tags).filter((r) => !r.tags.includes(only)) : [];
        const rules = Object.fromEntries(off.map((r) => [r.ruleId, { enabled: false }]));
        const r = await axe.run(document, { runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'] });
        return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 200)) }));
    }""",
        [TAGS, COLOUR_RULES if colours_only else None],
    )
    return found


def in_each_theme(page: Any) -> dict[str, list[dict[str, Any]]]:
    """`violations` of the page as it stands in the light and then the dark theme (the system's,
    prefers-color-scheme): one page read in both, where a page loaded for each theme cost its
    load twice. Every rule in the first theme, the rules that read colours in the next (the rest
    read the same document, and were about half of the runs' time). Contrast is read from the
    pixels: each once every finite animation has ended."""
    found = {}
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        page.wait_for_function(SETTLED)
        found[theme] = violations(page, colours_only=bool(found))
    return found


def assert_no_violations(
    page: Any, where: str, counts: dict[str, int] | None = None, colours_only: bool = False
) -> None:
    """No `violations`; of the colour rules alone (`colours_only`) where only the theme changed
    since the page's last check."""
    found = violations(page, colours_only)
    if counts is not None:
        counts[where] = len(found)
    assert found == [], f"axe on {where}: {found}"


def switch_to_dark(page: Any) -> None:
    """The page's theme switch (system, light, dark) pressed to dark, as a player does it."""
    page.locator("#theme-toggle").click()
    page.locator("#theme-toggle").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
