"""New deals in a real browser, started over the game's open socket (from the toolbar and the
results dialog, on another layout), falling back to REST when the socket is down or does not
answer. Playing a game: test_e2e_play.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import DESKTOP, api_post, needs_chromium, sign_up
from tests.frontend.game_checks import (
    DRAW,
    GAME_SOCKETS,
    a_game_with_a_move,
    assert_stored,
    counting_open_sockets,
    settled,
    wait_for_its_socket,
)
from tests.frontend.helpers import (
    SOLVER_PATIENCE_MS,
    click_move,
    line_for,
    new_deal,
    view,
    wait_for_the_socket,
    wait_new_game,
    wait_seq,
    watch_sockets,
    watch_starts,
    win_with_a_click,
)
from tests.play.helpers import winnable_code
from tripeaks.play.models import Game

pytestmark = [pytest.mark.e2e, needs_chromium]


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
    old = api_post(page, "/api/games", {"mode": "custom", "deal": code}).json()
    win_with_a_click(page, old, line_for(code))
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
    old = a_game_with_a_move(counting_open_sockets(page), "patient_pia")
    wait_for_its_socket(page)  # the new deal is asked on the socket, not by REST at once
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
