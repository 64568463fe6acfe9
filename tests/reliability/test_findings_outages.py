"""Issue #16's findings (tests/reliability/test_findings.py): the HTML pages when the database pool
is exhausted or Redis is down answer 503 with Retry-After, never 500."""

from __future__ import annotations

import collections

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from tests.reliability.findings import (
    PASSWORD,
    Browser,
    at_once,
    fresh_counters,
)
from tests.reliability.stack import Stack

pytestmark = pytest.mark.slow


# --------------------------------------------------------------------------- outages


def test_an_exhausted_database_pool_answers_html_pages_503_with_retry_after(
    stack: Stack,
) -> None:
    fresh_counters(stack)
    # One pooled connection: a sign-up holds it while it hashes the password (at Django's work
    # factor), the others wait half a second for it and give up (PoolTimeout), as 60 did on the
    # 20-connection pool.
    slow_hash = str(PBKDF2PasswordHasher.iterations)
    server = stack.start_server(
        "tinypool",
        env={"DB_POOL_MAX": "1", "DB_POOL_TIMEOUT": "0.5", "PASSWORD_HASH_ITERATIONS": slow_hash},
    )
    browser = Browser(stack, server)
    token = browser.csrf("/accounts/signup/")
    results = at_once(
        12,
        lambda i: browser.post_form(
            "/accounts/signup/",
            {"username": f"pooly{i}", "password1": PASSWORD, "password2": PASSWORD},
            token,
        ),
    )
    statuses = collections.Counter(status for status, _, _ in results)
    print(f"\n12 web sign-ups at once on a 1-connection pool: {dict(statuses)}")
    assert 500 not in statuses, statuses
    assert 503 in statuses, statuses
    for status, page, headers in results:
        if status == 503:
            assert int(headers["Retry-After"]) > 0
            assert "text/html" in headers["Content-Type"] and "Traceback" not in page


def test_with_redis_down_the_html_pages_answer_503_with_retry_after_never_500(
    stack: Stack,
) -> None:
    fresh_counters(stack)
    server = stack.start_server("noredis")
    browser = Browser(stack, server)
    sign_in_token = browser.csrf("/accounts/login/")
    sign_up_token = browser.csrf("/accounts/signup/")
    stack.stop_redis()
    answers = {
        "sign-in": browser.post_form(
            "/accounts/login/", {"username": "someone", "password": "guess"}, sign_in_token
        ),
        "sign-up": browser.post_form(
            "/accounts/signup/",
            {"username": "noredis", "password1": PASSWORD, "password2": PASSWORD},
            sign_up_token,
        ),
        "home": browser.get("/"),
    }
    seen = {name: status for name, (status, _, _) in answers.items()}
    print(f"\nHTML pages with Redis down: {seen}")
    for name, (status, page, headers) in answers.items():
        assert status != 500, (name, page[:300])
        if status == 503:
            assert int(headers["Retry-After"]) > 0 and "text/html" in headers["Content-Type"]
    # Sign-in and sign-up refuse rather than count nothing: 503.
    assert seen["sign-in"] == 503 and seen["sign-up"] == 503
