"""Fair play in a real browser: the play page says before the first move whether the run is the
ranked first try or practice; the fair-play page renders under the enforced CSP; the browser gets
its device cookie, and the games it starts carry it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import DESKTOP, api_post, needs_chromium, sign_up
from tests.frontend.helpers import open_game
from tripeaks.infra.devices import DEVICE_COOKIE
from tripeaks.play.models import Game

pytestmark = [pytest.mark.e2e, needs_chromium]


def test_the_play_page_says_first_try_then_practice_before_the_first_move(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    sign_up(page, "label_lou", "Lou")
    assert api_post(page, "/api/games", {"mode": "daily"}).status == 201
    game = open_game(page)
    label = page.get_by_test_id("ranking")
    assert game["moves"] == 0 and label.inner_text() == "Ranked: first try"
    assert "first try" in (label.get_attribute("title") or "")
    device = next(c["value"] for c in page.context.cookies() if c["name"] == DEVICE_COOKIE)
    assert Game.objects.get(pk=game["id"]).device == device

    for action in ("draw", "resign"):
        seq = 0 if action == "draw" else 1
        moved = api_post(page, f"/api/games/{game['id']}/moves", {"seq": seq, "action": action})
        assert moved.status == 200
    assert api_post(page, "/api/games", {"mode": "daily"}).status == 201
    again = open_game(page)
    assert again["id"] != game["id"] and again["ranking"] == "practice"
    page.wait_for_function(
        "() => document.querySelector('[data-testid=ranking]').textContent === 'Practice'"
    )


def test_the_fair_play_page_renders_under_the_enforced_csp(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    page.goto("/fair-play/")
    assert page.get_by_role("heading", name="Fair play", level=1).is_visible()
    assert page.get_by_role("heading", name="Your first try counts").is_visible()
