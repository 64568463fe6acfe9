"""The staff review queue reads in a fixed number of queries, however many held runs share a
device or an address (who shares is asked once for all of them)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from leaderboard import selectors
from leaderboard.models import Result
from tests.leaderboard.test_first_try import LOSS, play, start
from tests.leaderboard.test_second_accounts import DEVICE, player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def holds_on(settings: Any) -> None:
    settings.FAIR_PLAY_HOLD_SHARED = True


def queries_of_the_page(staff: Client) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        response = staff.get("/staff/review/")
    assert response.status_code == 200
    return len(queries), response.content.decode()


def test_the_queue_page_reads_who_shares_once_for_every_held_run(make_user: Any) -> None:
    staff = Client()
    staff.force_login(make_user("referee", is_staff=True))
    queries_of_the_page(staff)  # the session's first request also records it (once a minute)
    names = ["first", "second", "third", "fourth", "fifth"]
    for name in names[:2]:  # the second is held: it shares the first's device and address
        api = player(make_user(name), device=DEVICE)
        play(api, start(api), LOSS)
    two, page = queries_of_the_page(staff)
    assert "Same device as: first" in page

    for name in names[2:]:
        api = player(make_user(name), device=DEVICE)
        play(api, start(api), LOSS)
    assert Result.objects.filter(held=True).count() == 4
    five, page = queries_of_the_page(staff)
    assert five == two
    assert "Same device as: first, fourth, second, third" in page  # the fifth's row
    assert "Same address as: first, second, third, fourth" not in page  # names sorted

    rows = selectors.review_page()["rows"]
    fifth = next(row for row in rows if row["run"].player.username == "fifth")
    assert fifth["sharing"].device == ["first", "fourth", "second", "third"]
    assert fifth["sharing"].address == ["first", "fourth", "second", "third"]
