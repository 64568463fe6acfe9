"""Structured logs: one JSON object per line.

- ``JsonFormatter`` turns any log record into one JSON line. Extra fields given through
  ``extra={...}`` are included, except for keys that look like secrets, which are redacted.
- ``RequestLogMiddleware`` writes one line per request on the ``tripeaks.requests`` logger:
  method, path (never the query string), status, duration in ms and the user's id. It never
  logs bodies, headers, cookies or tokens.
- Game events go to the ``tripeaks.events`` logger through the usual
  ``log.info("...", extra={...})``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponseBase
from django.utils.functional import empty

request_logger = logging.getLogger("tripeaks.requests")

# Attributes every LogRecord has; anything else on a record came in through `extra`.
_RECORD_ATTRS = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", None, None)).keys() | {"message", "asctime"}
)
_SECRET_WORDS = ("password", "passwd", "secret", "token", "authorization", "cookie", "session")
# Objects Django attaches to records that must never be serialised whole, and uvicorn's copy of
# its message with terminal colours.
_DROPPED_EXTRAS = frozenset({"request", "scope", "server_time", "color_message"})


def _is_secret_key(key: str) -> bool:
    lowered = key.lower()
    return any(word in lowered for word in _SECRET_WORDS)


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {
            str(k): ("[redacted]" if _is_secret_key(str(k)) else _jsonable(v))
            for k, v in value.items()
        }
    return str(value)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key in _RECORD_ATTRS or key in _DROPPED_EXTRAS or key.startswith("_"):
                continue
            entry[key] = "[redacted]" if _is_secret_key(key) else _jsonable(value)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


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

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        started = time.perf_counter()
        status = 500
        try:
            response: HttpResponseBase = self.get_response(request)
            status = response.status_code
            return response
        finally:
            _log_request(request, status, started)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        status = 500
        try:
            get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
            response = await get_response(request)
            status = response.status_code
            return response
        finally:
            _log_request(request, status, started)
