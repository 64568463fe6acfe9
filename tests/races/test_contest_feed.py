"""The contest feed (tripeaks/infra/contest_feed.py) on the real Redis: each listener hears its
own contest's news, from the event loop (in order) and from synchronous code; one failing
listener does not silence the others; a listener that stopped hears nothing more."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tripeaks.infra import contest_feed

pytestmark = pytest.mark.asyncio


class Ear:
    def __init__(self) -> None:
        self.news: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def __call__(self, news: dict[str, Any]) -> None:
        self.news.put_nowait(news)

    async def next(self) -> dict[str, Any]:
        return await asyncio.wait_for(self.news.get(), 5)


async def broken(news: dict[str, Any]) -> None:
    raise ValueError("a socket that fails on its news")


async def test_each_listener_hears_its_own_contest_in_order_until_it_stops() -> None:
    ann, bob, cat = Ear(), Ear(), Ear()
    await contest_feed.listen("race-feed-1", ann)
    await contest_feed.listen("race-feed-1", broken)
    await contest_feed.listen("race-feed-1", bob)
    await contest_feed.listen("race-feed-2", cat)

    # From the event loop, in order (one queue, one pipeline).
    contest_feed.publish("race-feed-1", {"seq": 1})
    contest_feed.publish("race-feed-2", {"seq": 7})
    contest_feed.publish("race-feed-1", {"seq": 2})
    assert [await ann.next(), await ann.next()] == [{"seq": 1}, {"seq": 2}]
    assert [await bob.next(), await bob.next()] == [{"seq": 1}, {"seq": 2}]
    assert await cat.next() == {"seq": 7}
    # From synchronous code (a REST move): a connection of its own.
    await sync_to_async(contest_feed.publish_sync)("race-feed-1", {"seq": 3})
    assert await ann.next() == {"seq": 3} and await bob.next() == {"seq": 3}

    # Ann and the broken one stop; Bob still listens to the first contest.
    await contest_feed.stop("race-feed-1", ann)
    await contest_feed.stop("race-feed-1", broken)
    contest_feed.publish("race-feed-1", {"seq": 4})
    assert await bob.next() == {"seq": 4}
    # Bob stops too: the contest is unsubscribed; news of the second one still comes, after it.
    await contest_feed.stop("race-feed-1", bob)
    contest_feed.publish("race-feed-1", {"seq": 5})
    contest_feed.publish("race-feed-2", {"seq": 8})
    assert await cat.next() == {"seq": 8}
    assert ann.news.empty() and bob.news.empty()
    await contest_feed.stop("race-feed-2", cat)
