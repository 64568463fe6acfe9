"""What the tests of issue #16's findings (tests/reliability/test_findings*.py) share: the
password, the one-window limits, counters reset, requests released at once, a browser for the
HTML forms."""

from __future__ import annotations

import functools
import re
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

from tests import together
from tests.reliability.stack import Process, Stack, request

PASSWORD = "a long and right password 7"


# The production limits (5 and 20 failed sign-ins, 30 sign-ups, 120 board frames), each counted in
# one window of a year (a day for the DRF rates): fixed windows start afresh at their boundary, so a
# test that happened to straddle one (a quarter past the hour, for sign-in) would see twice the
# limit. The counting is the same whatever the window's length.
ONE_WINDOW = {
    "SIGNIN_THROTTLE_WINDOW": str(365 * 86400),
    "THROTTLE_SIGNUP": "30/day",
    "THROTTLE_BOARD_ADDRESS": "120/day",
}


def fresh_counters(stack: Stack) -> None:
    """Every limit's counters start at zero (the stack's Redis outlives a test)."""
    import redis

    client = redis.Redis(port=stack.redis_port)
    try:
        client.flushall()
    finally:
        client.close()


def at_once(count: int, call: Callable[[int], Any]) -> list[Any]:
    """`call(i)` for i in range(count), all released together; their results (or errors)."""
    return together.at_once([functools.partial(call, i) for i in range(count)])


def sign_up(server: Process, username: str) -> None:
    status, body, _, _ = request(
        "POST",
        f"{server.url}/api/auth/signup",
        {"username": username, "password": PASSWORD},
    )
    assert status == 201, body


class Browser:
    """A client for the HTML forms: the CSRF cookie and token from the page. Cookies are kept by
    hand: the production profile marks them Secure, and this is plain HTTP on loopback."""

    def __init__(self, stack: Stack, server: Process) -> None:
        stack.collect_static()
        self.server = server
        self.cookies: dict[str, str] = {}
        self.opener = urllib.request.build_opener(NoRedirect())

    def _keep(self, headers: Any) -> None:
        for header in headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]

    def _cookie_header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}

    def get(self, path: str) -> tuple[int, str, Any]:
        req = urllib.request.Request(f"{self.server.url}{path}", headers=self._cookie_header())
        try:
            with self.opener.open(req, timeout=30) as response:
                self._keep(response.headers)
                return response.status, response.read().decode(errors="replace"), response.headers
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), error.headers

    def csrf(self, path: str) -> str:
        status, page, _ = self.get(path)
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert status == 200 and match, page[:500]
        return match.group(1)

    def post_form(self, path: str, fields: dict[str, str], token: str) -> tuple[int, str, Any]:
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token}).encode()
        req = urllib.request.Request(
            f"{self.server.url}{path}",
            data=data,
            method="POST",
            headers={"Referer": f"{self.server.url}{path}", **self._cookie_header()},
        )
        try:
            with self.opener.open(req, timeout=60) as response:
                return response.status, response.read().decode(errors="replace"), response.headers
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), error.headers


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def raw(
    method: str, url: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, str, Any]:
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, response.read().decode(errors="replace"), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace"), error.headers
