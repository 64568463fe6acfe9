"""Issue #38, item 10: axe-core finds nothing on the race screens before the deal (the lobby, a race
waiting for its players, a race counting down to its start) in English, German and Nepali, light
and dark (tests/frontend/a11y_walk.py; the race at its table and finished:
test_a11y_race_table.py). Before: the players' strip, a div with an aria-label and no role,
failed axe on the waiting race in every language and theme."""

from __future__ import annotations

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
from tests.frontend.conftest import Pages, needs_chromium
from tripeaks.engine.rules import Rules
from tripeaks.races import services as races

pytestmark = [pytest.mark.e2e, needs_chromium]


def test_axe_finds_nothing_before_a_race_in_three_languages_light_and_dark(
    pages: Pages, settings: Any
) -> None:
    ann, bob, cat = (player(f"axr_{n}") for n in ("ann", "bob", "cat"))
    waiting = races.create_race(host=ann, rules=Rules(), seats=3)
    settings.RACE_COUNTDOWN_S = 3600  # the countdown stays on the screen while axe reads it
    counting = races.create_race(host=bob, rules=Rules(), seats=2)
    races.join_race(race_id=counting.pk, user=cat)  # the last seat: the countdown begins
    state = "[data-testid=race-state][data-state={}]".format
    ann_page = signed_in(pages, ann)  # the lobby, then the race: loaded once a language
    checked = axe_every_way(
        pages,
        [
            Screen("lobby", ann_page, "#/races", "[data-testid=race-form]"),
            Screen("race waiting", ann_page, f"#/races/{waiting.pk}", state("open")),
            Screen(
                "race counting down",
                signed_in(pages, bob),
                f"#/races/{counting.pk}",
                state("countdown"),
            ),
        ],
    )
    assert sum(checked.values()) == 18
    assert documents_loaded(ann_page) == len(LANGUAGES)
