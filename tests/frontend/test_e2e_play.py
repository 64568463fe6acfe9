"""Playing in a real browser against the real server: sign up, a daily deal by click and by
keyboard, draw with Space, undo, a refused card, reload and continue, a custom deal won by
clicks up to the results screen, and new deals started over the game's open socket (falling back
to REST when the socket is down or does not answer)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db.models import Count

from tests.frontend.conftest import DESKTOP, PHONE, api_post, needs_chromium, shot, sign_up
from tests.frontend.helpers import (
    SOLVER_PATIENCE_MS,
    click_move,
    line_for,
    new_deal,
    open_game,
    view,
    wait_for_the_socket,
    wait_moves,
    wait_new_game,
    wait_seq,
    watch_sockets,
    watch_starts,
)
from tests.play.helpers import winnable_code
from tripeaks.play.models import Game, Move

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


DRAW = {"action": "draw"}
GAME_SOCKETS = re.compile(r"/ws/games/")


def a_game_with_a_move(page: Any, username: str) -> dict[str, Any]:
    """Signed up, on the game page of a classic custom deal with one move made."""
    sign_up(page, username)
    code, line = winnable_code(5)
    assert api_post(page, "/api/games", {"mode": "custom", "deal": code}).status == 201
    open_game(page)
    click_move(page, line[0])
    return view(page)


def assert_stored(game_id: str, moves: int) -> None:
    """The server stored the game's `moves` (the player's), one logged move each; the log may
    hold resumes besides, each a socket's reopening that started the clock again."""
    game = Game.objects.annotate(logged=Count("log")).get(pk=game_id)  # one snapshot
    assert game.seq == game.logged  # type: ignore[attr-defined]
    assert Move.objects.filter(game_id=game_id).exclude(action="resume").count() == moves


def settled(page: Any, game_id: str) -> dict[str, Any]:
    """The page's view once it has caught up with the stored game (a socket's reopening may log a
    resume after the page read the game)."""
    while True:
        seq = Game.objects.get(pk=game_id).seq
        seen = wait_seq(page, seq)
        if seen["seq"] == Game.objects.get(pk=game_id).seq:
            return seen


def test_new_deal_starts_over_the_open_socket_without_a_request(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    old = a_game_with_a_move(page, "fresh_fay")
    wait_for_the_socket(page)
    starts, sockets = watch_starts(page), watch_sockets(page)

    assert "will count as lost" in new_deal(page)
    new = wait_new_game(page, old["id"], SOLVER_PATIENCE_MS)
    assert (new["seq"], new["moves"], new["status"], new["mode"]) == (0, 0, "playing", "random")
    assert new["layout"] == "classic"
    assert page.get_by_test_id("moves").inner_text() == "0"
    assert page.evaluate("location.hash") == "#/play"
    assert page.evaluate("window.__tpGame.socketPath()") == f"/ws/games/{new['id']}/"
    assert Game.objects.get(pk=old["id"]).status == "lost"  # resigned: it had a move

    # A move plays on the new game over the same socket, and the server stores it.
    click_move(page, DRAW)
    assert view(page)["id"] == new["id"]
    assert_stored(new["id"], 1)
    assert starts == [] and sockets == []  # no REST start, no REST move, no new socket

    # A reconnect goes to the new game.
    with page.expect_websocket() as reconnect:
        page.evaluate("window.__tpGame.drop()")
    assert reconnect.value.url.endswith(f"/ws/games/{new['id']}/")
    page.wait_for_selector("[data-testid=connection]", state="hidden")
    click_move(page, DRAW)
    assert_stored(new["id"], 2)


def test_the_results_dialog_deals_again_over_the_socket(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, "again_ada")
    code, _ = winnable_code(11)
    api_post(page, "/api/games", {"mode": "custom", "deal": code})
    old = open_game(page)
    for move in line_for(code):
        click_move(page, move)
    page.locator("dialog[data-testid=results]").wait_for()
    wait_for_the_socket(page)
    starts, sockets = watch_starts(page), watch_sockets(page)

    assert "will count as lost" not in new_deal(page, from_results=True)
    new = wait_new_game(page, old["id"], SOLVER_PATIENCE_MS)
    assert (new["seq"], new["moves"], new["status"]) == (0, 0, "playing")
    page.locator("dialog[data-testid=results]").wait_for(state="detached")
    assert Game.objects.get(pk=old["id"]).status == "won"

    # The new game plays and its clock runs again; the start page offers to continue it.
    click_move(page, DRAW)
    assert_stored(new["id"], 1)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=time]').textContent !== '0:00'"
    )
    assert starts == [] and sockets == []
    page.goto("/#/")
    page.get_by_test_id("continue").click()
    assert wait_seq(page, 1)["id"] == new["id"]


