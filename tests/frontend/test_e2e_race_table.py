"""A race on the whole table, in a real browser at a phone's size (390x844) and a desktop's
(1366x800): its cards are at least as big as a solo game's on the same screen, the other racers a
one-line strip; the game shows nothing a contest refuses and no solo bar; the race's one clock
stops for everyone at the end, which is the race's own results (never the solo dialog); and a
public race can be watched from the lobby: progress only, and no card ever reaches a watcher."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.frontend.axe import SETTLED
from tests.frontend.conftest import api_post, listen, needs_chromium, not_reused, shot, sign_up
from tests.frontend.helpers import click_move, open_game, view, wait_seq
from tests.frontend.test_e2e_races import open_two_seats
from tests.play.contests import begun_race
from tests.play.helpers import winnable_code
from tests.races.helpers import winning_line
from tripeaks.races.models import Race

pytestmark = [pytest.mark.e2e, needs_chromium]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 800}
SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
SOLO_TOOLS = ("undo", "hint", "restart", "new", "pause")


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races deal from the pool (tests/conftest.py)."""


def card_box(page: Any) -> dict[str, float]:
    """The first layout card's box on screen."""
    box: dict[str, float] = page.locator(".table .pc[data-pos='0']").bounding_box()
    return box


# Resolves once the first layout card's box has not moved for three animation frames in a row.
STEADY = """() => new Promise((done) => {
  const box = () => JSON.stringify(document.querySelector(".table .pc[data-pos='0']").getBoundingClientRect());
  let last = box(), same = 0;
  const frame = () => {
    const now = box();
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= 3) done(true); else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})"""


def steady_card_box(page: Any) -> dict[str, float]:
    """`card_box` once the table holds still: it takes its place's final size from a resize
    observer, some frames after the page is drawn (a fixed 100 ms wait before, a guess that a
    loaded machine could miss)."""
    page.wait_for_function(SETTLED)
    page.evaluate(STEADY)
    return card_box(page)


def make_user(username: str) -> Any:
    return get_user_model().objects.create_user(username=username, password="x" * 20)


@pytest.mark.parametrize("size", SIZES)
def test_a_race_card_is_as_big_as_a_solo_card_and_the_race_shows_no_solo_control(
    pages: Any, settings: Any, size: dict[str, int]
) -> None:
    page = pages.new(viewport=size)
    sign_up(page, "big_ann", "Ann")
    code, _ = winnable_code(5)
    assert api_post(page, "/api/games", {"mode": "custom", "deal": code}).status == 201
    open_game(page)
    solo = steady_card_box(page)

    ann = get_user_model().objects.get(username="big_ann")
    race = begun_race(ann, make_user("big_bob"), settings)
    page.goto(f"/#/races/{race.pk}")
    wait_seq(page, 0)
    page.wait_for_selector("[data-player=big_bob]")
    raced = steady_card_box(page)
    assert raced["width"] >= solo["width"], (raced, solo)
    assert raced["height"] >= solo["height"], (raced, solo)
    # The opponents are one line, never the table's room.
    strip = page.locator("[data-testid=race-players]").bounding_box()
    assert strip["height"] <= 40, strip
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]

    # What a contest allows, and the race named in the bar: no tool, no menu, no solo bar.
    for act in SOLO_TOOLS:
        assert page.locator(f"[data-act={act}]").count() == 0, act
    assert page.locator(".round-undo, .controls, [data-testid=ranking]").count() == 0
    title = page.locator("[data-testid=deal-title]")
    assert "Race" in title.text_content() and "New deal" not in title.text_content()
    assert "Unranked" not in page.inner_text("body")
    shot(page, f"race-table-{size['width']}")


def race_clock(page: Any) -> str:
    return str(page.locator("[data-testid=race-clock]").inner_text())


