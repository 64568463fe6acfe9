"""Structured logs: one JSON object per line.

- ``JsonFormatter`` (python-json-logger's, configured) turns any log record into one JSON line:
  ``ts``, ``level``, ``logger``, ``msg``, the fields given through ``extra={...}``, and ``exc``
  for an exception. Fields whose names look like secrets are redacted, nested ones too.
- ``RequestLogMiddleware`` writes one line per request on the ``tripeaks.requests`` logger:
  method, path (never the query string), status, duration in ms and the user's id. It never
  logs bodies, headers, cookies or tokens.
- Game events go to the ``tripeaks.events`` logger through the usual
  ``log.info("...", extra={...})``.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import cast

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from django.utils.functional import empty
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter as LibraryJsonFormatter

request_logger = logging.getLogger("tripeaks.requests")

# What the next layer returns: a response on the sync path, an awaitable one on the async path.
Response = HttpResponseBase | Awaitable[HttpResponseBase]
GetResponse = Callable[[HttpRequest], Response]

_SECRET_WORDS = ("password", "passwd", "secret", "token", "authorization", "cookie", "session")
# Objects Django attaches to records that must never be serialised whole, and uvicorn's copy of
# its message with terminal colours.
_DROPPED_EXTRAS = ("request", "scope", "server_time", "color_message")


# Bounded: the keys are the fields the code logs (and their nested keys), a few dozen names;
# asked of every field of every line (a flagged finish's line: some 70 calls without it).
@functools.lru_cache(maxsize=1024)
def _is_secret_key(key: str) -> bool:
    lowered = key.lower()
    return any(word in lowered for word in _SECRET_WORDS)


def _redacted(key: str, value: object) -> object:
    if _is_secret_key(key):
        return "[redacted]"
    if isinstance(value, dict):
        return {str(k): _redacted(str(k), v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redacted("", v) for v in value]
    return value


class JsonFormatter(LibraryJsonFormatter):
    def __init__(self) -> None:
        super().__init__(
            "%(levelname)s %(name)s %(message)s",
            rename_fields={
                "levelname": "level",
                "name": "logger",
                "message": "msg",
                "exc_info": "exc",
            },
            reserved_attrs=[*RESERVED_ATTRS, *_DROPPED_EXTRAS],
            json_default=str,  # anything else JSON has no type for is written as its str()
            json_ensure_ascii=False,
        )

    def add_fields(
        self,
        log_data: dict[str, object],
        record: logging.LogRecord,
        message_dict: dict[str, object],
    ) -> None:
        created = datetime.fromtimestamp(record.created, tz=UTC)
        log_data["ts"] = created.isoformat(timespec="milliseconds")
        super().add_fields(log_data, record, message_dict)

    def process_log_record(self, log_data: dict[str, object]) -> dict[str, object]:
        return {key: _redacted(key, value) for key, value in log_data.items()}


def _user_id(request: HttpRequest) -> int | None:
    user = getattr(request, "user", None)
    if user is None:
        return None
    # Don't load the user just to log it: only report one that the request already looked at.
    if getattr(user, "_wrapped", None) is empty:
        return None
    pk = getattr(user, "pk", None)
    return pk if isinstance(pk, int) else None


def _log_request(request: HttpRequest, status: int, started: float) -> None:
    duration_ms = round((time.perf_counter() - started) * 1000, 1)
    level = logging.ERROR if status >= 500 else logging.INFO
    request_logger.log(
        level,
        "%s %s %s",
        request.method,
        request.path,
        status,
        extra={
            "method": request.method,
            "path": request.path,
            "status": status,
            "duration_ms": duration_ms,
            "user_id": _user_id(request),
        },
    )


class RequestLogMiddleware:
    """One log line per request. Works in both the sync and the async request path."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Response:
        if self.is_async:
            return self.__acall__(request)
        started = time.perf_counter()
        status = 500
        try:
            response = cast(HttpResponseBase, self.get_response(request))
            status = response.status_code
            return response
        finally:
            _log_request(request, status, started)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        status = 500
        try:
            response = await cast(Awaitable[HttpResponseBase], self.get_response(request))
            status = response.status_code
            return response
        finally:
            _log_request(request, status, started)
