"""Playing in a real browser against the real server: sign up, a daily deal by click and by
keyboard, draw with Space, undo, a refused card, reload and continue, a custom deal won by
clicks up to the results screen, a dropped socket. New deals started over the game's open socket:
test_e2e_play_new_deal.py (a file of its own, so that two workers share the tests)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import DESKTOP, PHONE, api_post, needs_chromium, shot, sign_up
from tests.frontend.game_checks import assert_stored, settled
from tests.frontend.helpers import click_move, line_for, open_game, view, wait_moves, wait_seq
from tests.play.helpers import winnable_code

pytestmark = [pytest.mark.e2e, needs_chromium]

KEY_PATH = ["ArrowRight"] * 12 + ["ArrowUp"] + ["ArrowRight"] * 12 + ["ArrowDown"] * 2


def focus_position(page: Any, position: int) -> None:
    """Walk the keyboard focus to a layout position with the arrow keys."""
    for key in KEY_PATH:
        page.keyboard.press(key)
        focused = page.evaluate("document.activeElement && document.activeElement.dataset.pos")
        if focused == str(position):
            return
    raise AssertionError(f"the arrow keys never reached position {position}")


def test_a_daily_deal_played_by_mouse_and_keyboard(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, "daily_dora", "Dora")
    page.goto("/#/")
    page.get_by_role("button", name="Today's deal").first.click()
    v = wait_seq(page, 0)
    assert v["mode"] == "daily" and v["status"] == "playing"
    assert page.locator(".table .pc[data-pos='0']").get_attribute("aria-label") == "face down"
    shot(page, "desktop-light-table")

    # A face-down card shakes and nothing is sent.
    page.locator(".table .pc[data-pos='0']").click(
        force=True, position={"x": 12, "y": 8}
    )  # aria-disabled, tappable
    page.wait_for_selector(".table .pc[data-pos='0'][data-shaken='1']")
    assert view(page)["seq"] == 0

    # Draw with Space until a card fits, then play one by click. (The player's moves are counted,
    # not the game's seq: a socket's reopening may log a resume between them.)
    while not view(page)["playable"]:
        moves = view(page)["moves"]
        page.keyboard.press(" ")
        wait_moves(page, moves + 1)
    v = view(page)
    drawn = v["moves"]
    assert drawn == 0 or v["stock_left"] == 23 - drawn
    target = v["playable"][0]
    click_move(page, {"action": "play", "position": target})
    v = view(page)
    assert v["positions"][target]["removed"] and v["cards_left"] == 27
    assert page.get_by_test_id("score").inner_text() == str(v["score"])

    # A free face-up card that does not fit shakes; the state stays the same.
    misfits = [
        p["position"]
        for p in v["positions"]
        if p["free"] and not p["removed"] and p["position"] not in v["playable"]
    ]
    if misfits:
        page.locator(f".table .pc[data-pos='{misfits[0]}']").click()
        page.wait_for_selector(f".table .pc[data-pos='{misfits[0]}'][data-shaken='1']")
        page.wait_for_timeout(200)
        assert view(page)["seq"] == v["seq"]

    # Play another by keyboard: arrows to a fitting card, Enter (draw with Space if none).
    while not view(page)["playable"]:
        moves = view(page)["moves"]
        page.keyboard.press(" ")
        wait_moves(page, moves + 1)
    v = view(page)
    target = v["playable"][0]
    focus_position(page, target)
    page.keyboard.press("Enter")
    after = wait_moves(page, v["moves"] + 1)
    assert after["positions"][target]["removed"]

    # Undo with Z puts it back.
    page.keyboard.press("z")
    undone = wait_moves(page, after["moves"] + 1)
    assert not undone["positions"][target]["removed"]
    assert undone["cards_left"] == after["cards_left"] + 1

    # The clock runs from the first move: the top bar ticks.
    page.wait_for_function(
        "() => document.querySelector('[data-testid=time]').textContent !== '0:00'"
    )

    # Reload mid-game: the start page offers Continue, with the same cards and undo history.
    page.reload()
    wait_seq(page, undone["seq"])  # the page reloads on the game itself
    page.goto("/#/")
    page.get_by_test_id("continue").click()
    again = settled(page, undone["id"])  # each reopening of its socket may log a resume
    assert again["positions"] == undone["positions"] and again["can_undo"] == undone["can_undo"]

    # Pause hides the cards and stops the clock; Esc resumes.
    page.keyboard.press("p")
    page.wait_for_selector("dialog[data-testid=pause]")
    # The server's answer to the pause (a resume frame may come first: it raises the seq too).
    page.wait_for_function("() => window.__tpGame.view().paused")
    paused = view(page)
    assert paused["paused"] and not paused["clock_running"]
    shot(page, "desktop-light-paused")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !window.__tpGame.view().paused")
    resumed = view(page)
    assert not resumed["paused"] and resumed["seq"] > paused["seq"]


def test_a_custom_deal_won_by_clicks_shows_the_results(pages: Any) -> None:
    page = pages.new(viewport=PHONE)
    sign_up(page, "winner_wim", "Wim")
    code, _ = winnable_code(11)
    response = api_post(page, "/api/games", {"mode": "custom", "deal": code})
    assert response.status == 201
    open_game(page)
    shot(page, "phone-light-table")
    for move in line_for(code):
        click_move(page, move)
    results = page.locator("dialog[data-testid=results]")
    results.wait_for()
    assert "You won!" in results.inner_text()
    assert int(page.get_by_test_id("result-score").inner_text()) > 280
    assert "Wins" in results.inner_text()
    shot(page, "phone-light-results")


def test_a_dropped_socket_reconnects_without_losing_a_move(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP, dark=True)
    sign_up(page, "steady_sam")
    code, line = winnable_code(5)
    api_post(page, "/api/games", {"mode": "custom", "deal": code})
    open_game(page)
    shot(page, "desktop-dark-table")
    # Drop the socket and move at once: the move goes by REST, then the socket comes back.
    page.evaluate("window.__tpGame.drop()")
    click_move(page, line[0])
    page.wait_for_selector("[data-testid=connection]", state="hidden")
    click_move(page, line[1])
    game = open_game(page)
    assert settled(page, game["id"])["moves"] == 2
    assert_stored(game["id"], 2)
