"""The game review at 390x844, 844x390 and 1366x800 (issue 39: the real table at every size): the
table, the slider and the controls on the first screen, cards big enough to read, nothing
scrolling sideways (screenshots in test-artifacts/frontend/review-*.png)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import needs_chromium, shot
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
