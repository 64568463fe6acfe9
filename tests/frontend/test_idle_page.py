"""An idle game page (a deal on the table, its clock running, nobody touching it) wakes once a
second, when its clock's text changes: one timer, one style recalculation and one layout a second
(the clock's four ticks a second were three wake-ups in four that changed nothing)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.frontend.conftest import DESKTOP, needs_chromium, not_reused
from tests.frontend.helpers import click_move
from tests.frontend.test_e2e_table import DRAW, custom_game

pytestmark = [pytest.mark.e2e, needs_chromium]

IDLE_MS = 3000
# A change of second is due every 1000 ms: three in 3 s, four when the window's edges fall just so.
WAKES = IDLE_MS // 1000 + 1


def _frame_counts(cdp: Any) -> dict[str, float]:
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return {
        m["name"]: m["value"] for m in metrics if m["name"] in ("LayoutCount", "RecalcStyleCount")
    }


def test_an_idle_game_page_wakes_once_a_second(pages: Any, browser: Any, tmp_path: Path) -> None:
    page = not_reused(pages.new(viewport=DESKTOP))  # (a CDP session of the test's)
    custom_game(page, "idle_player")
    click_move(page, DRAW)  # the clock runs from the first move
    page.wait_for_function("() => !document.getAnimations().length")  # the draw's flight landed
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    trace = tmp_path / "trace.json"
    before = _frame_counts(cdp)
    browser.start_tracing(page=page, path=str(trace), categories=["devtools.timeline"])
    page.wait_for_timeout(IDLE_MS)
    browser.stop_tracing()
    after = _frame_counts(cdp)
    events = json.loads(trace.read_text())["traceEvents"]
    timers = [e for e in events if e.get("name") == "TimerFire"]
    assert len(timers) <= WAKES, timers  # the clock's ticks at 250 ms were 12
    assert after["RecalcStyleCount"] - before["RecalcStyleCount"] <= WAKES, (before, after)
    assert after["LayoutCount"] - before["LayoutCount"] <= WAKES, (before, after)
