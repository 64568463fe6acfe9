"""Issue #38, item 9: the game page's first card waits for the modules that draw a table only; the
rest (pages/play/live.js and its parts) makes the game live behind it, and the dialogs come when
the first one opens. Held back here by the browser's routing, each shows what the page does
without it: a tap on the drawn table before the game is live is played once it is, and a dialog
the game has moved past while its module was on its way stays shut."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.a11y_walk import player, signed_in
from tests.frontend.conftest import Pages, api_post, needs_chromium
from tests.frontend.helpers import pump_until, wait_view

pytestmark = [pytest.mark.e2e, needs_chromium]

# Every dialog the page opens, in order, whatever closes it after.
OPENED = """() => { window.__opened = [];
  new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes)
    if (n.nodeName === 'DIALOG') window.__opened.push(n.dataset.testid); })
    .observe(document.body, { childList: true, subtree: true }); }"""


class Held:
    """Requests for a static file held by the browser's routing until `release()`."""

    def __init__(self, page: Any, pattern: str) -> None:
        self.routes: list[Any] = []
        self.page = page
        self.pattern = pattern
        page.route(pattern, lambda route: self.routes.append(route))

    def asked(self) -> bool:
        """Whether the file was asked for, waiting for its request: the page asks as it handles
        a view, and Playwright hands the route to this process when it next reads its events
        (one test failed at random reading `routes` just after the view it waited for)."""
        pump_until(self.page, lambda: self.routes, seconds=30)
        return bool(self.routes)

    def release(self) -> None:
        for route in self.routes:
            route.continue_()
        self.page.unroute(self.pattern)


def a_player_with_a_deal(pages: Pages, name: str) -> Any:
    page = signed_in(pages, player(name))
    body = {"mode": "numbered", "number": 7, "rules": {"wrap": True}}
    assert api_post(page, "/api/games", body).status == 201  # (the CSRF cookie: `sign_in`'s)
    return page


def test_the_first_card_is_drawn_before_the_game_is_live_and_a_tap_then_counts(
    pages: Pages,
) -> None:
    page = a_player_with_a_deal(pages, "fc_tap")
    live = Held(page, "**/pages/play/live*.js")
    page.goto("/#/play")
    page.locator(".table .pc svg").first.wait_for()  # the first card, with live.js held
    page.wait_for_function("() => performance.getEntriesByName('tp-first-card').length > 0")
    assert page.evaluate("() => window.__tpGame === undefined")
    assert live.asked(), "live.js was not asked for"
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
    assert not [u for u in loaded if "/play/dialogs" in u or "/sound" in u or "/welcome" in u]
    stock = page.evaluate("() => JSON.parse(document.getElementById('boot').textContent).game")
    page.locator(".table .stock").click()  # a draw, before the game is live
    live.release()
    drawn = wait_view(page, "(v) => v.moves === 1")
    assert drawn["stock_left"] == stock["stock_left"] - 1


def test_a_dialog_the_game_has_moved_past_while_its_module_came_stays_shut(
    pages: Pages,
) -> None:
    page = a_player_with_a_deal(pages, "fc_menu")
    page.goto("/#/play")
    game = wait_view(page, "(v) => v.seq >= 0")
    page.evaluate(OPENED)
    dialogs = Held(page, "**/pages/play/dialogs*.js")
    page.keyboard.press("p")  # paused by the server: the menu is asked for, its module held
    paused = wait_view(page, "(v) => v.paused")
    assert dialogs.asked(), "dialogs.js was not asked for"
    resume = {"seq": paused["seq"], "action": "resume"}  # resumed elsewhere (another tab)
    assert api_post(page, f"/api/games/{game['id']}/moves", resume).status == 200
    wait_view(page, "(v) => !v.paused")
    dialogs.release()
    page.keyboard.press("n")  # a dialog asked for after: opened after the menu would have been
    page.locator("dialog[data-testid=new-deal]").wait_for()
    assert page.evaluate("() => window.__opened") == ["new-deal"]
