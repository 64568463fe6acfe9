"""Issue #38, item 10: axe-core finds nothing on the arena screens (the list, an arena's page
with its standings, its table with a game on it) in English, German and Nepali, light and dark
(tests/frontend/a11y_walk.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.frontend.a11y_walk import (
    LANGUAGES,
    Screen,
    axe_every_way,
    documents_loaded,
    player,
    signed_in,
)
from tests.frontend.conftest import Pages, api_post, needs_chromium
from tests.frontend.helpers import an_arena

pytestmark = [pytest.mark.e2e, needs_chromium]


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Arena games deal from the pool (tests/conftest.py)."""


def test_axe_finds_nothing_on_the_arena_screens_in_three_languages_light_and_dark(
    pages: Pages,
) -> None:
    arena = an_arena("Daily arena", -timedelta(seconds=5), timedelta(minutes=30))
    an_arena("Hourly arena", timedelta(hours=1), timedelta(hours=1, minutes=10))
    ann = signed_in(pages, player("axa_ann"))
    assert api_post(ann, f"/api/arenas/{arena.pk}/join", {}).status in (200, 201)
    page = f"#/arenas/{arena.pk}"

    def at_the_table(page: Any) -> None:
        page.locator(".arena-actions [data-act=play]").click()
        page.wait_for_function("() => window.__tpGame && window.__tpGame.view()")
        page.locator("[data-testid=arena-table] .table .pc").first.wait_for()

    checked = axe_every_way(
        pages,
        [
            Screen("arena list", ann, "#/arenas", "[data-testid=arena-running]"),
            Screen("arena page", ann, page, "[data-testid=standings]"),
            Screen("arena table", ann, page, ".arena-actions [data-act=play]", at_the_table),
        ],
    )
    assert sum(checked.values()) == 18
    assert documents_loaded(ann) == len(LANGUAGES)  # its next screens are routes of the app
