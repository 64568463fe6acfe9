"""Issue 38, item 3 (and item 2's flagged run), in a real browser at a phone's size and a
desktop's, against a server with the production limits and the timing check on (the suite's own
server has them off: it plays machine-fast from one address): every refusal is said on screen
with its wait, counted down, and a refused hint's old glow goes; a run the timing check holds
says so in the results, with the way to the fair-play page."""

from __future__ import annotations

import contextlib
import multiprocessing
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from accounts.services import guests
from tests.frontend.conftest import (
    PHONE,
    Pages,
    _answers,
    _serve,
    api_post,
    needs_chromium,
    shot,
    sign_up,
)
from tests.frontend.helpers import line_for, open_game, view
from tests.play.helpers import winnable_code
from tests.ports import free_port
from tripeaks.config import settings as production
from tripeaks.infra import throttling
from tripeaks.play import solver_guard
from tripeaks.play.models import Deal, Game

pytestmark = [pytest.mark.e2e, needs_chromium]

SIZES = [
    pytest.param(PHONE, id="390x844"),
    pytest.param({"width": 1366, "height": 800}, id="1366x800"),
]
# The production limits but the front gate's (tests/reliability/test_front_gate.py): the script
# below plays a run at machine speed to be held by the timing check, not to be refused at the gate.
LIMITS = {
    name: rate
    for name, rate in production.PLAY_THROTTLE_RATES.items()
    if not name.startswith(("api_", "socket_open_"))
}
HINTS_A_MINUTE = 20  # LIMITS["solver"]
GAME_STARTS_A_MINUTE = 30  # LIMITS["game_start"]
GUESTS_AN_HOUR = 10  # LIMITS["guest_address"]


@pytest.fixture(scope="module")
def limited_url(server_url: str, django_db_blocker: Any) -> Iterator[str]:
    """A second test server (the same database and Redis prefix) forked with the production
    limits and the fair-play timing check on."""
    from django.conf import settings
    from django.db import connections

    assert LIMITS["solver"] == f"{HINTS_A_MINUTE}/min"
    assert LIMITS["game_start"] == f"{GAME_STARTS_A_MINUTE}/min"
    assert LIMITS["guest_address"] == f"{GUESTS_AN_HOUR}/hour"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    static_root = Path(tempfile.mkdtemp(prefix="tripeaks-static-"))
    saved = settings.PLAY_THROTTLE_RATES, settings.FAIR_PLAY_TIMING_CHECK
    settings.PLAY_THROTTLE_RATES, settings.FAIR_PLAY_TIMING_CHECK = LIMITS, True
    process = multiprocessing.get_context("fork").Process(
        target=_serve, args=(port, static_root), daemon=True
    )
    try:
        with django_db_blocker.unblock():
            connections.close_all()
            process.start()
    finally:
        settings.PLAY_THROTTLE_RATES, settings.FAIR_PLAY_TIMING_CHECK = saved
    deadline = time.monotonic() + 120
    while not _answers(url):
        if not process.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the limited test server did not start")
        time.sleep(0.2)
    yield url
    process.terminate()
    process.join(15)
    if process.is_alive():
        process.kill()
        process.join()
    shutil.rmtree(static_root, ignore_errors=True)


@pytest.fixture
def limited(browser: Any, limited_url: str, transactional_db: Any) -> Iterator[Pages]:
    made = Pages(browser, limited_url)
    yield made
    made.close()
    # The browser logs each refusal's status; the refusals are what these tests make.
    errors = [e for e in made.errors if "responded with a status of 429" not in e]
    assert errors == [], f"console errors: {errors}"


@pytest.fixture
def limits_here(settings: Any) -> None:
    """This process counts against the same limits as the limited server (the same Redis keys)."""
    settings.PLAY_THROTTLE_RATES = LIMITS


def notice_wait(page: Any, words: str) -> int:
    """The notice, on screen, says `words` and a wait in seconds or minutes: the wait in
    seconds (the page says seconds up to 90 of them, so an hour's window near its end shows,
    e.g., "81 seconds")."""
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    box = notice.bounding_box()
    size = page.viewport_size
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
    text = notice.inner_text()
    found = re.fullmatch(re.escape(words) + r" (\d+) (seconds?|minutes?)(, or sign in)?\.", text)
    assert found, text
    return int(found.group(1)) * (60 if found.group(2).startswith("minute") else 1)


def custom_table(page: Any, name: str) -> dict[str, Any]:
    sign_up(page, name)
    assert (
        api_post(page, "/api/games", {"mode": "custom", "deal": winnable_code(5)[0]}).status == 201
    )
    return open_game(page)


@pytest.mark.parametrize("viewport", SIZES)
def test_the_hint_over_the_limit_says_its_wait_on_screen_and_its_old_glow_goes(
    limited: Pages, viewport: dict[str, int]
) -> None:
    page = limited.new(viewport=viewport)
    game = custom_table(page, f"hinter_{viewport['width']}")
    hinted = page.locator(".table .hinted")
    notice = page.locator("#notice")
    # The limit counts in fixed minutes: 41 hints in a row fill one minute's 20 whatever the clock.
    for _ in range(2 * HINTS_A_MINUTE + 1):
        seq = view(page)["seq"]
        glowing = hinted.count()
        page.keyboard.press("h")
        page.wait_for_function(
            "(s) => window.__tpGame.view().seq > s || !document.getElementById('notice').hidden",
            arg=seq,
        )
        if notice.is_visible():
            break
    assert glowing == 1  # the glow of the hint before the refused one
    stored = view(page)["seq"]
    assert stored - game["seq"] >= HINTS_A_MINUTE
    wait = notice_wait(page, "Too many hints: try again in")
    shot(page, f"refused-hint-{viewport['width']}x{viewport['height']}")
    assert 0 < wait <= 60
    assert hinted.count() == 0  # the old glow went with the refusal
    assert view(page)["seq"] == stored  # nothing stored
    assert page.get_by_test_id("announce").inner_text().startswith("Too many hints")
    if wait > 1:  # counted down, a second at a time (a last second stays up to be read)
        page.wait_for_function(
            "(w) => { const m = document.getElementById('notice').textContent.match(/in (\\d+)/);"
            " return m && Number(m[1]) < w; }",
            arg=wait,
            timeout=5_000,
        )


