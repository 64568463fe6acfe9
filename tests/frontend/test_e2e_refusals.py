"""Issue 38, item 3, in a real browser at a phone's size and a desktop's, against a server with
the production limits (the suite's own server has them off: it plays machine-fast from one
address): a refused hint is said on screen with its wait, counted down, and its old glow goes; a
hint while the solver is busy says so. New deals, guests and the timing check:
test_e2e_refusals_starts.py (a file each, so that two workers share the tests)."""

from __future__ import annotations

import contextlib

import pytest

from accounts.models import User
from tests.frontend.conftest import Pages, needs_chromium, shot
from tests.frontend.helpers import view
from tests.frontend.refusals import HINTS_A_MINUTE, SIZES, custom_table, notice_wait
from tripeaks.infra import throttling
from tripeaks.play import solver_guard

pytestmark = [pytest.mark.e2e, needs_chromium]


@pytest.mark.parametrize("viewport", SIZES)
def test_the_hint_over_the_limit_says_its_wait_on_screen_and_its_old_glow_goes(
    limited: Pages, limits_here: None, viewport: dict[str, int]
) -> None:
    page = limited.new(viewport=viewport)
    game = custom_table(page, f"hinter_{viewport['width']}")
    player = User.objects.get(username=f"hinter_{viewport['width']}")
    # All but one of the minute's hints counted here (the server's own keys), as the page's hints
    # would count them: the page's next hint is the minute's last, the one after it refused.
    counted = HINTS_A_MINUTE - 1
    for _ in range(counted):
        assert throttling.check([throttling.Limit("solver", f"u{player.pk}")]) is None
    hinted = page.locator(".table .hinted")
    notice = page.locator("#notice")
    # The limit counts in fixed minutes: 22 hints in a row are refused whatever the clock (a minute
    # that turns after the count above, or after the page's first hint, takes 20 of the page's).
    for _ in range(HINTS_A_MINUTE + 2):
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
    assert stored - game["seq"] + counted >= HINTS_A_MINUTE  # refused at the limit, not before
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