def test_the_countdown_is_on_the_table_and_the_end_is_the_races_results_with_one_stopped_clock(
    pages: Any,
) -> None:
    ann = pages.new(viewport=DESKTOP)
    bob = pages.new(viewport=PHONE)
    for page in (ann, bob):
        not_reused(
            page
        ).clock.install()  # the pages' clocks run, and are moved on below instead of waited
    sign_up(ann, "ends_ann", "Ann")
    sign_up(bob, "ends_bob", "Bob")
    race_id = open_two_seats(ann)
    bob.goto(f"/#/races/{race_id}")
    bob.locator("[data-testid=race-join]").click()
    # The countdown stands on the table's place, big, on both screens.
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=race-state][data-state=countdown]")
        count = page.locator("[data-testid=race-table] [data-testid=race-countdown]")
        assert count.is_visible() and count.inner_text() in {"1", "2", "3"}
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=race-state][data-state=running]")
        wait_seq(page, 0)
        assert not page.locator("[data-testid=race-countdown]").is_visible()

    # Bob draws once; Ann clears the layout.
    click_move(bob, {"action": "draw"})
    line = winning_line(race_id)
    click_move(ann, line[0])
    seq = 1
    for move in line[1:]:
        answer = api_post(ann, f"/api/games/{view(ann)['id']}/moves", {"seq": seq, **move})
        assert answer.status == 200, answer.text()
        seq += 1

    race = Race.objects.get(pk=race_id)
    assert race.state == "finished" and race.finished_at and race.starts_at
    took = int((race.finished_at - race.starts_at).total_seconds())
    stopped = f"{took // 60}:{took % 60:02d}"
    for page in (ann, bob):
        page.wait_for_selector("[data-testid=race-state][data-state=finished]")
        results = page.locator("[data-testid=race-results]")
        results.wait_for()
        assert "Ann wins" in results.inner_text()
        rows = results.locator("tbody tr")
        assert rows.nth(0).get_attribute("data-player") == "ends_ann"
        assert rows.nth(0).locator("[data-testid=place]").inner_text() == "1"
        assert rows.nth(1).locator("[data-testid=place]").inner_text() == "2"
        assert rows.nth(0).locator("[data-testid=race-time]").inner_text() != "–"
        assert rows.nth(0).locator("[data-testid=rating-change]").inner_text().startswith("+")
        assert results.get_by_role("button", name="Rematch").is_visible()
        assert results.get_by_role("link", name="Next race").is_visible()
        # Never the solo dialog, its statistics or its New deal.
        assert page.locator("dialog[open]").count() == 0
        assert "You won!" not in page.inner_text("body")
        assert page.locator("[data-testid=race-table] .table").is_hidden()
    # One clock for all, stopped at the race's end: the same on both screens, and it stays.
    page_clocks = [race_clock(ann), race_clock(bob)]
    assert page_clocks == [stopped, stopped], (page_clocks, stopped)
    for page in (ann, bob):
        page.clock.run_for(1500)  # its timers fire as in 1.5 s: a clock still running would move
    assert [race_clock(ann), race_clock(bob)] == page_clocks
    shot(ann, "race-results-1366")
    shot(bob, "race-results-390")


@pytest.mark.parametrize("size", SIZES)
def test_a_public_race_is_watched_from_the_lobby_as_progress_with_no_card(
    pages: Any, settings: Any, size: dict[str, int]
) -> None:
    ann = pages.new(viewport=DESKTOP)
    carol = pages.new(viewport=size)
    sign_up(ann, "shown_ann", "Ann")
    sign_up(carol, "watch_carol", "Carol")
    user = get_user_model().objects.get(username="shown_ann")
    race = begun_race(user, make_user("shown_bob"), settings)
    heard: list[Any] = []
    listen(
        carol, "websocket", lambda ws: ws.on("framereceived", lambda f: heard.append(json.loads(f)))
    )

    carol.goto("/#/races")
    live = carol.locator("[data-testid=live-races]")
    live.locator(f"[data-watch='{race.pk}']").click()
    carol.wait_for_url(f"**/#/races/{race.pk}")
    carol.wait_for_selector("[data-testid=race-state][data-state=running]")
    strip = carol.locator("[data-testid=race-players]")
    strip.locator("[data-player=shown_ann]").wait_for()
    assert strip.locator("[data-player=shown_bob]").count() == 1
    assert "Watching" in carol.locator("[data-testid=deal-title]").inner_text()

    # Ann plays a card: Carol sees her cards left go down, and never a card.
    ann.goto(f"/#/races/{race.pk}")
    start = wait_seq(ann, 0)
    playable = start["playable"][0] if start["playable"] else None
    move = {"action": "play", "position": playable} if playable is not None else {"action": "draw"}
    click_move(ann, move)
    left = view(ann)["cards_left"]
    carol.wait_for_function(
        '(left) => document.querySelector("[data-player=shown_ann] [data-testid=cards-left]")'
        "?.textContent === String(left)",
        arg=left,
    )
    assert carol.locator(".pc, .table, svg.face, [data-testid=race-countdown]:visible").count() == 0
    assert carol.evaluate("window.__tpGame === undefined")
    cards = set(Race.objects.select_related("deal").get(pk=race.pk).deal.code.split())
    assert heard and not [f for f in heard if cards & set(strings(f))], heard
    assert not any(f.get("race", {}).get("game") for f in heard)
    shot(carol, f"race-watch-{size['width']}")


def strings(found: Any) -> list[str]:
    """Every string in a JSON value, at any depth."""
    if isinstance(found, dict):
        return [s for v in found.values() for s in strings(v)]
    if isinstance(found, list):
        return [s for v in found for s in strings(v)]
    return [found] if isinstance(found, str) else []
