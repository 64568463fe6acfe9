"""The a11y checks read a screen's second theme with axe's colour rules alone (`in_each_theme`,
tests/frontend/axe.py). That holds while a theme is colours and nothing else: the dark theme's
declarations set colours (custom properties and color-scheme), and no script asks which theme
the system prefers. Each is checked here, and that the second run is the colour rules alone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.frontend.axe import THEMES, in_each_theme, violations
from tests.frontend.conftest import DESKTOP, needs_chromium

STATIC = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend"
# A block of the dark theme: under the system's preference, or the player's choice.
DARK = re.compile(r"prefers-color-scheme|data-theme=\"?dark")
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}")


def blocks(css: str) -> list[tuple[str, str]]:
    """Each rule's (selectors with the at-rules around them, declarations), at any depth."""
    found: list[tuple[str, str]] = []
    stack: list[str] = []
    start = 0
    for at, char in enumerate(css):
        if char == "{":
            stack.append(css[start:at].strip())
            start = at + 1
        elif char == "}":
            body = css[start:at].strip()
            if body:
                found.append((" ".join(stack), body))
            stack.pop()
            start = at + 1
    return found


def stylesheets() -> list[Path]:
    return sorted((STATIC / "css").glob("*.css"))


def test_the_dark_theme_sets_colours_and_nothing_else() -> None:
    dark = []
    for sheet in stylesheets():
        css = re.sub(r"/\*.*?\*/", "", sheet.read_text(encoding="utf-8"), flags=re.S)
        for where, body in blocks(css):
            if DARK.search(where):
                dark += [d.strip() for d in body.split(";") if d.strip()]
    assert len(dark) > 20  # the theme's palette was found
    for declaration in dark:
        name, _, value = (part.strip() for part in declaration.partition(":"))
        assert (name.startswith("--") and COLOUR.fullmatch(value)) or (
            name == "color-scheme" and value == "dark"
        ), declaration


def test_no_script_asks_for_the_systems_theme() -> None:
    scripts = sorted((STATIC / "js").rglob("*.js"))
    assert scripts
    for script in scripts:
        assert "prefers-color-scheme" not in script.read_text(encoding="utf-8"), script


RULES_RUN = """() => {
  const run = axe.run;
  window.__tpRulesRun = [];
  axe.run = async (...args) => {
    const r = await run.apply(axe, args);
    const ran = [r.passes, r.violations, r.incomplete, r.inapplicable].flat().map((x) => x.id);
    window.__tpRulesRun.push([...new Set(ran)].sort());
    return r;
  };
}"""


@pytest.mark.e2e
@needs_chromium
def test_the_second_theme_is_read_by_the_colour_rules_alone(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    page.goto("/")
    page.wait_for_selector("[data-testid=countdown]")
    violations(page)  # axe in the page
    page.evaluate(RULES_RUN)

    assert set(in_each_theme(page)) == set(THEMES)

    every, colours = page.evaluate("window.__tpRulesRun")
    assert colours == ["color-contrast", "link-in-text-block"]
    assert len(every) > 50 and set(colours) < set(every)
