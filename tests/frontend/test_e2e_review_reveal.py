"""The review of a numbered deal's game keeps the solver's line back (docs/fair-play.md, "The
solver's lines"): the lost mark and the verdicts show, no line does; "Show the solver's line",
warned and confirmed, reveals it and the winning line plays on the table, and from then on the
player's runs on the deal do not rank (`answer_seen`). Signed out, the page says to sign in or
play as a guest instead. axe finds nothing with the warning shown, en/de/ne, light and dark."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from leaderboard.models import AnswerSeen
from tests.frontend.axe import assert_no_violations, switch_to_dark
from tests.frontend.conftest import needs_chromium, sign_in
from tests.frontend.helpers import open_game
from tests.frontend.test_e2e_review import in_thread, lost_game, signed_up
from tests.review.helpers import start
from tripeaks.review.services import create_share_link

pytestmark = [pytest.mark.e2e, needs_chromium]

WARNING = "Seeing the solver's line ends your ranking on this deal"


def analysis_of(page: Any, game: Any) -> dict[str, Any]:
    answer = page.request.get(f"/api/games/{game.pk}/analysis")
    assert answer.status == 200
    body: dict[str, Any] = answer.json()
    return body


def test_the_solvers_line_shows_only_when_confirmed_and_the_next_run_does_not_rank(
    pages: Any,
) -> None:
    page = pages.new()
    player = signed_up(page, "reveal_rhea")
    game = lost_game(player, "numbered")
    hidden = analysis_of(page, game)
    assert hidden["lines_hidden"] is True and hidden["winning_line"] is None
    lose = hidden["losing_move"]
    page.goto(f"/#/review/{game.pk}")
    # The verdicts and the lost mark as for any deal; no line, the warned button instead.
    expect(page.get_by_test_id("analysis-lost-at")).to_contain_text(f"lost at move {lose}")
    expect(page.get_by_test_id("losing-move")).to_have_attribute("data-i", str(lose))
    expect(page.get_by_test_id("reveal-warning")).to_contain_text(WARNING)
    expect(page.get_by_test_id("show-winning-line")).to_have_count(0)
    expect(page.get_by_test_id("show-par-line")).to_have_count(0)
    # Asked first; "Cancel" reveals and marks nothing.
    page.get_by_test_id("reveal-lines").click()
    dialog = page.get_by_test_id("reveal-confirm")
    expect(dialog).to_contain_text(WARNING)
    page.get_by_test_id("reveal-no").click()
    expect(dialog).to_have_count(0)
    assert in_thread(lambda: AnswerSeen.objects.filter(player=player).count()) == 0
    assert analysis_of(page, game)["lines_hidden"] is True
    page.get_by_test_id("reveal-lines").click()
    page.get_by_test_id("reveal-yes").click()
    winning = page.get_by_test_id("show-winning-line")
    expect(winning).to_be_focused()
    expect(page.get_by_test_id("reveal-warning")).to_have_count(0)
    line = analysis_of(page, game)["winning_line"]
    assert line, "the reveal is the viewer's for good: the GET sends the lines now"
    winning.click()
    n = len(page.locator(".review-list li").all()) - 1
    expect(page.get_by_test_id("review-at")).to_have_text(f"{lose - 1}/{n}")
    said = page.get_by_test_id("review-move")
    expect(said).to_contain_text(f"Winning line: step 0 of {len(line)}")
    expect(page.locator(".table .hinted")).to_have_count(1)
    page.keyboard.press("ArrowRight")
    expect(said).to_contain_text(f"Winning line: step 1 of {len(line)}")
    # The player's next run on the deal is unranked by the answer seen, and says so.
    later = in_thread(lambda: start(player, game.deal))
    view = page.request.get(f"/api/games/{later.pk}").json()
    assert view["ranking_code"] == "answer_seen" and view["ranks"] is False
    open_game(page)  # loaded afresh: the boot data names the game in progress
    expect(page.get_by_test_id("ranking")).to_have_text("Unranked: answer seen")


def test_signed_out_the_page_asks_to_sign_in_or_play_as_a_guest(pages: Any) -> None:
    owner = in_thread(lambda: get_user_model().objects.create_user(username="reveal_owen"))
    game = lost_game(owner, "numbered")
    link = in_thread(lambda: create_share_link(game=game))
    page = pages.new()
    page.goto(f"/#/review/s/{link.token}")
    ask = page.get_by_test_id("reveal-sign-in")
    expect(ask).to_contain_text("Sign in or play as a guest to see the solver's line")
    href = ask.get_by_role("link", name="Sign in").get_attribute("href")
    assert href == f"/accounts/login/?next=%2F%23%2Freview%2Fs%2F{link.token}"
    expect(page.get_by_test_id("reveal-lines")).to_have_count(0)
    expect(page.get_by_test_id("show-winning-line")).to_have_count(0)
    # A guest made on the spot may reveal: the mark is the guest's, not the owner's.
    page.get_by_test_id("reveal-guest").click()
    page.get_by_test_id("reveal-lines").click()
    page.get_by_test_id("reveal-yes").click()
    expect(page.get_by_test_id("show-winning-line")).to_be_visible()
    marked = in_thread(lambda: list(AnswerSeen.objects.values_list("player__username", flat=True)))
    assert len(marked) == 1 and marked[0] != "reveal_owen"


def test_axe_finds_nothing_with_the_warning_shown_light_and_dark(pages: Any) -> None:
    """One player's lost game (played and analysed once), its review read afresh in each
    language: the question is asked, never answered, so the line stays hidden for the next."""
    player = in_thread(lambda: get_user_model().objects.create_user(username="reveal_axe"))
    game = lost_game(player, "numbered")
    for locale in ("en-US", "de-DE", "ne-NP"):
        page = sign_in(pages.new(locale=locale), player)
        page.goto(f"/#/review/{game.pk}")
        page.get_by_test_id("reveal-warning").wait_for()
        page.get_by_test_id("losing-move").wait_for(state="attached")
        assert_no_violations(page, f"review's hidden line {locale} light")
        switch_to_dark(page)  # the same page in the dark theme
        assert_no_violations(page, f"review's hidden line {locale} dark", colours_only=True)
        page.get_by_test_id("reveal-lines").click()
        expect(page.get_by_test_id("reveal-confirm")).to_be_visible()
        assert_no_violations(page, f"review's reveal question {locale} dark")
