"""The game review in the browser (issue 39): a lost game replayed move by move with the keys, a
swipe and play at speed, its losing move shown ("From here the deal was lost") where the server's
analysis puts it, and the winning line from the position before it played on the table, showing
no card the game did not show. (Sharing, the ways in, the sizes and axe: test_e2e_review_*.py.)"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from playwright.sync_api import expect

from tests.frontend.conftest import PASSWORD, needs_chromium, sign_in
from tests.review.helpers import deal, played
from tripeaks.engine import game as engine
from tripeaks.engine.deal import parse_code
from tripeaks.engine.layouts import get_layout
from tripeaks.engine.rules import Rules
from tripeaks.play.models import Game
from tripeaks.review.tasks import analyse_game

pytestmark = [pytest.mark.e2e, needs_chromium]

RANKS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def card_name(token: str) -> str:
    """A card as the page names it in English ("7 of hearts")."""
    return f"{RANKS.get(token[0], token[0])} of {SUITS[token[1]]}"


def signed_up(page: Any, username: str) -> Any:
    """A new account, signed in in `page`'s browser by a session cookie (`sign_in`; the sign-up
    form is test_e2e_account's: here it only cost each test seconds)."""
    user = in_thread(
        lambda: get_user_model().objects.create_user(username=username, password=PASSWORD)
    )
    sign_in(page, user)
    return user


T = TypeVar("T")


def in_thread(work: Callable[[], T]) -> T:
    """`work` in a thread of its own: play's services send to the channel layer through
    async_to_sync, which refuses the thread Playwright's event loop runs in."""

    def run() -> T:
        try:
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def lost_game(player: Any, source: str = "custom", *, analysed: bool = True) -> Game:
    """`player`'s finished game on a winnable deal of `source` (made in a thread: `in_thread`)."""
    return in_thread(lambda: _lost_game(player, source, analysed))


def _lost_game(player: Any, source: str, analysed: bool) -> Game:
    """Its first free card that fits played, then the whole stock drawn, then resigned: a draw
    in there loses the deal. Analysed as the Celery task does it (in this process: the tests run
    no worker)."""
    on = deal(source)
    rules = Rules.from_key(on.rules_key)
    state = engine.new_game(parse_code(on.code, get_layout(on.layout), rules.start), rules)
    moves: list[tuple[str, int | None]] = []
    if state.playable():
        moves.append(("play", state.playable()[0]))
    moves += [("draw", None)] * state.stock_left
    game = played(player, on, moves)
    if analysed:
        assert analyse_game(str(game.pk))
    return game


