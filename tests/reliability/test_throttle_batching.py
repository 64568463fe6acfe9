"""The game socket's frames are counted in batches (tripeaks/infra/throttle_async.py): one Redis call
for all the frames that arrive while a count is in flight, with the same counts as one by one."""

from __future__ import annotations

import asyncio
from contextvars import Context
from typing import Any

import pytest
from django.core.cache import caches

from tripeaks.infra import limiter, throttle_async, throttling

pytestmark = pytest.mark.asyncio


async def test_frames_counted_together_get_the_answers_one_by_one_would(settings: Any) -> None:
    settings.PLAY_THROTTLE_RATES = {"move": "20/min", "move_address": "45/min"}
    one = throttling.play_limits("move", user_id="batch-a", address="10.9.9.9")
    other = throttling.play_limits("move", user_id="batch-b", address="10.9.9.9")
    waits = await asyncio.gather(
        *(throttle_async.check_async(one) for _ in range(30)),
        *(throttle_async.check_async(other) for _ in range(30)),
    )
    # Counted in order: player a's 30 frames are the address's 1st to 30th, and 20 pass a's own
    # limit; player b's are the address's 31st to 60th, so only its first 15 pass both limits.
    # (A batch that straddles a minute starts new windows: more pass, never fewer.)
    allowed_a = sum(wait is None for wait in waits[:30])
    allowed_b = sum(wait is None for wait in waits[30:])
    assert allowed_a >= 20 and allowed_b >= 15
    assert (allowed_a, allowed_b) == (20, 15) or allowed_a + allowed_b > 35
    assert all(wait is None or 0 < wait <= 60 for wait in waits)
    assert limiter._counters.get().calls < 60
    # The counters are those the REST side reads: the next frame of player a is over its limit.
    assert await asyncio.to_thread(throttling.check, one) is not None


async def test_counts_make_no_cache_backend(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A count's task may start from a context where Django's `caches` holds no backend (a new
    socket's): its keys are made without building one for every count."""
    settings.PLAY_THROTTLE_RATES = {"move": "100/min", "move_address": None}
    limits = throttling.play_limits("move", user_id="fresh", address=None)
    assert await throttle_async.check_async(limits) is None  # the loop's counter made
    made: list[object] = []
    backend = type(caches["default"])
    made_by = backend.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append(self)
        made_by(self, *args, **kwargs)

    monkeypatch.setattr(backend, "__init__", counted)
    for _ in range(5):
        fresh = asyncio.create_task(throttle_async.check_async(limits), context=Context())
        assert await fresh is None
    assert made == []
