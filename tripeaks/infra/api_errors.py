"""Every API error is JSON with a readable ``detail``.

DRF's own errors keep their status; validation errors also carry the per-field ``errors`` and
a ``detail`` naming the first problem. A database or cache that cannot be reached (a restart, an
outage) is a 503 with ``Retry-After`` and ``code: "unavailable"``; the transaction was rolled back,
so nothing is half-written and the client may retry. Anything else unexpected becomes a logged 500
with a JSON body (never a traceback). ``json_404``/``json_500`` serve the same shape for ``/api/`` URLs
that no view handled.

A service's refusal (play's ``PlayError``, an arena's, a race's ``RaceError``, the review's
``ReviewError``: any error with a ``status_code``, a ``code`` and a readable ``message``) becomes
its response in one place, ``refusal_response``: ``{"detail", "code"}`` with the error's status,
the game's current ``view`` as ``game`` when the error carries one (a seq conflict), and
``Retry-After`` when it says how long to wait. A socket refuses with the same body as an
``error`` frame (``refusal_frame``, ``retry_after`` in the frame).
"""

from __future__ import annotations

import logging
from typing import Protocol

import redis
from django.core.exceptions import SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tripeaks.infra.unavailable import current_unavailable_error, unavailable_page

logger = logging.getLogger("tripeaks.api")

UNAVAILABLE_RETRY_AFTER = 5
_UNAVAILABLE = (
    OperationalError,
    InterfaceError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
)


def unavailable_response(exc: Exception) -> Response:
    logger.warning("A backing service is unavailable: %s", exc.__class__.__name__, exc_info=exc)
    response = Response(
        {
            "detail": "The service is briefly unavailable. Try again in a few seconds.",
            "code": "unavailable",
        },
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
    )
    response["Retry-After"] = str(UNAVAILABLE_RETRY_AFTER)
    return response


class Refusal(Protocol):
    """What a service refuses with: the apps' domain errors have these (and may have a `view`
    and a `retry_after`)."""

    @property
    def status_code(self) -> int: ...
    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...


def refusal_body(error: Refusal) -> dict[str, object]:
    """What a refusal says, over REST and over a socket alike: `detail`, `code`, and the game's
    current view as `game` when the error carries one (a seq conflict)."""
    body: dict[str, object] = {"detail": error.message, "code": error.code}
    view: object = getattr(error, "view", None)
    if view is not None:
        body["game"] = view
    return body


def _retry_after(error: Refusal) -> int | None:
    retry_after: object = getattr(error, "retry_after", None)
    return retry_after if isinstance(retry_after, int) else None


def refusal_response(error: Refusal) -> Response:
    """The API's answer to a service's refusal: the one converter every app's views use."""
    response = Response(refusal_body(error), status=error.status_code)
    retry_after = _retry_after(error)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def refusal_frame(error: Refusal) -> dict[str, object]:
    """The same refusal as a socket's `error` frame: the body `refusal_response` answers, with
    `Retry-After` as `retry_after` (a frame has no headers)."""
    frame: dict[str, object] = {"type": "error", **refusal_body(error)}
    retry_after = _retry_after(error)
    if retry_after is not None:
        frame["retry_after"] = retry_after
    return frame


def _first_message(errors: object, prefix: str = "") -> str:
    if isinstance(errors, dict):
        for key, value in errors.items():
            label = "" if key == "non_field_errors" else f"{key}: "
            return _first_message(value, prefix or label)
    if isinstance(errors, list) and errors:
        return _first_message(errors[0], prefix)
    return f"{prefix}{errors}"


def exception_handler(exc: Exception, context: dict[str, object]) -> Response | None:
    if isinstance(exc, SuspiciousOperation):
        exc = exceptions.ParseError("The request could not be read (too large or malformed).")
    if isinstance(exc, _UNAVAILABLE):
        return unavailable_response(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        logger.exception("Unhandled error in API view", exc_info=exc)
        return Response({"detail": "Server error."}, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    data = response.data
    # Validation errors (and any other shape without a `detail`) get a readable summary.
    if isinstance(exc, exceptions.ValidationError) or not (
        isinstance(data, dict) and "detail" in data
    ):
        response.data = {"detail": _first_message(data), "errors": data}
    return response


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def json_404(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


@csrf_exempt  # a POST to no endpoint is a 404, not a CSRF failure page
def api_not_found(request: HttpRequest) -> HttpResponse:
    """The view of every /api/ URL that no other view takes."""
    return JsonResponse({"detail": "Not found."}, status=404)


def json_403(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"detail": "Forbidden."}, status=403)
    return defaults.permission_denied(request, exception)


def json_400(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"detail": "Bad request."}, status=400)
    return defaults.bad_request(request, exception)


def json_500(request: HttpRequest) -> HttpResponse:
    outage = current_unavailable_error()
    if outage is not None:  # raised outside a view (a session that cannot be loaded or saved)
        return unavailable_page(request, outage)
    if _wants_json(request):
        return JsonResponse({"detail": "Server error."}, status=500)
    return defaults.server_error(request)
