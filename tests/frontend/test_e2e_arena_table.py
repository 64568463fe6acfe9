"""Arenas in a real browser at a phone's size (390x844) and a desktop's (1366x800): an arena is
joined from the list, where each coming or running arena counts down; its games are played on the
arena's own page with the standings beside the table (a strip on a phone), no solo control and no
solo dialog; after a deal the next one is a click away."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.frontend.conftest import api_post, needs_chromium, shot, sign_up
from tests.frontend.helpers import an_arena, click_move, view, wait_seq
from tripeaks.play.models import Game

pytestmark = [pytest.mark.e2e, needs_chromium]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 800}
SOLO_TOOLS = ("undo", "hint", "restart", "new", "pause")


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Arena games deal from the pool (tests/conftest.py)."""


def arenas_now() -> tuple[Any, Any]:
    """One arena running for ten minutes, one starting in an hour."""
    running = an_arena("Running arena")
    coming = an_arena("Coming arena", timedelta(hours=1), timedelta(hours=1, minutes=10))
    return running, coming


def when(page: Any, arena: Any) -> str:
    return str(page.locator(f"[data-arena='{arena.pk}']").inner_text())


@pytest.mark.parametrize(
    "size", [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
)
def test_an_arena_is_joined_from_the_list_and_played_beside_its_standings(
    pages: Any, size: dict[str, int]
) -> None:
    running, coming = arenas_now()
    page = pages.new(viewport=size)
    sign_up(page, "table_ann", "Ann")
    page.goto("/#/arenas")
    # A countdown to each: the coming arena's start, the running one's end, each second anew.
    coming_at = when(page, coming)
    assert coming_at.startswith(("Starts in 0h 59m", "Starts in 1h 00m")), coming_at
    assert when(page, running).startswith("Ends in 0h 09m"), when(page, running)
    page.wait_for_function(
        "([id, was]) => document.querySelector(`[data-arena='${id}']`).textContent !== was",
        arg=[str(coming.pk), coming_at],
    )
    assert page.locator(f"[data-join='{coming.pk}']").is_visible()

    page.locator(f"[data-join='{running.pk}']").click()
    page.wait_for_url(f"**/#/arenas/{running.pk}")
    page.locator("[data-testid=standings] tr.mine:has-text('Ann')").wait_for()
    page.get_by_role("button", name="Play the next game").click()
    game = wait_seq(page, 0)
    assert Game.objects.get(pk=game["id"]).contest == f"arena-{running.pk}"
    assert f"/#/arenas/{running.pk}" in page.url

    # The table, its bar and the standings beside it; nothing a contest refuses.
    table = page.locator("[data-testid=arena-table]")
    assert table.is_visible() and table.locator(".table .pc").count() > 0
    assert "Running arena" in table.locator("[data-testid=deal-title]").inner_text()
    side = page.locator("[data-testid=arena-side]")
    assert "Ann" in side.inner_text()
    for act in SOLO_TOOLS:
        assert page.locator(f"[data-act={act}]").count() == 0, act
    assert table.locator(".round-undo, .controls, [data-testid=ranking]").count() == 0
    assert page.locator(".arena-page").is_hidden()  # the arena's own page makes room
    card = page.locator(".table .pc[data-pos='0']").bounding_box()
    side_box = side.bounding_box()
    stage = page.locator(".arena-stage").bounding_box()
    if size is DESKTOP:  # beside the table, not over it
        assert side_box["x"] >= stage["x"] + stage["width"] - 1
    else:  # a strip above it
        assert side_box["height"] <= 40 and side_box["y"] + side_box["height"] <= stage["y"] + 1
    least = 38 if size is PHONE else 90  # a solo game's are 38 and 112 on these screens
    assert card["width"] >= least, card
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]

    # A draw, then the deal given up (a resignation, as End deal sends it): no solo dialog, and
    # the next deal is offered in the table's place.
    click_move(page, {"action": "draw"})
    shot(page, f"arena-table-{size['width']}")
    drawn = view(page)
    resign = {"seq": drawn["seq"], "action": "resign"}
    assert api_post(page, f"/api/games/{drawn['id']}/moves", resign).status == 200
    page.locator("[data-testid=arena-between]").wait_for()
    assert page.locator("dialog[open]").count() == 0
    assert "Deal over" in page.locator("[data-testid=arena-outcome]").inner_text()
    page.get_by_role("button", name="Play the next game").click()
    page.wait_for_function(
        "(old) => window.__tpGame && window.__tpGame.view().id !== old", arg=game["id"]
    )
    assert view(page)["contest"] is True
