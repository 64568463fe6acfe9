"""A contest page says the server's refusals in the page's language, by their code: the race
table's `race_over` (the page's move queue passed on only the English `detail`, so German and
Nepali players read English), and an arena's refused join. English, German and Nepali."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.frontend.conftest import PHONE, listen, needs_chromium
from tests.frontend.game_checks import GAME_SOCKETS
from tests.frontend.helpers import an_arena, pump_until, wait_seq
from tests.frontend.test_e2e_review import signed_up
from tests.play.contests import begun_race
from tripeaks.arenas.models import Arena

pytestmark = [pytest.mark.e2e, needs_chromium]

LAPTOP = {"width": 1366, "height": 800}
RACE_OVER = {
    "en-US": "The race is over for you: that move did not count.",
    "de-DE": "Das Rennen ist für dich vorbei: dieser Zug zählt nicht.",
    "ne-NP": "तपाईंको दौड सकियो: त्यो चाल गनिएन।",
}
ARENA_OVER = {
    "en-US": "This arena is over.",
    "de-DE": "Diese Arena ist vorbei.",
    "ne-NP": "यो एरिना सकियो।",
}


CONFLICT = "status of 409 (Conflict)"


def forgive_the_refusal(pages: Any) -> None:
    """The browser logs the refusal under test (a 409) as a console error: it alone is taken off
    the list, any other error stays."""
    found = [e for e in pages.errors if CONFLICT in e]
    assert len(found) == 1, pages.errors
    pages.errors[:] = [e for e in pages.errors if CONFLICT not in e]


@pytest.fixture(autouse=True)
def _pool(a_proven_deal_ready: None) -> None:
    """Races deal from the pool (tests/conftest.py)."""


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("locale", list(RACE_OVER))
def test_a_race_move_refused_as_race_over_is_said_in_the_pages_language(
    pages: Any, settings: Any, locale: str, size: dict[str, int]
) -> None:
    page = pages.new(viewport=size, locale=locale)
    ann = signed_up(page, "over_ann")
    race = begun_race(ann, get_user_model().objects.create_user(username="over_bob"), settings)
    # The game socket refused, so the table moves by REST; and the server's answer to the move,
    # as races.errors.RaceOver gives it (a racer's win after their race ended for them).
    page.route_web_socket(GAME_SOCKETS, lambda ws: ws.close())
    page.route(
        "**/api/games/*/moves",
        lambda route: route.fulfill(
            status=409,
            content_type="application/json",
            body='{"detail": "the race is over for you", "code": "race_over"}',
        ),
    )
    page.goto(f"/#/races/{race.pk}")
    wait_seq(page, 0)
    page.locator(".table .stock").click()
    announce = page.locator("[data-testid=announce]")
    announce.filter(has_text=RACE_OVER[locale]).wait_for(state="attached")
    assert "the race is over for you" not in page.inner_text("body")
    forgive_the_refusal(pages)


@pytest.mark.parametrize("locale", list(ARENA_OVER))
def test_a_refused_arena_join_is_said_in_the_pages_language(pages: Any, locale: str) -> None:
    arena = an_arena("Closing arena", -timedelta(minutes=5), timedelta(minutes=5))
    page = pages.new(viewport=PHONE, locale=locale)
    signed_up(page, "late_lena")
    heard: list[str] = []
    listen(
        page,
        "websocket",
        lambda socket: (
            socket.on("framereceived", lambda frame: heard.append(frame))
            if "/ws/arenas/" in socket.url
            else None
        ),
    )
    page.goto(f"/#/arenas/{arena.pk}")
    join = page.locator("button[data-act=join]")
    join.wait_for()
    # The arena socket's first frame (the arena as it is when the socket opens) taken first: one
    # sent after the arena ended below told the page so, and the page rightly took its Join away
    # before the click (CI, twice: the button "detached from the DOM" for 10 s).
    pump_until(page, lambda: bool(heard))
    assert heard, "the arena socket sent nothing on opening"
    # It ends while the page shows it: the server refuses the join (409 `refused`).
    Arena.objects.filter(pk=arena.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    # Forced: on a loaded machine Playwright found the panel's button "not stable" for its whole
    # 10 s wait (the panel is drawn again as frames come); the click itself is the same.
    join.click(force=True)
    page.locator("#notice").filter(has_text=ARENA_OVER[locale]).wait_for()
    forgive_the_refusal(pages)
