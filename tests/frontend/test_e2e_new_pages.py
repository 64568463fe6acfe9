"""The new pages in a real browser: how to play, a custom deal shared by link, PLAY on the layout
picker, today's deals on the home page, and the spoiler-free result after a daily deal."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.frontend.conftest import DESKTOP, PHONE, api_post, needs_chromium, sign_up
from tests.frontend.helpers import line_for, open_game, view, wait_seq, win_with_a_click
from tests.play.helpers import winnable_code
from tripeaks.play.models import Deal, Game

pytestmark = [pytest.mark.e2e, needs_chromium]


def test_how_to_play_covers_rules_settings_scoring_keys_and_strategy(pages: Any) -> None:
    page = pages.new(viewport=PHONE)
    page.goto("/")
    page.get_by_role("link", name="How to play").first.click()
    page.wait_for_function("() => location.hash === '#/help'")
    page.locator("#app h2").last.wait_for()  # the page renders after the hash changes
    headings = page.locator("#app h2").all_inner_texts()
    assert headings == [
        "The goal",
        "How a deal goes",
        "The two settings",
        "Scoring",
        "Keys",
        "Strategy",
    ]
    text = page.locator("#app").inner_text()
    assert "King and Ace connect" in text and "Peaks open" in text and "not ranked" in text
    assert page.title().startswith("How to play")


def test_a_custom_deal_shared_by_link_plays_the_same_cards(pages: Any) -> None:
    code, _ = winnable_code(5)
    sender = pages.new(viewport=DESKTOP)
    sender.goto("/#/custom")
    sender.locator("textarea[name=code]").fill(" ".join(code.split()[:51]))
    sender.get_by_role("button", name="Make a link").click()
    assert "this one has 51" in sender.get_by_test_id("custom-error").inner_text()
    sender.locator("textarea[name=code]").fill(code.lower())
    sender.locator("select[name=rules]").select_option("nowrap-open")
    sender.get_by_role("button", name="Make a link").click()
    link = sender.get_by_test_id("custom-link").inner_text()
    assert re.search(
        r"/#/custom/nowrap-open/classic/[2-9AKQJT][CDHS](-[2-9AKQJT][CDHS]){51}$", link
    )

    friend = pages.new(viewport=PHONE)
    sign_up(friend, "friend_fen")
    friend.goto(link)
    friend.get_by_role("heading", name="A deal shared with you").wait_for()
    friend.get_by_role("button", name="Play this deal").click()
    v = wait_seq(friend, 0)
    assert v["mode"] == "custom" and v["rules"]["key"] == "nowrap-open"
    game = Game.objects.select_related("deal").get(pk=v["id"])
    assert game.deal.code == code


def test_play_on_the_layout_picker_deals_on_the_chosen_layout(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, "picker_pia")
    page.goto("/#/layouts")
    page.locator(".thumb[data-name=pyramid]").click()
    play = page.get_by_test_id("play-layout")
    assert "Pyramid" in play.inner_text()
    play.click()
    v = wait_seq(page, 0)
    assert v["layout"] == "pyramid" and v["mode"] == "random"


def test_home_shows_todays_deals_streak_and_the_result_to_share(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, "daily_dev")
    page.goto("/#/")
    card = page.get_by_test_id("today-wrap-closed")
    assert "Not played yet" in card.inner_text()
    assert "Daily streak: 0" in page.get_by_test_id("daily-streak").inner_text()
    card.get_by_role("button", name="Today's deal").click()
    v = wait_seq(page, 0)
    code = Deal.objects.get(source="daily", rules_key="wrap-closed", day=v["day"]).code
    page.goto("/#/")
    assert "In progress" in page.get_by_test_id("today-wrap-closed").inner_text()
    # Today's deal again: the one on the table goes on (no question, no new game).
    page.get_by_test_id("today-wrap-closed").get_by_role("button", name="Today's deal").click()
    assert wait_seq(page, 0)["id"] == v["id"]

    results = win_with_a_click(page, v, line_for(code))
    share = results.get_by_test_id("share-text").inner_text()
    assert share.splitlines() == [
        f"TriPeaks Online · daily deal {v['day']}",
        "King-Ace on, peaks closed",
        f"Won in {share.splitlines()[2].split()[2]} with {view(page)['moves']} moves · Rank 1 of 1",
    ]
    assert not re.search(r"\b[2-9AKQJT][CDHS]\b", share)  # no card
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    results.get_by_role("button", name="Copy result").click()
    results.get_by_role("button", name="Copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == share

    page.goto("/#/")
    won = page.get_by_test_id("today-wrap-closed").inner_text()
    assert "Won in" in won and "rank 1 of 1" in won
    assert "Daily streak: 1" in page.get_by_test_id("daily-streak").inner_text()
    assert "Not played yet" in page.get_by_test_id("today-nowrap-open").inner_text()


def test_a_started_deal_keeps_its_game_when_the_home_page_is_left_alone(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, "quiet_quin")
    code, _ = winnable_code(5)
    assert api_post(page, "/api/games", {"mode": "custom", "deal": code}).status == 201
    v = open_game(page)
    assert v["moves"] == 0
    # A deal without moves ends without a question (it counts for nothing).
    page.goto("/#/")
    page.get_by_role("button", name="New deal").first.click()
    page.wait_for_function(
        "(old) => window.__tpGame && window.__tpGame.view().id !== old", arg=v["id"]
    )