def test_new_deal_with_the_socket_down_starts_by_rest(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    old = a_game_with_a_move(page, "offline_olga")
    # Every game socket from now on is closed as soon as it opens.
    page.route_web_socket(GAME_SOCKETS, lambda ws: ws.close())
    page.evaluate("window.__tpGame.drop()")
    page.wait_for_selector("[data-testid=connection]", state="visible")
    starts = watch_starts(page)

    new_deal(page)
    new = wait_new_game(page, old["id"])
    assert (new["seq"], new["moves"], new["status"]) == (0, 0, "playing")
    assert starts[0].endswith("/api/games")
    assert Game.objects.get(pk=old["id"]).status == "lost"
    click_move(page, DRAW)  # by REST too
    assert_stored(new["id"], 1)
    assert starts[-1].endswith(f"/api/games/{new['id']}/moves")


def test_new_deal_unanswered_on_the_socket_starts_by_rest(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    swallowed: list[str] = []

    def without_new(ws: Any) -> None:
        """The game socket, passed through both ways except a "new" frame, which goes nowhere."""
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and '"type":"new"' in message:
                swallowed.append(message)
            else:
                server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(GAME_SOCKETS, without_new)
    old = a_game_with_a_move(page, "patient_pia")
    starts = watch_starts(page)

    page.evaluate("window.__tpGame.patience(500)")  # the page's wait, a few seconds, shortened
    new_deal(page)
    new = wait_new_game(page, old["id"])  # after the page stops waiting
    assert len(swallowed) == 1
    assert [u for u in starts if u.endswith("/api/games")] != []
    assert (new["seq"], new["status"]) == (0, "playing")
    assert Game.objects.get(pk=old["id"]).status == "lost"


def test_new_deal_on_another_layout_builds_the_page_for_it(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    old = a_game_with_a_move(page, "pyramid_pete")
    page.evaluate(
        "() => { localStorage.setItem('tp.layout', 'pyramid'); "
        "localStorage.setItem('tp.layoutTitle', 'Pyramid'); }"
    )
    wait_for_the_socket(page)
    starts, sockets = watch_starts(page), watch_sockets(page)

    assert "Pyramid" in new_deal(page)
    new = wait_new_game(page, old["id"], SOLVER_PATIENCE_MS)
    assert new["layout"] == "pyramid"
    # No move yet; the new page's socket may have logged a resume (the clock stood still while
    # the page was built for the other layout, with no screen showing the game).
    assert_stored(new["id"], 0)
    page.wait_for_function("() => document.querySelectorAll('.table .pc[data-pos]').length === 15")
    assert starts == []  # started over the old socket; the new page opened its own to the new game
    page.wait_for_selector("[data-testid=connection]", state="hidden")
    assert [u for u in sockets if u.endswith(f"/ws/games/{new['id']}/")] != []
    settled(page, new["id"])  # the resume, if one was logged, is the page's before it moves
    click_move(page, DRAW)
    # A resume logged after `settled` can answer click_move's wait: the draw's own answer counts.
    page.wait_for_function("() => window.__tpGame.view().moves === 1")
    assert_stored(new["id"], 1)
