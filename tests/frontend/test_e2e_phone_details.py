"""The phone's details from issue #38 (item 5), each measured in Chromium at 360x640 and 390x844:
the run's ranking in the game bar on one line in the scores' type, clear of them; the stock's
count inside the table, above the buttons; the layout picker's Play at hand after picking a layout
near the bottom; the focus ring only after a key, never the hint's yellow; the results dialog's
buttons all on the screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import api_post, needs_chromium, shot, sign_up
from tests.frontend.helpers import click_move, open_game, wait_seq, win_with_a_click

pytestmark = [pytest.mark.e2e, needs_chromium]

PHONES = {"360x640": {"width": 360, "height": 640}, "390x844": {"width": 390, "height": 844}}
# The hint's yellow (--hint, #ffd23f) as the browser writes it.
HINT = "rgb(255, 210, 63)"


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.locator(selector).first.bounding_box()
    return found


def _daily_game(page: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Today's daily deal started (a first try), and its winning line."""
    from tests.frontend.helpers import line_for
    from tripeaks.play.models import Deal

    started = api_post(page, "/api/games", {"mode": "daily", "rules": {"wrap": True}})
    assert started.status == 201
    game = started.json()
    code = Deal.objects.get(source="daily", rules_key="wrap-closed", day=game["day"]).code
    return game, line_for(code)


def _outline(page: Any) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
        return { tag: document.activeElement.className, style: s.outlineStyle, width: s.outlineWidth, color: s.outlineColor }; }"""
    )
    return found


def _at_the_table(
    pages: Any, size: str, who: str
) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """A new player at today's daily deal on a phone of `size`, the page freshly loaded (no key
    pressed, no tap)."""
    page = pages.new(viewport=PHONES[size])
    sign_up(page, f"{who}_{size.replace('x', '_')}")
    game, line = _daily_game(page)
    open_game(page)
    return page, game, line


def test_in_german_the_ranking_is_whole_in_two_short_lines_at_most(pages: Any) -> None:
    """ "Gewertet: erster Versuch" does not fit one line beside the scores at 360 px: it takes two
    lines of the labels' type (the height of a score and its label), never an ellipsis."""
    page = pages.new(viewport=PHONES["360x640"])
    sign_up(page, "zeile_360_640")
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": pages.base_url}])
    _daily_game(page)
    open_game(page)  # its first load, in German
    ranking = page.get_by_test_id("ranking")
    assert ranking.inner_text().replace("\n", " ") == "Gewertet: erster Versuch"
    assert ranking.evaluate(
        "(e) => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight"
    )
    r, score = ranking.bounding_box(), page.locator(".scores div").last.bounding_box()
    assert r["height"] <= score["height"] + 1, (r, score)
    assert r["x"] >= score["x"] + score["width"] + 6 and r["x"] + r["width"] <= 360


@pytest.mark.parametrize("size", list(PHONES))
def test_the_table_at_its_first_load_has_its_ranking_stock_count_and_focus_ring_right(
    pages: Any, size: str
) -> None:
    """Three looks of one freshly loaded table (no key pressed, no tap before the focus ring's):
    once a test each, each making its player and deal and loading the page."""
    page, _, line = _at_the_table(pages, size, "bar")
    _the_runs_ranking_is_one_line_in_the_scores_type_clear_of_stock(page, size)
    _the_stock_count_stays_inside_the_table_above_the_buttons(page, size)
    _the_focus_ring_shows_after_a_key_only_and_not_in_the_hints_yellow(page, line)


def _the_runs_ranking_is_one_line_in_the_scores_type_clear_of_stock(page: Any, size: str) -> None:
    ranking = page.get_by_test_id("ranking")
    assert ranking.inner_text() == "Ranked: first try"
    r = ranking.bounding_box()
    line_height = page.evaluate(
        "(e) => parseFloat(getComputedStyle(e).lineHeight)", ranking.element_handle()
    )
    assert r["height"] <= line_height * 1.5, r  # one line
    whole = "(e) => e.scrollWidth <= e.clientWidth"  # not cut short by an ellipsis
    assert page.evaluate(whole, ranking.element_handle())
    size_of = "(e) => parseFloat(getComputedStyle(e).fontSize)"
    label = page.locator(".scores dt").first.element_handle()
    assert page.evaluate(size_of, ranking.element_handle()) <= page.evaluate(size_of, label)
    stock = page.get_by_test_id("stock-left").locator("xpath=..").bounding_box()
    assert r["x"] >= stock["x"] + stock["width"] + 6, (r, stock)  # not touching STOCK
    assert r["x"] + r["width"] <= PHONES[size]["width"]
    shot(page, f"phone-details-bar-{size}")


