"""Reads queue nothing and write nothing; what they find cold, the edge or a write's commit asks a
service to warm. Broadcasts and cache drops go out on commit: a rolled-back write sends none."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

from leaderboard import cache, selectors
from leaderboard.models import DealBest, Result
from leaderboard.services.review import review_run
from tests.factories import UserFactory
from tests.leaderboard.helpers import daily, finish
from tripeaks.config.asgi import application
from tripeaks.play.dealday import deal_day

# Celery runs eagerly in tests: a read that queued the rebuild would leave the set ready.


class RolledBack(Exception):
    pass


@pytest.mark.django_db
def test_reading_a_cold_board_queues_no_rebuild_but_its_rest_view_asks_for_one(
    make_user: Any,
) -> None:
    day = deal_day()
    deal = daily(day)
    players = [make_user(f"p{i}") for i in range(4)]
    for i, player in enumerate(players):
        finish(player, deal, time_ms=1000 + i)  # in the test's transaction: no commit, cold sets
    last = DealBest.objects.get(player=players[-1])
    record = selectors.daily_record(day, "wrap-closed")

    assert selectors.rank_of_line(last) == 4
    page = selectors.deal_board(record, limit=1, viewer=players[-1], board="best")
    assert page.me is not None and page.me["rank"] == 4 and page.cold
    game = Result.objects.get(player=players[-1]).game
    assert selectors.result_for_game(game) is not None
    assert not cache.is_ready(deal.pk) and not cache.is_ready(deal.pk, "first")

    viewer = APIClient()
    viewer.force_authenticate(players[-1])
    body = viewer.get("/api/leaderboards/daily", {"board": "best", "limit": 1}).json()
    assert body["me"]["rank"] == 4
    assert cache.is_ready(deal.pk) and not cache.is_ready(deal.pk, "first")
    # Warm now: the same page reads its rank from the set and asks for nothing.
    page = selectors.deal_board(record, limit=1, viewer=players[-1], board="best")
    assert page.me is not None and page.me["rank"] == 4 and not page.cold


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_staff_hide_keeps_the_rank_sets_a_committed_one_drops_them(
    make_user: Any,
) -> None:
    deal = daily(deal_day())
    player, staff = make_user("suspect"), make_user("staff", is_staff=True)
    run = finish(player, deal)
    Result.objects.filter(pk=run.pk).update(held=True)
    cache.rebuild(deal.pk)
    assert cache.is_ready(deal.pk)

    with contextlib.suppress(RolledBack), transaction.atomic():
        review_run(result_id=run.pk, staff=staff, decision="hide", reason="too fast")
        raise RolledBack
    assert cache.is_ready(deal.pk)
    assert Result.objects.filter(pk=run.pk, held=True, hidden=False).exists()

    review_run(result_id=run.pk, staff=staff, decision="hide", reason="too fast")
    assert not cache.is_ready(deal.pk)


@database_sync_to_async
def finish_todays_deal(username: str, time_ms: int, *, roll_back: bool = False) -> None:
    with contextlib.suppress(RolledBack), transaction.atomic():
        finish(
            UserFactory(username=username), daily(deal_day()), time_ms=time_ms, at=timezone.now()
        )
        if roll_back:
            raise RolledBack


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_rolled_back_finish_reaches_no_watcher() -> None:
    watcher = WebsocketCommunicator(
        application,
        "/ws/leaderboards/daily/wrap-closed/",
        headers=[(b"origin", b"http://localhost")],
    )
    assert (await watcher.connect())[0]
    assert (await watcher.receive_json_from())["type"] == "board"

    await finish_todays_deal("undone", 10_000, roll_back=True)  # would rank first
    await finish_todays_deal("kept", 50_000)

    # The first update the watcher hears is the committed finish's, and the board never had the
    # rolled-back line (its version counts one change).
    update = await watcher.receive_json_from()
    assert [(x["rank"], x["player"]["username"]) for x in update["lines"]] == [(1, "kept")]
    assert update["total"] == 1 and update["version"] == 1
    await watcher.disconnect()
