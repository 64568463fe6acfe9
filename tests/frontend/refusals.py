"""What the refusals' browser tests share (test_e2e_refusals.py: hints; test_e2e_refusals_starts.py:
new deals, guests, the timing check): the limits of the limited server (its fixtures,
`limited_url`, `limited` and `limits_here`, are in tests/frontend/conftest.py), the notice's wait
as the page says it, a signed-up player at a custom table."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.frontend.conftest import PHONE, api_post, sign_up
from tests.frontend.game_checks import counting_open_sockets, wait_for_its_socket
from tests.frontend.helpers import open_game
from tests.play.helpers import winnable_code
from tripeaks.config import settings as production

SIZES = [
    pytest.param(PHONE, id="390x844"),
    pytest.param({"width": 1366, "height": 800}, id="1366x800"),
]
# The production limits but the front gate's (tests/reliability/test_front_gate.py): the script
# in test_e2e_refusals_starts.py plays a run at machine speed to be held by the timing check, not
# to be refused at the gate.
LIMITS = {
    name: rate
    for name, rate in production.PLAY_THROTTLE_RATES.items()
    if not name.startswith(("api_", "socket_open_"))
}
HINTS_A_MINUTE = 20  # LIMITS["solver"]
GAME_STARTS_A_MINUTE = 30  # LIMITS["game_start"]
GUESTS_AN_HOUR = 10  # LIMITS["guest_address"]


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
    """Signed up as `name`, at a custom deal's table, its socket open (a hint is asked there: one
    asked while it connected went by REST, and its glow was not seen on a loaded machine)."""
    sign_up(counting_open_sockets(page), name)
    assert (
        api_post(page, "/api/games", {"mode": "custom", "deal": winnable_code(5)[0]}).status == 201
    )
    game = open_game(page)
    wait_for_its_socket(page)
    return game
