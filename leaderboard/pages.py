"""Server-rendered pages of fair play: the rules for players (``/fair-play/``) and the staff
review queue (``/staff/review/``). Thin: they read through ``selectors``, decide through
``review``, and render a template."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from leaderboard import fairplay_model, selectors
from leaderboard.services import review
from tripeaks.play.visitors import signed_in
from tripeaks.ratings import services as ratings


def staff_only(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Anonymous visitors go to sign in; signed-in players who are not staff get a 403."""

    @wraps(view)
    def checked(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), settings.LOGIN_URL)
        if not request.user.is_staff:
            raise PermissionDenied("staff only")
        return view(request, *args, **kwargs)

    return checked


@require_GET
def fair_play(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "leaderboard/fair_play.html",
        {"median_floor": int(fairplay_model.MEDIAN_FLOOR_MS)},
    )


def _queue(request: HttpRequest, status: int = 200) -> HttpResponse:
    return render(request, "leaderboard/review.html", selectors.review_page(), status=status)


@require_GET
@staff_only
def review_queue(request: HttpRequest) -> HttpResponse:
    return _queue(request)


def _decided(
    request: HttpRequest, what: str, decide: Callable[[], object], refused: type[Exception]
) -> HttpResponse:
    """Take a staff decision: back to the queue with its word, or the queue again with why not."""
    try:
        decide()
    except refused as error:
        messages.error(request, f"{what}: {error}")
        return _queue(request, status=400)
    messages.success(request, f"{what}: decision recorded.")
    return redirect("leaderboard-review")


@require_POST
@staff_only
def review_decision(request: HttpRequest, result_id: int) -> HttpResponse:
    return _decided(
        request,
        f"Run {result_id}",
        lambda: review.review_run(
            result_id=result_id,
            staff=signed_in(request.user),
            decision=request.POST.get("decision", ""),
            reason=request.POST.get("reason", ""),
        ),
        review.ReviewError,
    )


@require_POST
@staff_only
def rating_flag_decision(request: HttpRequest, flag_id: int) -> HttpResponse:
    return _decided(
        request,
        f"Rating flag {flag_id}",
        lambda: ratings.close_flag(
            flag_id=flag_id,
            staff_id=signed_in(request.user).pk,
            decision=request.POST.get("decision", ""),
            note=request.POST.get("note", ""),
        ),
        ratings.FlagError,
    )
