"""A racer's own race page, in a real browser at a phone's size (390x844) and a desktop's
(1366x800): the race socket sends no progress of the player's own moves, so their page never asks
for a sync over them, and the other racers' progress and changes still show in the strip. (Apart
from test_e2e_race_table.py, which was 36 s on one worker of a suite run.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.frontend.conftest import (
    api_post,
    init_script,
    needs_chromium,
    shot,
    sign_in,
    sign_up,
)
from tests.frontend.helpers import click_move, wait_seq
from tests.frontend.test_e2e_race_table import DESKTOP, SIZES, make_user
from tests.play.contests import game_of
from tripeaks.engine.rules import Rules
from tripeaks.races import clock, presence
from tripeaks.races import services as races
from tripeaks.races.models import Race

pytestmark = [pytest.mark.e2e, needs_chromium]


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races deal from the pool (tests/conftest.py)."""


# Every frame the page's sockets send, kept in `window.__sent` as [url, text].
RECORD_SENT = """(() => {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { window.__sent.push([this.url, String(data)]); return send.call(this, data); };
})()"""
SYNCS = """() => window.__sent.filter(([url, text]) => url.includes('/ws/races/') && JSON.parse(text).type === 'sync').length"""


def three_seat_race(users: list[Any], settings: Any) -> Race:
    """A running race of three, each with their game on its deal."""
    settings.RACE_COUNTDOWN_S = 0
    race = races.create_race(host=users[0], rules=Rules(), seats=3)
    for user in users[1:]:
        races.join_race(race_id=race.pk, user=user)
    clock.advance_race_clock(race_id=race.pk)  # its start instant has come (0 s countdown)
    for user in users:
        presence.seen(race_id=race.pk, user_id=user.pk)  # nobody may be claimed against yet
    return race


def requester(pages: Any, user: Any) -> Any:
    """A page signed in as `user` for its requests (no race page of theirs)."""
    return sign_in(pages.new(viewport=DESKTOP), user)  # (its CSRF cookie: `sign_in`'s)


@pytest.mark.parametrize("size", SIZES)
def test_the_racers_own_moves_ask_for_no_sync_and_the_others_show_right(
    pages: Any, settings: Any, size: dict[str, int]
) -> None:
    """The race socket sends no progress of the player's own moves (their page shows the others),
    so their own `seq` in the next race frame has moved on by their moves: no gap to sync on.
    The others' progress and changes still show in the strip."""
    page = pages.new(viewport=size)
    init_script(page, RECORD_SENT)
    sign_up(page, f"own_ann_{size['width']}", "Ann")
    ann = get_user_model().objects.get(username=f"own_ann_{size['width']}")
    bob, carol = (make_user(f"own_{who}_{size['width']}") for who in ("bob", "carol"))
    race = three_seat_race([ann, bob, carol], settings)
    page.goto(f"/#/races/{race.pk}")
    wait_seq(page, 0)
    strip = page.locator("[data-testid=race-players]")
    strip.locator(f"[data-player={bob.username}]").wait_for()
    assert strip.locator(f"[data-player={ann.username}]").count() == 0

    # Ann draws twice on her table; Bob plays a card (or draws): her strip shows his count.
    click_move(page, {"action": "draw"})
    click_move(page, {"action": "draw"})
    bob_page, carol_page = (requester(pages, user) for user in (bob, carol))
    bob_game = game_of(race, bob).pk
    start = bob_page.request.get(f"/api/games/{bob_game}").json()
    playable = start["playable"]
    move = {"action": "play", "position": playable[0]} if playable else {"action": "draw"}
    moved = api_post(bob_page, f"/api/games/{bob_game}/moves", {"seq": 0, **move})
    assert moved.status == 200, moved.text()
    bob_left = moved.json()["cards_left"]
    left = strip.locator(f"[data-player={bob.username}] [data-testid=cards-left]")
    page.wait_for_function(
        "([sel, left]) => document.querySelector(sel)?.textContent === String(left)",
        arg=[f"[data-player={bob.username}] [data-testid=cards-left]", bob_left],
    )

    # Carol gives up: the race's next frame, with Ann's seq two on from what her page holds.
    before = page.evaluate(SYNCS)
    assert api_post(carol_page, f"/api/races/{race.pk}/leave", {}).status == 200
    status = strip.locator(f"[data-player={carol.username}] [data-testid=player-status]")
    status.filter(has_text="left").wait_for()
    assert page.evaluate(SYNCS) == before  # sent in the same turn as the frame, had it synced
    assert left.inner_text() == str(bob_left)
    assert page.locator("[data-testid=race-state][data-state=running]").count() == 1
    shot(page, f"race-others-{size['width']}")
