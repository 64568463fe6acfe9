"""A browser-like client for the account tests: a session cookie with CSRF checks on."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client

STRONG = "tri-peaks-Solitaire-42"
OTHER_STRONG = "seven-Peaks-of-Hearts-9"


class Browser:
    """A Django test Client that sends JSON with the CSRF token, as the site's own JS does."""

    def __init__(self, user_agent: str = "Mozilla/5.0 (X11; Linux x86_64) Firefox/139.0") -> None:
        self.client = Client(enforce_csrf_checks=True, HTTP_USER_AGENT=user_agent)

    def csrf(self) -> str:
        # Signing in rotates the token: the cookie holds the current one.
        if "csrftoken" not in self.client.cookies:
            self.client.get("/api/auth/csrf")
        return str(self.client.cookies["csrftoken"].value)

    def request(self, method: str, url: str, data: Any = None, **extra: Any) -> Any:
        body = "" if data is None else json.dumps(data)
        return getattr(self.client, method)(
            url, body, content_type="application/json", HTTP_X_CSRFTOKEN=self.csrf(), **extra
        )

    def post(self, url: str, data: Any = None, **extra: Any) -> Any:
        return self.request("post", url, data, **extra)

    def delete(self, url: str, data: Any = None, **extra: Any) -> Any:
        return self.request("delete", url, data, **extra)

    def put(self, url: str, data: Any = None, **extra: Any) -> Any:
        return self.request("put", url, data, **extra)

    def get(self, url: str, **extra: Any) -> Any:
        return self.client.get(url, **extra)


def signed_up(username: str, password: str = STRONG, **extra: Any) -> Browser:
    """A browser that signed up and signed in with a session."""
    browser = Browser(**extra)
    assert (
        browser.post("/api/auth/signup", {"username": username, "password": password}).status_code
        == 201
    )
    assert (
        browser.post("/api/auth/login", {"username": username, "password": password}).status_code
        == 200
    )
    return browser
