"""What the game's browser tests check on both sides (test_e2e_play.py, test_e2e_play_new_deal.py):
a game with a move made, the moves the server stored, the page caught up with the stored game."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import Count

from tests.frontend.conftest import api_post, init_script, sign_up
from tests.frontend.helpers import click_move, open_game, view, wait_seq
from tests.play.helpers import winnable_code
from tripeaks.play.models import Game, Move

DRAW = {"action": "draw"}
GAME_SOCKETS = re.compile(r"/ws/games/")


def a_game_with_a_move(page: Any, username: str) -> dict[str, Any]:
    """Signed up, on the game page of a classic custom deal with one move made."""
    sign_up(page, username)
    code, line = winnable_code(5)
    assert api_post(page, "/api/games", {"mode": "custom", "deal": code}).status == 201
    open_game(page)
    click_move(page, line[0])
    return view(page)


def assert_stored(game_id: str, moves: int) -> None:
    """The server stored the game's `moves` (the player's), one logged move each; the log may
    hold resumes besides, each a socket's reopening that started the clock again."""
    game = Game.objects.annotate(logged=Count("log")).get(pk=game_id)  # one snapshot
    assert game.seq == game.logged  # type: ignore[attr-defined]
    assert Move.objects.filter(game_id=game_id).exclude(action="resume").count() == moves


def settled(page: Any, game_id: str) -> dict[str, Any]:
    """The page's view once it has caught up with the stored game (a socket's reopening may log a
    resume after the page read the game)."""
    while True:
        seq = Game.objects.get(pk=game_id).seq
        seen = wait_seq(page, seq)
        if seen["seq"] == Game.objects.get(pk=game_id).seq:
            return seen


# The page's open sockets, counted from inside it (an init script, run before the page's own on
# every navigation): a test that means the socket's way waits for it to be open, where acting at
# once on a loaded machine went by REST (the page's way while its socket connects).
COUNT_OPEN_SOCKETS = """(() => {
  window.__tpOpenSockets = 0;
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      let open = false;
      this.addEventListener('open', () => { open = true; window.__tpOpenSockets += 1; });
      this.addEventListener('close', () => { if (open) { open = false; window.__tpOpenSockets -= 1; } });
    }
  };
})()"""


def counting_open_sockets(page: Any) -> Any:
    """`page`, its open sockets counted from its next navigation on (`wait_for_its_socket`)."""
    return init_script(page, COUNT_OPEN_SOCKETS)


def wait_for_its_socket(page: Any) -> None:
    """The page (`counting_open_sockets`) has a socket open."""
    page.wait_for_function("() => window.__tpOpenSockets > 0")
