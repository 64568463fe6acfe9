"""The table's faults, fixed, in a real browser: Space on a focused button presses it, the home
page asks before it resigns a deal, a way out when the phone is held sideways, the first hint of
a ranked run warns, Start again asks, "1 move", focus after Continue, the deal named on the
Continue panel, a friendly word for a deal number out of range, the statistics chart."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import DESKTOP, PHONE, api_post, needs_chromium, sign_up
from tests.frontend.helpers import (
    line_for,
    open_game,
    play_by_api,
    view,
    wait_moves,
    wait_seq,
    wait_view,
    watch_starts,
)
from tests.play.helpers import winnable_code
from tripeaks.play.models import Deal, Game

pytestmark = [pytest.mark.e2e, needs_chromium]

DRAW = {"action": "draw"}
SIDEWAYS = {"width": 844, "height": 390}


def custom_game(page: Any, username: str, viewport_moves: int = 0) -> dict[str, Any]:
    """Signed up, on the game page of a classic custom deal (unranked), `viewport_moves` draws made
    (through the API, before the page's one load)."""
    sign_up(page, username)
    code, _ = winnable_code(5)
    started = api_post(page, "/api/games", {"mode": "custom", "deal": code})
    assert started.status == 201
    play_by_api(page, started.json(), [DRAW] * viewport_moves)  # the page's way: its own tests
    return open_game(page)


def random_game(page: Any, username: str) -> dict[str, Any]:
    """Signed up, on the game page of a ranked random classic deal."""
    sign_up(page, username)
    started = api_post(page, "/api/games", {"mode": "random", "rules": {"wrap": True}})
    assert started.status == 201
    return open_game(page)


def test_space_on_a_focused_undo_or_hint_presses_that_button(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    v = custom_game(page, "space_sid", viewport_moves=1)
    assert v["stock_left"] == 22
    page.locator(".controls [data-act=undo]").focus()
    page.keyboard.press(" ")
    undone = wait_moves(page, v["moves"] + 1)
    assert undone["stock_left"] == 23  # undone, not drawn
    page.locator(".controls [data-act=hint]").focus()
    page.keyboard.press(" ")
    page.wait_for_selector(".table .hinted")
    hinted = wait_view(page, f"(v) => v.hints > {undone['hints']}")
    assert hinted["stock_left"] == 23 and hinted["hints"] == 1
    # On the table Space still draws.
    page.locator(".table .stock").focus()
    page.keyboard.press(" ")
    assert wait_moves(page, hinted["moves"] + 1)["stock_left"] == 22


def test_the_home_page_asks_before_it_resigns_a_deal_in_progress(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    v = custom_game(page, "careful_cay", viewport_moves=1)
    page.goto("/#/")
    assert "Custom deal" in page.get_by_test_id("waiting-deal").inner_text()
    assert "1 move so far" in page.get_by_test_id("waiting-deal").inner_text()
    starts = watch_starts(page)
    page.get_by_role("button", name="New deal").first.click()
    dialog = page.locator("dialog[data-testid=resign-confirm]")
    assert "counts as lost" in dialog.inner_text()
    dialog.get_by_role("button", name="Cancel").click()
    dialog.wait_for(state="detached")
    page.get_by_role("button", name="Today's deal").first.click()
    page.locator("dialog[data-testid=resign-confirm]").get_by_role(
        "button", name="Continue my deal"
    ).click()
    assert wait_seq(page, v["seq"])["id"] == v["id"]
    assert starts == [] and Game.objects.get(pk=v["id"]).status == "playing"

    page.goto("/#/")
    page.get_by_role("button", name="New deal").first.click()
    page.locator("dialog[data-testid=resign-confirm]").get_by_role(
        "button", name="End it and start"
    ).click()
    page.wait_for_function(
        "(old) => window.__tpGame && window.__tpGame.view().id !== old", arg=v["id"]
    )
    assert Game.objects.get(pk=v["id"]).status == "lost"


def test_continue_puts_the_keyboard_on_the_table(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    v = custom_game(page, "focus_flo", viewport_moves=1)
    page.goto("/#/")
    page.get_by_test_id("continue").click()
    wait_seq(page, v["seq"])
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.closest('.table')"
    )
    page.keyboard.press("ArrowRight")
    assert page.evaluate("Boolean(document.activeElement.closest('.table'))")


def test_held_sideways_the_menu_leads_home_and_to_the_boards(pages: Any) -> None:
    page = pages.new(viewport=SIDEWAYS)
    custom_game(page, "sideways_sol")
    assert not page.locator(".site-header").is_visible()
    page.get_by_role("button", name="Menu (pauses the game)").click()
    menu = page.locator("dialog[data-testid=pause]")
    menu.get_by_role("button", name="Leaderboards").click()
    page.wait_for_function("() => location.hash === '#/boards'")
    page.locator(".site-header").wait_for(state="visible")
    page.goto("/#/play")  # still paused: the menu is open again
    page.locator("dialog[data-testid=pause]").get_by_role("button", name="Home").click()
    page.wait_for_function("() => location.hash === '#/'")


def test_the_first_hint_of_a_ranked_run_warns_first(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    v = random_game(page, "hinted_hal")
    page.keyboard.press("h")
    warning = page.locator("dialog[data-testid=hint-warning]")
    assert "will not be ranked" in warning.inner_text()
    warning.get_by_role("button", name="Keep it ranked").click()
    warning.wait_for(state="detached")
    page.wait_for_timeout(200)
    assert view(page)["seq"] == v["seq"] and not view(page)["assisted"]

    page.locator(".controls [data-act=hint]").click()
    warning.get_by_role("button", name="Show a hint").click()
    hinted = wait_view(page, f"(v) => v.hints > {v['hints']}")
    assert hinted["assisted"]
    page.wait_for_selector(".table .hinted")
    # Unranked now: the next hint comes at once.
    page.keyboard.press("h")
    wait_view(page, f"(v) => v.hints > {hinted['hints']}")
    assert page.locator("dialog[data-testid=hint-warning]").count() == 0


def test_start_again_asks_first(pages: Any) -> None:
    page = pages.new(viewport=PHONE)
    v = custom_game(page, "again_abe", viewport_moves=2)
    page.locator(".controls [data-act=restart]").click()
    dialog = page.locator("dialog[data-testid=restart-confirm]")
    dialog.get_by_role("button", name="Cancel").click()
    dialog.wait_for(state="detached")
    assert view(page)["seq"] == v["seq"] and view(page)["stock_left"] == 21
    page.locator(".controls [data-act=restart]").click()
    dialog.get_by_role("button", name="Start again").click()
    again = wait_view(page, f"(v) => v.seq > {v['seq']} && v.stock_left === 23")
    assert again["stock_left"] == 23


def test_a_deal_number_out_of_range_gets_a_friendly_word(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, "ranger_rae")
    page.goto("/#/numbered/60000")
    error = page.get_by_test_id("numbered-error")
    assert "numbered deals go from 1 to 50,000" in error.inner_text()
    starts = watch_starts(page)
    page.get_by_role("button", name="Play this deal").click()
    assert "numbered deals go from 1 to 50,000" in error.inner_text()
    assert starts == []


def test_a_challenge_link_opens_the_same_numbered_deal(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    page.goto("/#/numbered/1234/nowrap-open")
    link = page.get_by_test_id("challenge-link")
    assert link.inner_text().endswith("/#/numbered/1234/nowrap-open")
    assert page.locator("[name=number]").input_value() == "1234"
    assert page.locator("[name=rules]").input_value() == "nowrap-open"


def test_the_chart_leaves_out_unranked_games_and_tells_wins_from_losses(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, "charted_cho")
    # An unranked custom win: not on the chart.
    code, _ = winnable_code(11)
    game = api_post(page, "/api/games", {"mode": "custom", "deal": code}).json()
    for move in line_for(code):
        game = api_post(page, f"/api/games/{game['id']}/moves", {"seq": game["seq"], **move}).json()
    assert game["status"] == "won"
    # A ranked daily win, played fast, and a ranked loss.
    game = api_post(page, "/api/games", {"mode": "daily", "rules": {"wrap": True}}).json()
    daily = Deal.objects.get(source="daily", rules_key="wrap-closed", day=game["day"]).code
    for move in line_for(daily):
        game = api_post(page, f"/api/games/{game['id']}/moves", {"seq": game["seq"], **move}).json()
    assert game["status"] == "won"
    game = api_post(page, "/api/games", {"mode": "random", "rules": {"wrap": True}}).json()
    game = api_post(page, f"/api/games/{game['id']}/moves", {"seq": 0, "action": "draw"}).json()
    api_post(page, f"/api/games/{game['id']}/moves", {"seq": game["seq"], "action": "resign"})

    page.goto("/#/stats")
    chart = page.locator("svg.chart").first  # the recent results
    assert "2 ranked games: 1 won, 1 lost" in chart.get_attribute("aria-label")
    win = chart.locator("rect.win")
    loss = chart.locator("rect.loss")
    assert win.count() == 1 and loss.count() == 1
    axis = float(chart.locator("line.axis").get_attribute("y1"))
    win_bottom = float(win.get_attribute("y")) + float(win.get_attribute("height"))
    assert win_bottom <= axis < float(loss.get_attribute("y"))
