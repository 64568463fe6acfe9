"""Requests carrying a NUL character are refused with a 400 before any view or session sees them.

PostgreSQL text cannot hold NUL (U+0000): a NUL that reached a query (``/api/players/%00/stats``,
a cookie or a token header) made psycopg raise, a 500. No URL, query, cookie or header of this
site has a use for one.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse

DETAIL = "The request contains a NUL character."


def carries_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path or "\x00" in unquote(request.META.get("QUERY_STRING", "")):
        return True
    if any("\x00" in value for value in request.COOKIES.values()):
        return True
    return any(
        isinstance(value, str) and "\x00" in value
        for name, value in request.META.items()
        if name.startswith("HTTP_")
    )


class NulGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if carries_nul(request):
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": DETAIL, "code": "bad_request"}, status=400)
            return HttpResponse(DETAIL, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
