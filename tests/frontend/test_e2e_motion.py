"""Motion that explains the game: the deal flies in, an uncovered card turns over, a played card
flies to the waste, a drawn card turns over on its way from the stock; none of it under
prefers-reduced-motion. The table counts the motions it plays (window.__tpMotion)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import DESKTOP, api_post, needs_chromium, sign_up
from tests.frontend.helpers import click_move, line_for, open_game
from tests.play.helpers import winnable_code

pytestmark = [pytest.mark.e2e, needs_chromium]


def play_until_everything_moved(page: Any, code: str) -> dict[str, int]:
    motion: dict[str, int] = {}
    for move in line_for(code):
        click_move(page, move)
        motion = page.evaluate("({ ...window.__tpMotion })")
        if min(motion.values()) > 0:
            break
    return motion


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_the_table_moves_unless_motion_is_reduced(pages: Any, reduced: bool) -> None:
    page = pages.new(viewport=DESKTOP, reduced_motion=reduced)
    sign_up(page, f"mover_{'still' if reduced else 'moving'}")
    code, _ = winnable_code(11)
    assert api_post(page, "/api/games", {"mode": "custom", "deal": code}).status == 201
    open_game(page)
    dealt = page.evaluate("window.__tpMotion.deal")
    motion = play_until_everything_moved(page, code)
    if reduced:
        assert dealt == 0 and motion == {"deal": 0, "flip": 0, "fly": 0, "draw": 0}
        assert page.evaluate("document.getAnimations().length") == 0
    else:
        assert dealt == 1
        assert motion["flip"] > 0 and motion["fly"] > 0 and motion["draw"] > 0
