"""The ratings page (``/ratings/``): the board of a rule set, drawn by its ES module
(frontend/static/frontend/js/pages/ratings.js, which the app's ``#/ratings`` route uses too)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tripeaks.ratings.services import PROVISIONAL_RACES


@require_GET
def ratings_page(request: HttpRequest) -> HttpResponse:
    user = request.user
    return render(
        request,
        "ratings/board.html",
        {
            "boot": {
                "user": {"username": user.username} if user.is_authenticated else None,
                "provisional_races": PROVISIONAL_RACES,
            }
        },
    )
