"""The game review's ways in (issue 39, item 3): the results dialog's "Review this game" (the
analysis pending, then shown without a reload once stored), the statistics' recent games with
their Review link, and a past daily board's runs, each opening its replay."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import api_post, needs_chromium
from tests.frontend.helpers import click_move, line_for, open_game
from tests.frontend.test_e2e_pages import play_line
from tests.frontend.test_e2e_review import in_thread, signed_up
from tests.review.helpers import deal, played
from tripeaks.play.dealday import deal_day
from tripeaks.review.tasks import analyse_game

pytestmark = [pytest.mark.e2e, needs_chromium]


def test_the_results_dialog_opens_the_review_and_the_analysis_comes_when_ready(pages: Any) -> None:
    page = pages.new()
    signed_up(page, "results_rhea")
    on = in_thread(lambda: deal("custom"))
    started = api_post(
        page, "/api/games", {"mode": "custom", "deal": on.code, "rules": {"wrap": True}}
    )
    assert started.status == 201, started.text()
    moves = line_for(on.code)
    play_line(page, started.json(), moves[:-1])
    open_game(page)
    click_move(page, moves[-1])
    page.get_by_test_id("review-game").click()
    expect(page).to_have_url(re.compile(f"#/review/{started.json()['id']}$"))
    expect(page.get_by_test_id("review-result")).to_have_text("Won")
    expect(page.get_by_test_id("analysis-pending")).to_be_visible()  # no worker runs in the tests
    game_id = started.json()["id"]
    assert in_thread(lambda: analyse_game(game_id))
    # Asked again by the page on its own (2 s after the first ask), with no reload.
    expect(page.get_by_test_id("analysis-par")).to_be_visible(timeout=15_000)
    expect(page.get_by_test_id("analysis-over-par")).to_contain_text("par")
    page.goto("/#/stats")
    link = page.locator(f"[data-game='{started.json()['id']}'] [data-testid=review-link]")
    expect(link).to_be_visible()
    link.click()
    expect(page.get_by_test_id("review-result")).to_have_text("Won")


def test_a_past_daily_boards_run_opens_its_replay(pages: Any) -> None:
    page = pages.new()
    player = signed_up(page, "daily_dora")
    yesterday = deal_day() - timedelta(days=1)
    game = in_thread(lambda: played(player, deal("daily", day=yesterday), (("draw", None),) * 3))
    viewer = pages.new()  # anyone, signed out too, once the day is over in Kathmandu
    viewer.goto("/#/boards/past")
    viewer.locator("input[name=date]").fill(yesterday.isoformat())
    viewer.get_by_role("button", name="Show").click()
    replay = viewer.get_by_test_id("board-replay")
    expect(replay).to_have_count(1)
    replay.click()
    expect(viewer).to_have_url(re.compile(f"#/review/{game.pk}$"))
    expect(viewer.get_by_test_id("review-at")).to_have_text("0/3")
