"""Helpers for the browser tests: read the page's game, drive it, make deals we can win."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

from django.utils import timezone

from tests.frontend.conftest import WAIT_MS, api_post, listen
from tests.play.helpers import api_moves
from tripeaks.arenas import services as arena_services
from tripeaks.arenas.models import Arena
from tripeaks.engine.deal import parse_code
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.engine.solver import solve


def view(page: Any) -> dict[str, Any]:
    return page.evaluate("window.__tpGame.view()")  # type: ignore[no-any-return]


# The page waits for its view itself, and answers with it: one DevTools command a wait, its
# polls timers (POLL_MS), where `wait_for_function` polled at every animation frame (the page
# drew frames for it: ~48 ms more of the machine's CPU a second of waiting than on a 100 ms
# timer, 10 s each way, measured here), answered with a handle to release and a `view` read
# after it. A page whose timers are faked (Playwright's clock) or that leaves its document
# meanwhile waits the old way.
POLL_MS = 20
_WAIT_VIEW = """async ([arg, ms]) => {
  const test = %s;
  if (!String(setTimeout).includes('[native code]')) return { __faked: true };
  const until = Date.now() + ms;
  for (;;) {
    const view = window.__tpGame && window.__tpGame.view();
    if (view && test(view, arg)) return view;
    if (Date.now() > until) throw new Error(`no view held (${test}) in ${ms} ms`);
    await new Promise((go) => setTimeout(go, %d));
  }
}"""


def _wait_view(
    page: Any, test: str, arg: Any = None, timeout_ms: float = WAIT_MS
) -> dict[str, Any]:
    """The page's view once `test` (a JavaScript function of the view and `arg`) holds. A
    function, not an expression: evaluated by DevTools (allowed under the CSP; an expression
    evaluated at each poll would be refused: no unsafe-eval)."""
    from playwright.sync_api import Error

    try:
        found = page.evaluate(_WAIT_VIEW % (test, POLL_MS), [arg, timeout_ms])
    except Error as error:
        if "context was destroyed" not in str(error):
            raise
        found = {"__faked": True}  # (its document left: the next one is waited for below)
    if found.get("__faked"):
        page.wait_for_function(
            f"(arg) => window.__tpGame && ({test})(window.__tpGame.view(), arg)",
            arg=arg,
            timeout=timeout_ms,
        )
        return view(page)
    return found  # type: ignore[no-any-return]


def wait_seq(page: Any, seq: int) -> dict[str, Any]:
    return _wait_view(page, f"(v) => v.seq >= {seq}")


def line_for(code: str, rules: Rules | None = None) -> list[dict[str, Any]]:
    """The solver's winning line for a deal code, as API moves."""
    rules = rules or Rules()
    deal = parse_code(code, get_layout("classic"), rules.start)
    solution = solve(deal, rules)
    assert solution.winnable
    return api_moves(solution.line)


def wait_view(page: Any, test: str) -> dict[str, Any]:
    """The page's view once `test` (a JavaScript function of the view) holds: the answer to an
    action waited for by what it changes (a socket's logged resume raises the seq as well)."""
    return _wait_view(page, test)


def wait_moves(page: Any, moves: int) -> dict[str, Any]:
    """The page's view once it counts `moves` of the player's moves (plays, draws, undos): a
    socket's logged resume raises the game's seq, not its moves, so it answers no wait here."""
    return wait_view(page, f"(v) => v.moves >= {moves}")


def click_move(page: Any, move: dict[str, Any]) -> None:
    """Make one move with the mouse and wait for the server's answer (the move counted, not just
    any action logged: a resume frame could answer a wait for the next seq)."""
    moves = view(page)["moves"]
    if move["action"] == "draw":
        page.locator(".table .stock").click()
    else:
        page.locator(f".table .pc[data-pos='{move['position']}']").click()
    wait_moves(page, moves + 1)


