"""Structured logs: one JSON line per request, game events, never a secret."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from tripeaks.config.logging_json import JsonFormatter

pytestmark = pytest.mark.django_db


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """Everything logged anywhere during the test, formatted as the service formats it."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.setLevel(logging.DEBUG)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)


def parsed(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def test_each_request_is_one_json_line_with_method_path_status_duration_and_user(
    token_client: APIClient, user: User, log_lines: io.StringIO
) -> None:
    token_client.get("/api/me?secret=abc")

    requests = [e for e in parsed(log_lines) if e["logger"] == "tripeaks.requests"]
    assert len(requests) == 1
    entry = requests[0]
    assert entry["method"] == "GET"
    assert entry["path"] == "/api/me"  # never the query string
    assert entry["status"] == 200
    assert isinstance(entry["duration_ms"], float)
    assert entry["user_id"] == user.pk
    assert "abc" not in log_lines.getvalue()


def test_a_sign_in_never_logs_the_password_or_the_token(
    api_client: APIClient, user: User, password: str, log_lines: io.StringIO
) -> None:
    wrong = "Wr0ng-but-secret-guess"
    api_client.post(
        "/api/auth/token", {"username": user.username, "password": wrong}, format="json"
    )
    response = api_client.post(
        "/api/auth/token", {"username": user.username, "password": password}, format="json"
    )
    token = response.json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    api_client.get("/api/me")
    Client().post("/accounts/login/", {"username": user.username, "password": password})

    output = log_lines.getvalue()
    assert output, "expected request log lines"
    for secret in (password, wrong, token):
        assert secret not in output
    statuses = [e["status"] for e in parsed(log_lines) if e["logger"] == "tripeaks.requests"]
    assert statuses == [400, 200, 200, 302]


def test_game_events_are_json_lines_on_the_events_logger(log_lines: io.StringIO) -> None:
    logging.getLogger("tripeaks.events").info(
        "game.finished",
        extra={"game_id": 7, "user_id": 3, "won": True, "token": "should-not-appear"},
    )

    (entry,) = [e for e in parsed(log_lines) if e["logger"] == "tripeaks.events"]
    assert entry["msg"] == "game.finished"
    assert entry["game_id"] == 7 and entry["won"] is True
    assert entry["token"] == "[redacted]"
    assert "should-not-appear" not in log_lines.getvalue()


def test_formatter_survives_odd_extras_and_exceptions() -> None:
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "boom %s", ("!",), None)
    record.request = object()  # Django attaches the request; it must not be dumped
    record.payload = {"password": "hunter2", "n": 1}
    try:
        raise ValueError("inner")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()

    entry = json.loads(JsonFormatter().format(record))

    assert entry["msg"] == "boom !"
    assert "request" not in entry
    assert entry["payload"] == {"password": "[redacted]", "n": 1}
    assert "ValueError: inner" in entry["exc"]


def test_a_line_starts_with_the_fields_the_operations_docs_name() -> None:
    record = logging.LogRecord("tripeaks.events", logging.WARNING, __file__, 1, "x %d", (1,), None)
    record.when = datetime(2026, 12, 5, tzinfo=UTC)  # a value JSON has no type for: its str()
    entry = json.loads(JsonFormatter().format(record))
    assert list(entry)[:4] == ["ts", "level", "logger", "msg"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", entry["ts"])
    assert (entry["level"], entry["logger"], entry["msg"]) == ("WARNING", "tripeaks.events", "x 1")
    assert entry["when"] == "2026-12-05 00:00:00+00:00"
