"""Request bodies over their view's limit are refused with 413 before anything parses them.

DRF reads the body from the request's stream, not through ``request.body``, so Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MB) never bounded the API: a 1 MB JSON body was parsed
within one player's request rate, and ten threads of one account took the health check from
34 ms to 1.35 s. Every API body of this site is small (a move is a few hundred bytes), so each
view gets a limit that fits it, checked on ``Content-Length`` as soon as the URL is resolved:
``BODY_LIMITS`` (settings) names a view's own limit by its URL name, else the ``/api/`` default
or the pages' default applies. A body without a ``Content-Length`` (chunked) is refused with 411:
browsers always send one, and the limit could not be checked before the body is read.

The answer is the API's JSON error shape on ``/api/`` URLs, a line of plain text in the page's
language elsewhere; the view never runs, so nothing is read from the database or written.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.translation import gettext as _


def body_limit(request: HttpRequest) -> int:
    """The largest body, in bytes, the resolved view of `request` accepts."""
    limits: dict[str, int] = settings.BODY_LIMITS
    match = request.resolver_match
    if match is not None and match.view_name in limits:
        return limits[match.view_name]
    return limits["api"] if request.path.startswith("/api/") else limits["pages"]


def _refuse(request: HttpRequest, status: int, detail: str, code: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": detail, "code": code}, status=status)
    page = _("This form is too large to be sent.") if status == 413 else _("Bad request.")
    return HttpResponse(page, status=status, content_type="text/plain; charset=utf-8")


class BodyLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponseBase],
        args: list[object],
        kwargs: dict[str, object],
    ) -> HttpResponse | None:
        header = request.META.get("CONTENT_LENGTH") or ""
        if not header:
            if "transfer-encoding" in request.headers:
                return _refuse(
                    request,
                    411,
                    "Send the request body with a Content-Length header.",
                    "length_required",
                )
            return None
        limit = body_limit(request)
        try:
            length = int(header)
        except ValueError:
            return _refuse(
                request, 400, "The Content-Length header is not a number.", "bad_request"
            )
        if length > limit:
            return _refuse(
                request,
                413,
                f"The request body is too large: at most {limit} bytes here.",
                "too_large",
            )
        return None
