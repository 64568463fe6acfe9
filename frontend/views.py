"""The page shell: one template serves the single-page app (hash routes, ES modules)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from tripeaks.play.selectors import has_unfinished_game


class BootUser(TypedDict):
    username: str
    public_name: str


class Boot(TypedDict):
    user: BootUser | None
    has_game: NotRequired[bool]


def boot_data(request: HttpRequest) -> Boot:
    """What the app needs before its first request: who is signed in."""
    user = request.user
    if not user.is_authenticated:
        return {"user": None}
    # Whether a deal is waiting lets the page offer Continue without asking (and a 404).
    return {
        "user": {"username": user.username, "public_name": user.public_name},
        "has_game": has_unfinished_game(player_id=user.pk),
    }


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/home.html", {"boot": boot_data(request)})