def play_by_api(page: Any, game: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """`moves` made in `game` (a view: its id and seq) through the API as the page's player; the
    last answer's view. For a line whose clicks are not what a test checks: a move clicked on the
    page was ~10 DevTools commands and its animation's frames drawn."""
    for move in moves:
        response = api_post(page, f"/api/games/{game['id']}/moves", {"seq": game["seq"], **move})
        assert response.status == 200, response.text()
        game = response.json()
    return game


def win_with_a_click(page: Any, game: dict[str, Any], line: list[dict[str, Any]]) -> Any:
    """`game` (a view) won: its winning `line` played through the API but for its last move, then
    the game page loaded (`open_game`) and the last move clicked; the results dialog it opens."""
    play_by_api(page, game, line[:-1])
    open_game(page)
    click_move(page, line[-1])
    dialog = page.locator("dialog[data-testid=results]")
    dialog.wait_for()
    return dialog


def open_game(page: Any) -> dict[str, Any]:
    """Load the game page afresh (a deal started through the API is news to an open page).

    The open page's address is set to the game's without a jump (no hashchange: the app draws no
    game page there), then loaded: the way there by `goto` drew the whole game page in the old
    page (its modules, its reads, its socket) for the reload to draw it again."""
    if page.url == "about:blank":  # nothing of the site loaded yet: its first load is afresh
        page.goto("/#/play")
    else:
        page.evaluate("() => history.replaceState(history.state, '', '/#/play')")
        page.reload()
    return wait_seq(page, 0)


def wait_new_game(page: Any, old_id: str, timeout_ms: float = WAIT_MS) -> dict[str, Any]:
    """Wait until the page plays a game other than `old_id` (in place or on a page built afresh)."""
    return _wait_view(page, "(v, old) => v.id !== old", old_id, timeout_ms)


# A new deal is proven winnable by the solver before it is dealt, which takes longer on a busy
# machine. A test of the socket path waits for the server's answer however long it takes, instead
# of racing the page's 4 s fallback to REST (test_new_deal_unanswered_... tests that one).
SOLVER_PATIENCE_MS = 60_000


def wait_for_the_socket(page: Any) -> None:
    """From now on the page waits for a new deal's answer on the socket, not for a timer."""
    page.evaluate(f"window.__tpGame.patience({SOLVER_PATIENCE_MS})")


def new_deal(page: Any, *, from_results: bool = False) -> str:
    """Ask for a new deal from the toolbar (or the results dialog) and deal it; returns the text of
    the new-deal dialog (it warns when the current deal will count as lost)."""
    if from_results:
        page.locator("dialog[data-testid=results]").get_by_role("button", name="New deal").click()
    else:
        page.locator(".controls [data-act=new]").click()
    dialog = page.locator("dialog[data-testid=new-deal]")
    text: str = dialog.inner_text()
    dialog.get_by_role("button", name="Deal", exact=True).click()
    return text


def watch_starts(page: Any) -> list[str]:
    """Every POST to /api/games... (a start or a REST move) the page makes from now on."""
    posted: list[str] = []
    listen(
        page,
        "request",
        lambda r: posted.append(r.url) if r.method == "POST" and "/api/games" in r.url else None,
    )
    return posted


def watch_sockets(page: Any) -> list[str]:
    """The URL of every WebSocket the page opens from now on."""
    opened: list[str] = []
    listen(page, "websocket", lambda ws: opened.append(ws.url))
    return opened


def an_arena(
    name: str,
    starts: timedelta = timedelta(seconds=-5),
    ends: timedelta = timedelta(minutes=10),
) -> Arena:
    """An arena of the wrap-closed rules from `starts` to `ends` after now (by default running:
    begun 5 s ago, 10 minutes to go)."""
    now = timezone.now()
    return arena_services.create_arena(
        name=name, rules_key="wrap-closed", starts_at=now + starts, ends_at=now + ends
    )


def pump_until(page: Any, done: Any, seconds: float = 10) -> None:
    """Let Playwright hand this side the page's events until `done()`: they come on its own
    schedule (under load, after the page's state). The wait only decides how soon a test whose
    event never comes fails."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        page.wait_for_timeout(50)
