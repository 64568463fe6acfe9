"""The page shell: one template serves the single-page app (hash routes, ES modules)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from tripeaks.play.selectors import has_unfinished_game


def boot_data(request: HttpRequest) -> dict[str, Any]:
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
