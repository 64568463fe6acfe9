"""Issue #16's findings table, row by row, against a real server (tests/reliability/stack.py:
`python -m tripeaks.stack.serve` in the production profile on a private PostgreSQL and Redis), each
attack as it was measured and the fix shown. (The solver row is tests/reliability's solver
tests' business.)

The rows are in five files, each under 30 s on one worker: this one (sign-in limits, display
names), test_findings_sign_ups.py, test_findings_outages.py, test_findings_inputs.py and
test_findings_sockets.py; their helpers are tests/reliability/findings.py.

Each test prints its figures (`-s` shows them); docs/reliability.md quotes them.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator

import pytest

from tests.reliability.findings import (
    ONE_WINDOW,
    PASSWORD,
    Browser,
    at_once,
    fresh_counters,
    sign_up,
)
from tests.reliability.stack import Process, Stack, request

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(_private_stack: Stack) -> Iterator[Process]:
    """One server for this module's tests, with the limits in one window; each test resets the
    counters (`fresh_counters`) and uses usernames of its own. The static files are collected
    first: the sign-in page is rendered with them."""
    _private_stack.collect_static()
    yield from _private_stack.shared_server("findings", env=ONE_WINDOW)


# --------------------------------------------------------------------------- sign-in limits


def test_40_concurrent_wrong_guesses_for_one_username_check_at_most_5(
    stack: Stack, server: Process
) -> None:
    fresh_counters(stack)
    sign_up(server, "victim")

    def guess(i: int) -> int:
        body = {"username": "victim", "password": f"wrong guess {i}"}
        return request("POST", f"{server.url}/api/auth/token", body, timeout=60)[0]

    statuses = collections.Counter(at_once(40, guess))
    print(f"\n40 wrong guesses at once for one username: {dict(statuses)}")
    assert set(statuses) <= {400, 429}, statuses  # no 500, and no 503: the pool is never reached
    assert statuses[400] <= 5  # checked (the limit)
    assert statuses[429] >= 35
    # The right password is refused too while the username is locked.
    right = {"username": "victim", "password": PASSWORD}
    assert request("POST", f"{server.url}/api/auth/token", right)[0] == 429


def test_40_concurrent_guesses_from_one_address_check_at_most_20(
    stack: Stack, server: Process
) -> None:
    fresh_counters(stack)

    def guess(i: int) -> int:
        body = {"username": f"nobody{i}", "password": "wrong guess"}
        return request("POST", f"{server.url}/api/auth/token", body, timeout=60)[0]

    statuses = collections.Counter(at_once(40, guess))
    print(f"\n40 wrong guesses at once from one address (40 usernames): {dict(statuses)}")
    assert set(statuses) <= {400, 429}, statuses
    assert statuses[400] <= 20
    assert statuses[429] >= 20


def test_the_web_sign_in_form_shares_the_api_sign_in_limit(stack: Stack, server: Process) -> None:
    fresh_counters(stack)
    sign_up(server, "formvictim")
    browser = Browser(stack, server)
    token = browser.csrf("/accounts/login/")

    def guess(i: int) -> int:
        fields = {"username": "formvictim", "password": f"wrong {i}"}
        return browser.post_form("/accounts/login/", fields, token)[0]

    statuses = collections.Counter(at_once(20, guess))
    print(f"\n20 wrong guesses at once on the sign-in page: {dict(statuses)}")
    assert statuses[200] <= 5 and statuses[429] >= 15, statuses  # 200: the form again, refused
    right = {"username": "formvictim", "password": PASSWORD}
    assert request("POST", f"{server.url}/api/auth/token", right)[0] == 429


# --------------------------------------------------------------------------- display names


def test_display_names_refuse_invisible_characters_and_other_players_usernames(
    stack: Stack, server: Process
) -> None:
    fresh_counters(stack)
    sign_up(server, "realbob")  # ("admin" is refused as a username too: test_username_holes)
    ((_, token),) = stack.players(1, "mallory")
    refused = {
        "U+3164 alone": "\u3164",
        "U+2028 inside": "Bob\u2028Bob",
        "zero width": "real\u200bbob",
        "the staff name admin": "admin",
        "admin in Cyrillic": "\u0430dmin",
        "another's username": "REALBOB",
        "another's, with lookalikes": "r\u0435\u0430lb0b",
    }
    for what, name in refused.items():
        status, body, _, _ = request("PATCH", f"{server.url}/api/me", {"display_name": name}, token)
        assert status == 400, (what, body)
        assert body["detail"] and "display_name" in body["errors"], (what, body)
    status, body, _, _ = request("PATCH", f"{server.url}/api/me", {"display_name": "ＭＡＬ"}, token)
    assert status == 200 and body["display_name"] == "MAL"  # NFKC
    # Nothing refused was stored.
    assert stack.sql("SELECT display_name FROM accounts_user WHERE username = 'mallory0'") == [
        ("MAL",)
    ]
