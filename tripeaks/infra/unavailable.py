"""A database or cache that cannot be reached answers 503 + ``Retry-After`` on every page, not a
500: the API's exception handler does it for DRF views (tripeaks/infra/api_errors.py); this does it for
the HTML pages (sign up, sign in, the admin, ...) and for errors raised in middleware (a session
that cannot be loaded or saved).

``UnavailableMiddleware.process_exception`` catches what a view raises; ``handler500``
(``api_errors.json_500``) asks ``unavailable_page`` about whatever reached it from elsewhere. The
page is plain HTML written here, not a template: rendering one would run context processors that
may need the very database that is down.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

import redis
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse

logger = logging.getLogger("tripeaks.api")

RETRY_AFTER = 5
UNAVAILABLE_ERRORS = (
    # A pool with no free connection (psycopg_pool.PoolTimeout) reaches Django as an
    # OperationalError too.
    OperationalError,
    InterfaceError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
)
DETAIL = "The service is briefly unavailable. Try again in a few seconds."
PAGE = (
    "<!doctype html><html lang=en><meta charset=utf-8><title>Briefly unavailable</title>"
    "<h1>Briefly unavailable</h1><p>" + DETAIL + "</p></html>"
)


def is_unavailable(exc: BaseException | None) -> bool:
    return isinstance(exc, UNAVAILABLE_ERRORS)


def unavailable_page(request: HttpRequest, exc: BaseException) -> HttpResponse:
    logger.warning("A backing service is unavailable: %s", exc.__class__.__name__, exc_info=exc)
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": DETAIL, "code": "unavailable"}, status=503)
    else:
        response = HttpResponse(PAGE, status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


def current_unavailable_error() -> BaseException | None:
    """The exception being handled (handler500 runs inside Django's except block), when it is an
    outage."""
    exc = sys.exc_info()[1]
    return exc if is_unavailable(exc) else None


class UnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_unavailable(exception):
            return unavailable_page(request, exception)
        return None
