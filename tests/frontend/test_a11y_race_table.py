"""Issue #38, item 10: axe-core finds nothing on a race at its table (running, the player's deal on
it) and finished (its results) in English, German and Nepali, light and dark
(tests/frontend/a11y_walk.py; the screens before the deal: test_a11y_races.py). Before: the
players' strip, a div with an aria-label and no role, failed axe on the finished race in every
language and theme."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.a11y_walk import Screen, axe_every_way, player, signed_in
from tests.frontend.conftest import Pages, api_post, needs_chromium
from tests.frontend.language_walk import QUIET, counting_reads
from tests.play.contests import begun_race

pytestmark = [pytest.mark.e2e, needs_chromium]


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races deal from the pool (tests/conftest.py)."""


def test_axe_finds_nothing_at_a_races_table_and_its_end_in_three_languages_light_and_dark(
    pages: Pages, settings: Any
) -> None:
    bob, cat, dan, eve = (player(f"axt_{n}") for n in ("bob", "cat", "dan", "eve"))
    running = begun_race(bob, cat, settings)
    finished = begun_race(dan, eve, settings)
    quitter = counting_reads(signed_in(pages, eve))  # leaves through the server, which tells
    quitter.goto("/")  # the race's sockets; first the start page reads her game, still there:
    quitter.wait_for_function(QUIET)  # once read after the leave, a 404 and a console error
    assert api_post(quitter, f"/api/races/{finished.pk}/leave", {}).status == 200  # dan wins
    state = "[data-testid=race-state][data-state={}]".format

    def dealt(page: Any) -> None:
        page.wait_for_function("() => window.__tpGame && window.__tpGame.view()")

    checked = axe_every_way(
        pages,
        [
            Screen(
                "race running",
                signed_in(pages, bob),
                f"#/races/{running.pk}",
                state("running"),
                dealt,
            ),
            Screen(
                "race finished",
                signed_in(pages, dan),
                f"#/races/{finished.pk}",
                state("finished"),
            ),
        ],
    )
    assert sum(checked.values()) == 12
