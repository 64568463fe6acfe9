"""The game review at 390x844, 844x390 and 1366x800 (issue 39: the real table at every size): the
table, the slider and the controls on the first screen, cards big enough to read, nothing
scrolling sideways (screenshots in test-artifacts/frontend/review-*.png)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import needs_chromium, not_reused, shot
from tests.frontend.test_e2e_review_looks import at_losing_move, shared_review

pytestmark = [pytest.mark.e2e, needs_chromium]

SIZES = [(390, 844), (844, 390), (1366, 800)]


@pytest.fixture
def shared(transactional_db: Any) -> tuple[str, int]:
    return shared_review()


def test_the_table_and_its_controls_fit_the_first_screen_at_every_size(
    pages: Any, shared: tuple[str, int]
) -> None:
    link, losing = shared
    for width, height in SIZES:
        page = pages.new(viewport={"width": width, "height": height})
        at_losing_move(page, link, losing)
        page.evaluate("window.scrollTo(0, 0)")
        for part in (".review-table .table", ".review-controls", "[data-testid=review-slider]"):
            box = page.locator(part).bounding_box()
            assert box is not None and box["width"] > 0, part
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (
                f"{part} at {width}x{height}"
            )
            assert box["y"] >= 0 and box["y"] + box["height"] <= height + 1, (
                f"{part} at {width}x{height}"
            )
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        card = page.locator(".review-table .pc[data-pos='0']").bounding_box()
        assert card is not None and card["width"] >= 30, f"cards too small at {width}x{height}"
        shot(page, f"review-{width}x{height}")


def swipe(page: Any, x0: float, x1: float, y: float) -> None:
    """A finger across the screen, from x0 to x1 at height y (touch events, as a phone sends)."""
    cdp = page.context.new_cdp_session(not_reused(page))
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    steps = [x0 + (x1 - x0) * i / 5 for i in range(6)]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
    for x in steps[1:]:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_swipe_on_a_phone_steps_through_the_game(pages: Any, shared: tuple[str, int]) -> None:
    link, losing = shared
    page = pages.new(viewport={"width": 390, "height": 844})
    at_losing_move(page, link, losing)
    at = page.get_by_test_id("review-at")
    moves = at.inner_text().split("/")[1]
    box = page.locator(".review-table").bounding_box()
    assert box is not None
    y = box["y"] + box["height"] * 0.6
    swipe(page, box["x"] + box["width"] * 0.8, box["x"] + box["width"] * 0.2, y)
    expect(at).to_have_text(f"{losing + 1}/{moves}")  # to the left: the next move
    swipe(page, box["x"] + box["width"] * 0.2, box["x"] + box["width"] * 0.8, y)
    swipe(page, box["x"] + box["width"] * 0.2, box["x"] + box["width"] * 0.8, y)
    expect(at).to_have_text(f"{losing - 1}/{moves}")  # to the right: back
