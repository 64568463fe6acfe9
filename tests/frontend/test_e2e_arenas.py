"""The arenas in a real browser at phone size: the list shows a running arena, a player joins it
from its page, the standings render, and another player's join arrives over the socket."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tests.frontend.conftest import PHONE, needs_chromium, shot, sign_up
from tests.frontend.helpers import an_arena, wait_seq
from tripeaks.arenas import services
from tripeaks.play.models import Game

pytestmark = [pytest.mark.e2e, needs_chromium]


def test_a_player_joins_a_running_arena_on_a_phone(pages: Any) -> None:
    arena = an_arena("Phone arena")
    page = pages.new(viewport=PHONE)
    sign_up(page, "arena_ann", "Ann")
    page.goto("/arenas/")
    running = page.locator("[data-testid=arena-running]")
    running.get_by_role("link", name="Phone arena").click()
    page.wait_for_selector("[data-testid=arena-name]:has-text('Phone arena')")
    assert "Ends in" in page.locator("[data-testid=arena-clock]").inner_text()
    page.get_by_role("button", name="Join").click()
    standings = page.locator("[data-testid=standings]")
    standings.locator("tr.mine:has-text('Ann')").wait_for()
    page.get_by_role("button", name="Play the next game").wait_for()
    assert "A won game scores 2 points" in page.inner_text("main")

    # Another player joins (here, not in the browser; in a thread of its own, as Playwright's
    # loop runs in this one): the socket brings the new line.
    def bob_joins() -> None:
        try:
            bob = get_user_model().objects.create_user(username="arena_bob", password="x" * 20)
            services.join(arena_id=arena.pk, user=bob)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(bob_joins).result()
    standings.locator("tr:has-text('arena_bob')").wait_for()
    assert standings.locator("tbody tr").count() == 2
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the arena page scrolls sideways on a phone"
    shot(page, "arena-phone")

    # The game opens on the arena's own page: the arena's game, its moves the usual ones.
    page.get_by_role("button", name="Play the next game").click()
    game = wait_seq(page, 0)
    assert f"/#/arenas/{arena.pk}" in page.url
    assert Game.objects.get(pk=game["id"]).contest == f"arena-{arena.pk}"
