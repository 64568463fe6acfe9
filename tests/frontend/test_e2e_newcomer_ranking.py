"""Issue 38, items 1 and 2, in a real browser at a phone's size and a desktop's (the newcomer's first
screen: test_e2e_newcomer.py): every way to a deal offers the guest way first, and what the page
says about ranking is what the server does, for a guest's run and for an account's daily, whose
results say why it did not rank (an account's daily and its rank: test_e2e_newcomer_daily_rank.py,
apart so that parallel workers share them)."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from tests.frontend.axe import assert_no_violations
from tests.frontend.conftest import api_post, needs_chromium
from tests.frontend.helpers import click_move, line_for, open_game, wait_seq
from tests.frontend.test_e2e_newcomer import SIZES
from tripeaks.play.models import Deal, Game

pytestmark = [pytest.mark.e2e, needs_chromium]


def results_after_the_last_move(page: Any, game: dict[str, Any], code: str) -> Any:
    """Play the deal's winning line by the API but for its last move, made on the page; the
    results dialog it opens."""
    line = line_for(code)
    for seq, move in enumerate(line[:-1], start=game["seq"]):
        response = api_post(page, f"/api/games/{game['id']}/moves", {"seq": seq, **move})
        assert response.status == 200, response.text()
    open_game(page)
    click_move(page, line[-1])
    dialog = page.locator("dialog[data-testid=results]")
    dialog.wait_for()
    return dialog


@pytest.mark.parametrize("viewport", SIZES)
def test_every_way_to_a_deal_offers_the_guest_way_first_and_a_guests_win_says_why_it_did_not_rank(
    pages: Any, viewport: dict[str, int]
) -> None:
    page = pages.new(viewport=viewport)
    page.goto("/#/play")  # once "Sign in to play"
    page.get_by_test_id("welcome").locator(".table .pc").first.wait_for()
    assert page.get_by_role("button", name="Deal", exact=True).is_visible()
    assert_no_violations(page, "the game page, nobody signed in")

    page.goto("/accounts/login/")  # the guest way above the form, not at its foot
    guest_way = page.get_by_test_id("guest-way").bounding_box()
    form = page.get_by_label("Username").bounding_box()
    assert guest_way is not None and form is not None and guest_way["y"] < form["y"]

    page.goto("/#/")
    page.locator("button[data-daily=wrap-closed]").click()  # once the sign-in form
    dialog = page.locator("dialog[data-testid=guest-first]")
    # Read once it is open: all_inner_texts does not wait (an empty list, on a loaded machine).
    dialog.locator(".dlg-buttons button").first.wait_for()
    names = dialog.locator(".dlg-buttons button").all_inner_texts()
    assert names[0] == "Play as guest" and "Sign in" in names and "Create an account" in names
    assert "held for review" in dialog.inner_text()  # a guest's try is this browser's first try
    assert_no_violations(page, "dialog: play as a guest?")
    assert not User.objects.filter(is_guest=True).exists()
    dialog.get_by_role("button", name="Play as guest").click()

    game = wait_seq(page, 0)
    assert (game["mode"], game["ranks"], game["ranking_code"]) == ("daily", False, "guest")
    assert page.get_by_test_id("ranking").inner_text() == "Guest: not ranked"
    code = Deal.objects.get(pk=Game.objects.get(pk=game["id"]).deal_id).code
    results = results_after_the_last_move(page, game, code)
    assert results.get_by_test_id("result-rank").inner_text() == "Not ranked"
    why = results.get_by_test_id("why-not-ranked")
    assert "never rank on a leaderboard" in why.inner_text()
    assert why.get_by_role("link", name="Sign up").is_visible()
    assert_no_violations(page, "results: a guest's win")
