"""The table in a real browser, as a contest and as a solo game: a race's table has no Undo, Start
again, Hint, menu (pause) or New deal, and its keys send nothing; a solo game pauses while its
page is hidden and resumes when it is shown again (the clock is the time the cards were on
screen), where a race's never pauses."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.frontend.conftest import DESKTOP, api_post, listen, needs_chromium, sign_up
from tests.frontend.helpers import click_move, open_game, pump_until, view, wait_seq, wait_view
from tests.play.contests import begun_race, game_of
from tests.play.helpers import winnable_code

pytestmark = [pytest.mark.e2e, needs_chromium]

TOOLS = ("undo", "hint", "restart", "new", "pause")


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races deal from the pool (tests/conftest.py)."""


def set_visibility(page: Any, state: str) -> None:
    """The page hidden or shown, as the browser tells it when the tab changes."""
    page.evaluate(
        """(state) => {
            Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => state});
            Object.defineProperty(document, 'hidden', {configurable: true, get: () => state === 'hidden'});
            document.dispatchEvent(new Event('visibilitychange'));
        }""",
        state,
    )


def game_socket_frames(page: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every frame the page sends, and every frame it receives, on a game socket from now on."""
    sent: list[dict[str, Any]] = []
    heard: list[dict[str, Any]] = []

    def watch(socket: Any) -> None:
        if "/ws/games/" in socket.url:
            socket.on("framesent", lambda frame: sent.append(json.loads(frame)))
            socket.on("framereceived", lambda frame: heard.append(json.loads(frame)))

    listen(page, "websocket", watch)
    return sent, heard


def test_a_race_table_has_no_way_back_no_hint_no_pause_and_no_new_deal(
    pages: Any, settings: Any
) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, "table_ann", "Ann")
    ann = get_user_model().objects.get(username="table_ann")
    bob = get_user_model().objects.create_user(username="table_bob", password="x" * 20)
    race = begun_race(ann, bob, settings)
    sent, heard = game_socket_frames(page)
    page.goto(f"/#/races/{race.pk}")
    game = wait_seq(page, 0)
    # The page shows the game before its socket is up, and a move made meanwhile goes by POST
    # (it failed here under load): the socket's first frame (the view) comes once it is open.
    pump_until(page, lambda: heard)
    assert game["id"] == str(game_of(race, ann).pk) and game["contest"] is True

    table = page.locator("[data-testid=race-table]")
    assert table.locator(".controls").count() == 0
    for act in TOOLS:
        assert table.locator(f"[data-act={act}]").count() == 0, act
    assert table.locator(".round-undo").count() == 0

    click_move(page, {"action": "draw"})
    drawn = view(page)
    for key in ("z", "u", "Backspace", "h", "n", "p", "Escape"):
        page.keyboard.press(key)
    set_visibility(page, "hidden")  # a race's clock is the race's: hiding does not pause
    set_visibility(page, "visible")
    # One more draw after the keys: its answer comes after anything the keys had sent.
    click_move(page, {"action": "draw"})
    # The page has the answer; let the frame events reach this side before comparing.
    pump_until(page, lambda: len(sent) >= 2)
    assert [frame.get("action") for frame in sent] == ["draw", "draw"], sent
    after = view(page)
    assert after["seq"] == drawn["seq"] + 1 and not after["paused"]
    assert page.locator("dialog[open]").count() == 0


def test_hiding_the_page_pauses_a_solo_game_and_showing_it_resumes(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, "hider_hal", "Hal")
    code, _ = winnable_code(5)
    assert api_post(page, "/api/games", {"mode": "custom", "deal": code}).status == 201
    game = open_game(page)
    assert game["contest"] is False and page.locator(".controls [data-act=undo]").count() == 1
    click_move(page, {"action": "draw"})

    set_visibility(page, "hidden")
    # Each answer is waited for by what it changes (a socket's logged resume raises the seq too).
    paused = wait_view(page, "(v) => v.paused")
    assert paused["paused"] and not paused["clock_running"]
    set_visibility(page, "visible")
    resumed = wait_view(page, "(v) => !v.paused")
    assert not resumed["paused"] and resumed["clock_running"]
    page.wait_for_selector("dialog[data-testid=pause]", state="detached")

    # A pause the player chose stays when the page is hidden and shown again.
    page.keyboard.press("p")
    chosen = wait_view(page, "(v) => v.paused")
    assert chosen["paused"]
    set_visibility(page, "hidden")
    set_visibility(page, "visible")
    page.wait_for_timeout(300)
    assert view(page)["seq"] == chosen["seq"] and view(page)["paused"]
