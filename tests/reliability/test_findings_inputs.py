"""Issue #16's findings (tests/reliability/test_findings.py): inputs that gave 500s."""

from __future__ import annotations

import collections
import json
import re
from collections.abc import Iterator

import pytest

from tests.reliability.findings import (
    fresh_counters,
    raw,
)
from tests.reliability.stack import Process, Stack

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(_private_stack: Stack) -> Iterator[Process]:
    """One server (the production profile) for this module's tests: each only sends requests
    that change nothing on it. The DEBUG one is started by its own test."""
    yield from _private_stack.shared_server("inputs")


# --------------------------------------------------------------------------- inputs that gave 500s


def json_operations(server: Process) -> list[tuple[str, str]]:
    """(method, path) of every operation of the served OpenAPI schema that takes a JSON body,
    path parameters filled in."""
    import yaml

    status, text, _ = raw("GET", f"{server.url}/api/schema")
    assert status == 200
    schema = yaml.safe_load(text)
    operations = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if "requestBody" in operation:
                filled = re.sub(r"\{game_id\}", "00000000-0000-0000-0000-000000000000", path)
                operations.append((method.upper(), re.sub(r"\{[^}]+\}", "someone", filled)))
    return operations


def test_deeply_nested_json_on_every_json_endpoint_is_a_400(stack: Stack, server: Process) -> None:
    fresh_counters(stack)
    ((_, token),) = stack.players(1, "deep")
    operations = json_operations(server)
    assert len(operations) >= 6, operations
    bodies = {
        # Deeper than the decoder's recursion limit, within the API's body limit (8 kB; a
        # move's 1 kB refuses them with 413 before parsing).
        "4,000 arrays": b"[" * 4000 + b"]" * 4000,
        "1,300 objects": b'{"a":' * 1300 + b"1" + b"}" * 1300,
        "a field 3,000 deep": b'{"seq": ' + b"[" * 3000 + b"]" * 3000 + b', "action": "draw"}',
    }
    seen = collections.Counter()
    for method, path in operations:
        for what, body in bodies.items():
            status, text, headers = raw(
                method,
                f"{server.url}{path}",
                body,
                {"Content-Type": "application/json", "Authorization": f"Token {token}"},
            )
            seen[status] += 1
            assert status < 500, (method, path, what, status, text[:300])
            assert headers["Content-Type"].startswith("application/json")
    print(f"\ndeep JSON: {len(operations)} operations x {len(bodies)} bodies: {dict(seen)}")
    assert seen[400] >= len(operations)


def test_unicode_digits_and_nul_in_urls_are_4xx_not_500(stack: Stack, server: Process) -> None:
    fresh_counters(stack)
    for path in (
        "/api/leaderboards/numbered/%C2%B2",  # superscript two: isdigit() but not int()
        "/api/leaderboards/numbered/%D9%A3",  # Arabic-Indic three: int() takes it
        "/api/leaderboards/numbered/%EF%BC%97",  # fullwidth seven
        "/api/players/%00/stats",
        "/api/players/ab%00cd/stats",
        "/api/leaderboards/daily?cursor=%00",
        "/api/staff/players/%00/remove-from-boards",
        "/accounts/login/?next=%00",
    ):
        status, text, headers = raw("GET", f"{server.url}{path}")
        assert 400 <= status < 500, (path, status, text[:300])
        if path.startswith("/api/"):
            assert headers["Content-Type"].startswith("application/json"), path
    # A NUL in a cookie or a token header reaches no query either.
    status, _, _ = raw(
        "GET", f"{server.url}/api/me", headers={"Cookie": "sessionid=abcdefgh\\000x"}
    )
    assert 400 <= status < 500
    # The ASCII number still works.
    assert raw("GET", f"{server.url}/api/leaderboards/numbered/7")[0] == 200


def test_with_debug_on_an_unknown_api_url_answers_the_json_404(stack: Stack) -> None:
    server = stack.start_server("debug", env={"DEBUG": "1"})
    for path in ("/api/nothing", "/api/games/not-a-uuid", "/api/leaderboards/nothing/here"):
        status, text, headers = raw("GET", f"{server.url}{path}")
        assert status == 404, (path, status)
        assert headers["Content-Type"].startswith("application/json"), (path, text[:200])
        assert json.loads(text) == {"detail": "Not found."}
    # Pages outside /api/ keep Django's debug page when DEBUG is on.
    status, text, headers = raw("GET", f"{server.url}/no-such-page")
    assert status == 404 and headers["Content-Type"].startswith("text/html")


def test_an_unknown_api_url_is_the_json_404_for_every_method(server: Process) -> None:
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        status, text, headers = raw(method, f"{server.url}/api/games/null,null/moves", b"{}")
        assert status == 404, (method, status, text[:200])  # not a CSRF page for the writes
        assert json.loads(text) == {"detail": "Not found."}