def review_data(page: Any, game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """The game's replay and analysis as the page's player gets them from the API."""
    replay = page.request.get(f"/api/games/{game.pk}/replay")
    analysis = page.request.get(f"/api/games/{game.pk}/analysis")
    assert replay.status == 200 and analysis.status == 200
    return replay.json(), analysis.json()


# Right arrow `n` times; after each, the move's words and the names of the face-up cards on the
# table and the waste ("face down" and empties left out).
STEP_THROUGH = """(n) => Array.from({ length: n }, () => {
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  const cards = [...document.querySelectorAll('.table .pc:not([hidden])')]
    .map((el) => (el.getAttribute('aria-label') || '').replace(/^Waste: /, '').replace(/, covered$/, ''))
    .filter((name) => / of /.test(name));
  return { said: document.querySelector('[data-testid=review-move]').textContent, cards };
})"""


def test_a_lost_game_replays_move_by_move_and_shows_where_it_was_lost(pages: Any) -> None:
    page = pages.new()
    game = lost_game(signed_up(page, "review_rita"))
    replay, analysis = review_data(page, game)
    n, lose = len(replay["moves"]), analysis["losing_move"]
    assert lose is not None and 1 < lose < n
    page.goto(f"/#/review/{game.pk}")
    at, said = page.get_by_test_id("review-at"), page.get_by_test_id("review-move")
    expect(at).to_have_text(f"0/{n}")
    expect(page.get_by_test_id("analysis-lost-at")).to_contain_text(f"lost at move {lose}")
    for i in range(1, lose + 1):
        page.keyboard.press("ArrowRight")
        expect(at).to_have_text(f"{i}/{n}")
        waste = replay["positions"][i]["waste"]
        expect(page.locator(".table .waste")).to_have_attribute(
            "aria-label", f"Waste: {card_name(waste)}"
        )
    expect(said).to_contain_text(f"Move {lose} of {n}")
    expect(said).to_contain_text("From here the deal was lost")
    expect(page.get_by_test_id("losing-move")).to_have_attribute("data-i", str(lose))
    assert (
        page.locator(".review-strip .cell.losing").evaluate(
            "(c) => [...c.parentNode.children].indexOf(c)"
        )
        == lose
    )
    page.keyboard.press("ArrowLeft")
    expect(at).to_have_text(f"{lose - 1}/{n}")
    expect(said).not_to_contain_text("lost")
    page.keyboard.press("End")
    expect(at).to_have_text(f"{n}/{n}")
    page.keyboard.press("Home")
    expect(at).to_have_text(f"0/{n}")


def test_play_at_speed_a_swipe_and_the_slider_move_through_the_game(pages: Any) -> None:
    page = pages.new()
    game = lost_game(signed_up(page, "review_sam"))
    n = in_thread(lambda: game.log.filter(action__in=["play", "draw"]).count())
    page.goto(f"/#/review/{game.pk}")
    at = page.get_by_test_id("review-at")
    expect(at).to_have_text(f"0/{n}")
    page.get_by_test_id("review-speed").select_option("4")
    page.keyboard.press("Space")
    toggle = page.locator(".review-controls [data-act=toggle]")
    expect(toggle).to_contain_text("Pause")
    said = page.get_by_test_id("review-move")
    expect(said).to_have_attribute("aria-live", "off")  # not read out move after move
    page.wait_for_function(
        "() => parseInt(document.querySelector('[data-testid=review-at]').textContent) >= 3"
    )
    page.keyboard.press("Space")
    expect(toggle).to_contain_text("Play")
    expect(said).to_have_attribute("aria-live", "polite")
    page.get_by_test_id("review-slider").fill("5")
    expect(at).to_have_text(f"5/{n}")
    box = page.locator(".review-table").bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.7, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.3, y + 5, steps=4)
    page.mouse.up()
    expect(at).to_have_text(f"6/{n}")  # a swipe to the left: the next move
    page.locator(".review-list [data-jump='2']").click()
    expect(at).to_have_text(f"2/{n}")


def test_the_winning_line_plays_on_the_table_from_the_position_before_the_losing_move(
    pages: Any,
) -> None:
    page = pages.new()
    game = lost_game(signed_up(page, "review_wyn"))
    replay, analysis = review_data(page, game)
    n, lose, line = len(replay["moves"]), analysis["losing_move"], analysis["winning_line"]
    seen = {
        card_name(p["card"]) for pos in replay["positions"] for p in pos["positions"] if p["card"]
    }
    seen |= {card_name(pos["waste"]) for pos in replay["positions"] if pos["waste"]}
    page.goto(f"/#/review/{game.pk}")
    page.get_by_test_id("show-winning-line").click()
    at, said = page.get_by_test_id("review-at"), page.get_by_test_id("review-move")
    expect(at).to_have_text(f"{lose - 1}/{n}")
    expect(said).to_contain_text(f"Winning line: step 0 of {len(line)}")
    first = "stock" if line[0] == "draw" else str(line[0])
    glowing = page.locator(".table .hinted")
    expect(glowing).to_have_count(1)
    assert glowing.evaluate("(el) => el.dataset.place || el.dataset.pos") == first
    # Every step of the line at once in the page (a key's step draws at once): the cards shown.
    steps = page.evaluate(STEP_THROUGH, len(line))
    for step, shown in enumerate(steps, 1):
        assert f"step {step} of {len(line)}" in shown["said"]
        assert set(shown["cards"]) <= seen, f"step {step} shows a card the game never showed"
    expect(said).to_contain_text("The table is clear")
    expect(page.locator(".table .pc[data-pos]:visible")).to_have_count(0)
    page.get_by_test_id("back-to-game").click()
    expect(said).to_contain_text(f"Move {lose - 1} of {n}")
    expect(page.get_by_test_id("back-to-game")).to_be_hidden()