@pytest.mark.parametrize("viewport", SIZES)
def test_a_hint_while_every_solver_slot_is_taken_says_so_with_its_wait(
    limited: Pages, viewport: dict[str, int]
) -> None:
    page = limited.new(viewport=viewport)
    game = custom_table(page, f"busy_{viewport['width']}")
    page.keyboard.press("h")
    hinted = page.locator(".table .hinted")
    hinted.first.wait_for()
    with contextlib.ExitStack() as held:
        # Every slot of the service, held from here (the server shares them through Redis), by
        # askers on other addresses: the page's hint finds none (a 503 on the socket).
        for n in range(solver_guard.settings.SOLVER_MAX_CONCURRENT):
            asker = solver_guard.Asker(player=f"holder-{n}", address=f"192.0.2.{n + 1}")
            held.enter_context(solver_guard.solver_slot(asker))
        page.keyboard.press("h")
        assert notice_wait(page, "The solver is busy: try again in") == 1
    assert hinted.count() == 0
    assert view(page)["seq"] == game["seq"] + 1


@pytest.mark.parametrize("viewport", SIZES)
def test_a_new_deal_over_the_limit_says_its_wait_on_the_table_and_at_home(
    limited: Pages, limits_here: None, viewport: dict[str, int]
) -> None:
    page = limited.new(viewport=viewport)
    game = custom_table(page, f"dealer_{viewport['width']}")
    player = User.objects.get(username=f"dealer_{viewport['width']}")
    for _ in range(GAME_STARTS_A_MINUTE):
        throttling.check(throttling.play_limits("game_start", user_id=player.pk, address=None))

    page.locator(".controls [data-act=new]").click()  # asked on the game's socket
    page.locator("dialog[data-testid=new-deal]").get_by_role(
        "button", name="Deal", exact=True
    ).click()
    assert 0 < notice_wait(page, "Too many new deals in a short time: try again in") <= 60
    assert view(page)["id"] == game["id"]  # the deal in hand goes on

    page.goto("/#/")
    # By REST (no move on the deal in hand, so nothing is asked first): a 429 with Retry-After.
    page.get_by_role("button", name="New deal").first.click()
    assert 0 < notice_wait(page, "Too many new deals in a short time: try again in") <= 60
    assert Game.objects.filter(player=player).count() == 1


@pytest.mark.parametrize("viewport", SIZES)
def test_a_newcomer_over_the_guest_limit_is_told_the_wait_and_nobody_is_made(
    limited: Pages, limits_here: None, viewport: dict[str, int]
) -> None:
    for _ in range(GUESTS_AN_HOUR):
        guests.creation_wait("127.0.0.1")  # the browser's address, as the server counts it
    page = limited.new(viewport=viewport)
    page.goto("/")
    page.get_by_test_id("welcome").locator(".table .pc[data-pos]").last.click()
    wait = notice_wait(page, "Too many guests from your network: try again in")
    shot(page, f"refused-guest-{viewport['width']}x{viewport['height']}")
    assert 0 < wait <= 3600  # the limit is per hour
    assert not User.objects.filter(is_guest=True).exists() and not Game.objects.exists()
    assert page.get_by_test_id("welcome").is_visible()


@pytest.mark.parametrize("viewport", SIZES)
def test_a_run_the_timing_check_holds_says_so_and_links_to_fair_play(
    limited: Pages, viewport: dict[str, int]
) -> None:
    page = limited.new(viewport=viewport)
    sign_up(page, f"machine_{viewport['width']}")
    started = api_post(page, "/api/games", {"mode": "daily"})
    assert started.status == 201
    game = open_game(page)
    assert page.get_by_test_id("ranking").inner_text() == "Ranked: first try"
    line = line_for(Deal.objects.get(pk=Game.objects.get(pk=game["id"]).deal_id).code)
    for seq, move in enumerate(line[:-1]):  # machine-steady, as a script plays
        assert api_post(page, f"/api/games/{game['id']}/moves", {"seq": seq, **move}).status == 200
        time.sleep(0.07)  # under the moves limit (20 a second): a quiet machine went over it
    open_game(page)
    last = line[-1]
    if last["action"] == "draw":
        page.locator(".table .stock").click()
    else:
        page.locator(f".table .pc[data-pos='{last['position']}']").click()
    results = page.locator("dialog[data-testid=results]")
    results.wait_for()
    assert (view(page)["ranks"], view(page)["ranking_code"]) == (False, "flagged")
    assert results.get_by_test_id("result-rank").inner_text() == "Held for review"
    assert "timing check" in results.get_by_test_id("why-not-ranked").inner_text()
    link = results.get_by_test_id("fair-play-link")
    assert link.is_visible() and link.get_attribute("href") == "/fair-play/"
    assert page.get_by_test_id("ranking").inner_text() == "Held for review"