def _the_stock_count_stays_inside_the_table_above_the_buttons(page: Any, size: str) -> None:
    badge, controls = box(page, ".table .stock .count"), box(page, ".controls")
    wrap, stock = box(page, ".table-wrap"), box(page, ".table .stock")
    assert badge["y"] + badge["height"] <= controls["y"], (badge, controls)
    assert badge["y"] + badge["height"] <= wrap["y"] + wrap["height"]
    assert badge["x"] + badge["width"] <= PHONES[size]["width"]
    assert badge["y"] + badge["height"] <= stock["y"] + stock["height"]  # on the card itself


def _the_focus_ring_shows_after_a_key_only_and_not_in_the_hints_yellow(
    page: Any, line: list[dict[str, Any]]
) -> None:
    # The table has the keyboard's focus from the start, but shows no ring until a key is used.
    assert "pc" in _outline(page)["tag"]
    assert _outline(page)["style"] == "none"
    page.keyboard.press("ArrowRight")
    ring = _outline(page)
    assert ring["style"] != "none" and ring["width"] != "0px", ring
    assert ring["color"] != HINT, ring
    # A tap takes the ring away again.
    click_move(page, line[0])
    assert _outline(page)["style"] == "none"


@pytest.mark.parametrize("size", list(PHONES))
def test_the_results_dialog_shows_every_button_on_the_screen(pages: Any, size: str) -> None:
    page = pages.new(viewport=PHONES[size])
    sign_up(page, f"results_{size.replace('x', '_')}")
    dialog = win_with_a_click(page, *_daily_game(page))
    viewport = PHONES[size]
    # Read from the top, the title on the screen: the buttons are on the screen too.
    page.evaluate(
        "(d) => { d.scrollTop = 0; d.querySelector('.dlg-body').scrollTop = 0; }",
        dialog.element_handle(),
    )
    assert dialog.locator("h2").first.bounding_box()["y"] >= 0
    for name in ["New deal", "Copy result", "Leaderboards", "Home"]:
        b = dialog.get_by_role("button", name=name).bounding_box()
        assert b["y"] >= 0 and b["y"] + b["height"] <= viewport["height"], (name, b)
        assert b["x"] >= 0 and b["x"] + b["width"] <= viewport["width"], (name, b)
    # What does not fit scrolls inside the dialog, the share text included.
    dialog.get_by_test_id("share-text").scroll_into_view_if_needed()
    assert dialog.get_by_test_id("share-text").is_visible()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"phone-details-results-{size}")


@pytest.mark.parametrize("size", list(PHONES))
def test_play_is_at_hand_after_picking_a_layout_near_the_bottom(pages: Any, size: str) -> None:
    viewport = PHONES[size]
    page = pages.new(viewport=viewport)
    sign_up(page, f"pick_{size.replace('x', '_')}")
    page.goto("/#/layouts")
    last = page.locator(".thumb").last
    last.scroll_into_view_if_needed()
    last.click()
    name, title = last.get_attribute("data-name"), last.locator("span").inner_text()
    play = page.get_by_test_id("play-layout")
    b = play.bounding_box()
    assert b["y"] >= 0 and b["y"] + b["height"] <= viewport["height"], b  # on the screen
    assert b["height"] >= 40  # a thumb's target
    assert play.inner_text() == f"Play {title}"
    # It covers no thumbnail's label for good: the last one is still above the bar.
    assert last.bounding_box()["y"] < b["y"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    shot(page, f"phone-details-layouts-{size}")
    play.click()
    assert wait_seq(page, 0)["layout"] == name
