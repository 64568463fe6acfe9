"""The pause menu opens for the view that paused the game, once: a second copy of that view (a
pause's echo reaching the socket late on a loaded server) does not open it again over what the
player did since, the new-deal dialog of N after the menu's Esc. (Seen as a random failure of the
Nepali language walk: N opened nothing, the menu had come back over the dialog and gone with the
resume's answer.)"""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import DESKTOP, needs_chromium
from tests.frontend.game_checks import GAME_SOCKETS, a_game_with_a_move
from tests.frontend.helpers import wait_for_the_socket

pytestmark = [pytest.mark.e2e, needs_chromium]

NEW_DEAL = "dialog[data-testid=new-deal][open]"
MENU = "dialog[data-testid=pause][open]"


class HeldResume:
    """The game socket passed through both ways, but the page's resume held until `release`, and
    the server's frames that carry a paused view kept (`paused`)."""

    def __init__(self) -> None:
        self.held: list[str] = []
        self.paused: list[str] = []
        self.sockets: list[tuple[Any, Any]] = []

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.sockets.append((ws, server))

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and '"action":"resume"' in message.replace(" ", ""):
                self.held.append(message)
            else:
                server.send(message)

        def from_server(message: str | bytes) -> None:
            if isinstance(message, str) and '"paused":true' in message:
                self.paused.append(message)
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    def release(self) -> None:
        _, server = self.sockets[-1]
        for message in self.held:
            server.send(message)


def test_a_second_copy_of_the_paused_view_does_not_open_the_menu_again(pages: Any) -> None:
    page = pages.new(viewport=DESKTOP)
    socket = HeldResume()
    page.route_web_socket(GAME_SOCKETS, socket.route)
    a_game_with_a_move(page, "pausing_paula")
    wait_for_the_socket(page)

    page.keyboard.press("p")
    page.wait_for_selector(MENU)
    assert socket.paused  # the paused view came over the socket
    page.keyboard.press("Escape")
    page.wait_for_selector(MENU, state="detached")
    page.wait_for_function("() => true")  # (a round trip: the page has sent its resume)
    assert len(socket.held) == 1
    page.keyboard.press("n")
    page.wait_for_selector(NEW_DEAL)

    ws, _ = socket.sockets[-1]
    ws.send(socket.paused[-1])  # the same paused view once more, as a late echo brings it
    page.wait_for_timeout(500)
    assert page.locator(MENU).count() == 0
    assert page.locator(NEW_DEAL).count() == 1

    socket.release()  # the resume answered: the game runs, the player's dialog stays
    page.wait_for_function("() => !window.__tpGame.view().paused")
    assert page.locator(NEW_DEAL).count() == 1
