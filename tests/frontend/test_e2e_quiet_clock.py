"""The game's clock is redrawn four times a second and shows seconds: its text is written when it
changes, not at each redraw (each write was the page's style, layout and paint again, on a
player's device as in the browser tests)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import DESKTOP, needs_chromium
from tests.frontend.helpers import click_move
from tests.frontend.test_e2e_table import DRAW, custom_game

pytestmark = [pytest.mark.e2e, needs_chromium]

# The clock's text as it stands, and the writes to it over `ms` (a MutationObserver's records: a
# text replaced by a write is one, an unchanged text written again is one too).
WRITES = """(ms) => new Promise((done) => {
  const el = document.querySelector('[data-testid=time]');
  const before = el.textContent;
  let writes = 0;
  const seen = new MutationObserver((records) => { writes += records.length; });
  seen.observe(el, { childList: true, characterData: true, subtree: true });
  setTimeout(() => { seen.disconnect(); done({ writes, before, after: el.textContent }); }, ms);
})"""


def test_the_running_clock_is_written_once_a_second_not_at_each_redraw(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    custom_game(page, "clock_watcher")
    click_move(page, DRAW)  # the clock runs from the first move
    seen = page.evaluate(WRITES, 2200)
    assert seen["before"] != seen["after"]  # it ran, and showed it
    # At most three new seconds in 2.2 s, where the redraws were eight or nine.
    assert seen["writes"] <= 3, seen
