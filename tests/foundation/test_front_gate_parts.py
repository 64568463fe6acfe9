"""The front gate's parts (tripeaks/infra/front_gate.py): the address it counts is the one DRF's
throttles count, a rate may name a period of several seconds, and the refusals a process
remembers cannot grow without end."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.handlers.asgi import ASGIRequest

from tripeaks.infra import limiter
from tripeaks.infra.addresses import client_address, scope_address
from tripeaks.infra.front_gate import credential


def test_a_rate_may_name_a_period_of_several_units() -> None:
    assert limiter.parse_rate("20/s") == (20, 1)
    assert limiter.parse_rate("30/min") == (30, 60)
    assert limiter.parse_rate("10/10s") == (10, 10)
    assert limiter.parse_rate("5/2h") == (5, 7200)
    assert limiter.parse_rate(None) is None


def scope_of(client: str | None, forwarded: list[str]) -> dict[str, Any]:
    headers = [(b"x-forwarded-for", value.encode()) for value in forwarded]
    return {
        "type": "http",
        "method": "GET",
        "path": "/api/me",
        "query_string": b"",
        "headers": [(b"host", b"testserver"), *headers],
        "client": [client, 5000] if client else None,
    }


@pytest.mark.parametrize("proxies", [0, 1, 2, None])
@pytest.mark.parametrize(
    ("client", "forwarded"),
    [
        ("203.0.113.5", []),
        ("203.0.113.5", ["198.51.100.1"]),
        ("203.0.113.5", ["198.51.100.1, 192.0.2.9"]),
        ("203.0.113.5", ["198.51.100.1", "192.0.2.9"]),
        ("203.0.113.5", [" 1.2.3.4 ,5.6.7.8 , 9.9.9.9"]),
        (None, ["198.51.100.1"]),
        (None, []),
    ],
)
def test_the_gate_counts_the_address_drfs_throttles_count(
    settings: Any, proxies: int | None, client: str | None, forwarded: list[str]
) -> None:
    from rest_framework.settings import api_settings

    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}
    api_settings.reload()
    try:
        scope = scope_of(client, forwarded)
        request = ASGIRequest(scope, io.BytesIO())
        assert scope_address(scope) == client_address(request)
    finally:
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 0}
        api_settings.reload()


def test_a_credential_is_a_digest_of_the_token_or_the_session_cookie() -> None:
    def scope(*headers: tuple[bytes, bytes]) -> dict[str, Any]:
        return {"type": "http", "headers": list(headers)}

    token = credential(scope((b"authorization", b"Token abc123")))
    session = credential(scope((b"cookie", b"csrftoken=x; sessionid=abc123")))
    assert token and session and token != session and "abc123" not in token + session
    assert credential(scope((b"cookie", b"sessionid=abc123"))) == session
    assert credential(scope((b"cookie", b"csrftoken=x"))) is None
    assert credential(scope((b"authorization", b"Basic abc123"))) is None


def test_the_refusals_a_process_remembers_are_bounded() -> None:
    refusals = limiter._Refusals(most=3)
    now = 1_000_000.0
    windows = [limiter.window(f"r{n}", 1, 60, now) for n in range(5)]
    for w in windows:
        refusals.note([w], [2], now)
        refusals.send([w], now)
    assert len(refusals._ends) <= 3 and len(refusals._sent) <= 3
    # One over its limit refuses until its window ends, and no longer.
    refusals.clear()
    refusals.note(windows[:1], [2], now)
    assert refusals.wait(windows[:1], now) == windows[0].left
    assert refusals.wait(windows[:1], windows[0].ends) is None
    assert refusals.wait(windows[1:2], now) is None


def test_a_window_the_processs_own_counts_fill_is_over_before_redis_answers() -> None:
    """The counts a process sent to Redis are a part of Redis's count: once they reach a
    window's limit, the next count is refused (and counted among the refusals) with no call, as
    the rest of a burst is while its first counts are in flight. A count that never reached
    Redis (unreachable) is not one of them: an outage lets everything through."""
    refusals = limiter._Refusals()
    now = 1_000_000.0
    window, other = limiter.window("a", 3, 10, now), limiter.window("b", 9, 10, now)
    for _ in range(3):
        assert refusals.wait([window, other], now, tally=True) is None
        refusals.send([window, other], now)
    assert refusals.wait([window, other], now, tally=True) == window.left
    assert refusals.refused([window], now) == 1
    assert refusals.wait([other], now) is None  # 3 of its 9
    assert refusals.wait([limiter.window("a", 3, 10, window.ends)], window.ends) is None
    refusals.clear()
    for _ in range(3):
        refusals.send([window], now)
        refusals.unsend([window])
    assert refusals.wait([window], now) is None


def test_a_flood_is_the_refusals_made_in_a_window_known_over_and_ends_with_it() -> None:
    """What `front_gate.flooding` reads: the counts refused from memory in a window known over,
    none before Redis said it was over, and none once it has ended (a new window starts clean)."""
    refusals = limiter._Refusals()
    now = 1_000_000.0
    over, other = limiter.window("a", 1, 10, now), limiter.window("b", 1, 10, now)
    assert refusals.wait([over], now, tally=True) is None  # not known over: Redis is asked
    assert refusals.refused([over], now) is None
    refusals.note([over, other], [2, 1], now)
    assert refusals.refused([over], now) == 0
    for _ in range(3):
        assert refusals.wait([over, other], now, tally=True) == over.left
    refusals.wait([over], now)  # a look, not a refusal
    assert refusals.refused([over, other], now) == 3
    assert refusals.refused([other], now) is None
    assert refusals.refused([over], over.ends) is None
    following = limiter.window("a", 1, 10, over.ends)
    assert refusals.refused([following], over.ends) is None
    assert refusals.refusing(now) and not refusals.refusing(over.ends)


def test_a_flood_that_goes_on_knocking_is_refused_from_the_next_windows_first_knock() -> None:
    """What `front_gate.flooding` reads across windows (issue #35: each 10 s window's start let a
    retried flood's first opens through to the gate and the consumer). More than `refusals`
    refused in a window renew the flood for the next one, from its first knock, with no Redis
    call; fewer (an honest page behind the address, once the flood stopped) do not."""
    refusals = limiter._Refusals()
    now = 1_000_000.0
    first = limiter.window("a", 1, 10, now)
    refusals.note([first], [2], now)
    for _ in range(3):  # refused from memory (the server's 429)
        refusals.wait([first], now, tally=True)
    assert refusals.flooding([first], 3, now)  # the 4th refusal: closed as it connects
    second = limiter.window("a", 1, 10, first.ends)
    assert refusals.refusing(first.ends)
    assert refusals.flooding([second], 3, first.ends)  # renewed: its first knock is refused
    assert refusals.wait([second], first.ends) == second.left  # and known over, with no count
    for _ in range(3):
        assert refusals.flooding([second], 3, first.ends)
    third = limiter.window("a", 1, 10, second.ends)
    assert refusals.flooding([third], 3, second.ends)  # 4 knocks in the second: renewed again
    fourth = limiter.window("a", 1, 10, third.ends)
    assert not refusals.flooding([fourth], 3, third.ends)  # 1 knock in the third: let in
    assert refusals.wait([fourth], third.ends) is None  # Redis is asked again
    assert not refusals.refusing(fourth.ends)
    other = limiter.window("b", 1, 10, first.ends)
    assert not refusals.flooding([other], 3, first.ends)  # another address's windows: untouched


def test_the_window_before_is_the_same_rates_previous_index() -> None:
    now = 1_000_000.0
    w = limiter.window("socket_open_address:203.0.113.5", 10, 10, now)
    before = limiter.window("socket_open_address:203.0.113.5", 10, 10, now - 10)
    assert limiter.previous_key(w.key) == before.key


@pytest.mark.asyncio
async def test_counts_that_never_reached_redis_are_not_the_processs_own(settings: Any) -> None:
    """Redis unreachable (nothing listens on the port), the gate lets every count through, one
    after another, past the window's limit: the counts the process sent and that failed are
    taken back, so they never fill the window in the process's memory."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    limiter.forget_refusals()
    window = limiter.window("socket_open_address:192.0.2.7", 2, 3600)
    try:
        waits = [await limiter.count_async([window], remember_refusals=True) for _ in range(5)]
    finally:
        limiter.forget_refusals()
    assert waits == [None] * 5
