"""Issue #16's findings (tests/reliability/test_findings.py): sign-ups at once through the web form."""

from __future__ import annotations

import collections

import pytest

from tests.reliability.findings import (
    ONE_WINDOW,
    PASSWORD,
    Browser,
    at_once,
    fresh_counters,
)
from tests.reliability.stack import Stack, request

pytestmark = pytest.mark.slow


# --------------------------------------------------------------------------- sign-up limits


def test_60_concurrent_web_sign_ups_hold_the_api_limit_and_give_no_500(stack: Stack) -> None:
    fresh_counters(stack)
    server = stack.start_server("signups", env=ONE_WINDOW)
    browser = Browser(stack, server)
    token = browser.csrf("/accounts/signup/")
    before = stack.sql("SELECT count(*) FROM accounts_user")[0][0]

    def sign_up_form(i: int) -> tuple[int, str]:
        fields = {"username": f"webby{i}", "password1": PASSWORD, "password2": PASSWORD}
        status, page, headers = browser.post_form("/accounts/signup/", fields, token)
        return status, headers.get("Retry-After", "")

    results = at_once(60, sign_up_form)
    statuses = collections.Counter(status for status, _ in results)
    made = stack.sql("SELECT count(*) FROM accounts_user")[0][0] - before
    print(f"\n60 web sign-ups at once: {dict(statuses)}, {made} accounts made")
    assert 500 not in statuses, statuses
    assert set(statuses) <= {302, 429, 503}, statuses
    assert made == statuses[302] <= 30  # the API's sign-up limit: 30 an hour per address
    assert all(int(wait) > 0 for status, wait in results if status in (429, 503))
    # The form and the API share one budget: the API is refused now too.
    body = {"username": "apiafter", "password": PASSWORD}
    assert request("POST", f"{server.url}/api/auth/signup", body)[0] == 429
