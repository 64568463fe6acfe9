"""Issue 38, item 2, in a real browser at a phone's size and a desktop's: an account's daily says
it ranks before it is played, and its results give its rank (a guest's run:
test_e2e_newcomer_ranking.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import api_post, needs_chromium, sign_up
from tests.frontend.helpers import open_game
from tests.frontend.test_e2e_newcomer import SIZES
from tests.frontend.test_e2e_newcomer_ranking import results_after_the_last_move
from tripeaks.play.models import Deal, Game

pytestmark = [pytest.mark.e2e, needs_chromium]


@pytest.mark.parametrize("viewport", SIZES)
def test_an_accounts_daily_says_ranked_before_and_its_rank_after(
    pages: Any, viewport: dict[str, int]
) -> None:
    page = pages.new(viewport=viewport)
    sign_up(page, f"ranked_{viewport['width']}")
    assert api_post(page, "/api/games", {"mode": "daily"}).status == 201
    game = open_game(page)
    assert (game["ranks"], game["ranking_code"]) == (True, "first-try")
    assert page.get_by_test_id("ranking").inner_text() == "Ranked: first try"
    code = Deal.objects.get(pk=Game.objects.get(pk=game["id"]).deal_id).code
    results = results_after_the_last_move(page, game, code)
    assert results.get_by_test_id("result-rank").inner_text() == "#1 of 1"
    assert results.get_by_test_id("why-not-ranked").count() == 0
