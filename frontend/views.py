"""The page shell: one template serves the single-page app (hash routes, ES modules)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie

from tripeaks.engine.layouts import DEFAULT_LAYOUT, LAYOUTS
from tripeaks.engine.view import LayoutOutline, layout_outline
from tripeaks.play.payloads import ViewPayload, game_payload
from tripeaks.play.selectors import unfinished_game
from tripeaks.play.services import load_game_state


class BootUser(TypedDict):
    username: str
    public_name: str


class Boot(TypedDict):
    user: BootUser | None
    has_game: NotRequired[bool]
    # The first table, so that it is drawn without a request after the modules (issue 38, item
    # 9): the deal in progress as GET /api/games/current gives it, and its layout's outline (as
    # GET /api/layouts?form=outline gives each); signed out, the outline of the layout the
    # face-down table shows (welcome.js).
    game: NotRequired[ViewPayload]
    layout: NotRequired[LayoutOutline]


def boot_data(request: HttpRequest) -> Boot:
    """What the app needs before its first request: who is signed in, and the first table."""
    user = request.user
    if not user.is_authenticated:
        return {"user": None, "layout": layout_outline(LAYOUTS[DEFAULT_LAYOUT])}
    boot: Boot = {
        "user": {"username": user.username, "public_name": user.public_name},
        "has_game": False,
    }
    game = unfinished_game(player_id=user.pk)
    if game is not None:
        boot["has_game"] = True
        boot["game"] = game_payload(game, load_game_state(game), timezone.now())
        boot["layout"] = layout_outline(LAYOUTS[game.deal.layout])
    return boot


# The page carries the player's game as it stands: never kept by a cache, never shown again
# from one (a stale view would be taken for the current one until the socket said otherwise).
@never_cache
@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/home.html", {"boot": boot_data(request)})
