"""Screenshots of the table at the four sizes the layout is measured at, light and dark (the same
deal, two moves in, motion reduced so nothing is caught mid-flight). They go to
test-artifacts/frontend/; with TP_DOC_SHOTS=<folder> (scripts/screenshots.sh) also there, for
docs/frontend.md.

One page a theme, resized from size to size as a turned phone or a dragged window is: the table
laid out afresh at each size on its first load is test_e2e_phone's business. (Four sign-ups and
games a theme: this file took 14.7-14.9 s of CPU in all here; one page a theme: 7.7-8.1 s.)"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.frontend.conftest import ARTIFACTS, api_post, needs_chromium, sign_up
from tests.frontend.helpers import click_move, line_for, open_game
from tests.frontend.test_e2e_phone import SIZES
from tests.play.helpers import winnable_code

pytestmark = [pytest.mark.e2e, needs_chromium]

# The window has its new size and the table has been placed for it (the page places the table
# on `resize`, before the next frame is drawn).
LAID_OUT = """(size) => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(
    () => done(window.innerWidth === size.width && window.innerHeight === size.height))))"""


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_screenshots_of_the_table_at_four_sizes(pages: Any, dark: bool) -> None:
    theme = "dark" if dark else "light"
    code, _ = winnable_code(11)
    moves = line_for(code)[:2]
    out = os.environ.get("TP_DOC_SHOTS")
    first, *_ = SIZES.values()
    page = pages.new(viewport=first, dark=dark, reduced_motion=True)
    sign_up(page, f"shot_{theme}")
    assert api_post(page, "/api/games", {"mode": "custom", "deal": code}).status == 201
    open_game(page)
    for move in moves:
        click_move(page, move)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.wait_for_function(LAID_OUT, arg=viewport)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"table-{size}-{theme}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 5_000
        if out:
            Path(out).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, Path(out) / path.name)
