"""The page's sockets back off when the server keeps closing them (issue #35's flood: an address
over its limits has sockets accepted and closed with 1013 "try again later"). A socket that opened
and was closed at once used to reset the wait to 250 ms, so the page knocked four times a second
for as long as the server said no."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.frontend.conftest import DESKTOP, needs_chromium

pytestmark = [pytest.mark.e2e, needs_chromium]

REFUSING = re.compile(r".*/ws/refusing/$")


def _knocks_in(page: Any, seconds: float) -> list[float]:
    """The instants at which a LiveSocket on a path whose every socket is accepted and then closed
    with 1013 at once connects, over `seconds`."""
    knocks: list[float] = []

    def refuse(ws: Any) -> None:
        knocks.append(time.monotonic())
        ws.send('{"type": "unavailable"}')  # the page's socket is open: its first frame came
        ws.close(code=1013, reason="try again later")

    page.route_web_socket(REFUSING, refuse)
    page.evaluate(
        """async () => {
            const src = [...document.querySelectorAll('script[type=module]')].map((s) => s.src)
                .find((s) => s.includes('/js/'));
            const base = src.slice(0, src.indexOf('/js/') + 4);
            const { LiveSocket } = await import(base + 'socket.js');
            window.__refused = new LiveSocket('/ws/refusing/', { onMessage: () => {} });
        }"""
    )
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
    page.evaluate("window.__refused.close()")
    return knocks


def test_a_socket_closed_as_soon_as_it_opens_backs_off(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    page.goto("/#/boards")
    knocks = _knocks_in(page, 3.5)
    gaps = [later - earlier for earlier, later in zip(knocks, knocks[1:], strict=False)]
    # 250, 500, 1000, 2000 ms: five knocks at most in 3.5 s (at 250 ms each: fourteen).
    assert 2 <= len(knocks) <= 5, knocks
    # Each gap at least its wait: a knock comes no sooner than its wait after the last one was
    # refused (the refusal is sent after the knock is noted), and a loaded machine makes a gap
    # longer, never shorter. (Against the gap before, one late knock made the next look short:
    # 0.345 s then 0.505 s, at load 8.) Waits reset to 250 ms fail from the second gap on.
    floors = [0.9 * 0.25 * 2**index for index in range(len(gaps))]
    assert all(gap >= floor for gap, floor in zip(gaps, floors, strict=True)), gaps
