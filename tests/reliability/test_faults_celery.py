"""Faults on a private stack (tests/reliability/test_faults.py): a Celery worker killed mid-task."""

from __future__ import annotations

import time

import pytest

from tests.reliability.faults import start
from tests.reliability.stack import Stack, wait_until

pytestmark = pytest.mark.slow


# --------------------------------------------------------------------------- Celery


def test_a_worker_killed_mid_precompute_duplicates_and_loses_nothing(stack: Stack) -> None:
    from datetime import timedelta

    from tripeaks.play.dealday import deal_day

    days_ahead = 7
    expected = (days_ahead + 1) * 4
    ((_, token),) = stack.players(1, "early")
    server = stack.start_server("celery-web")
    stack.sql(
        "DELETE FROM play_deal WHERE source = 'daily' AND NOT EXISTS "
        "(SELECT 1 FROM play_game WHERE deal_id = play_deal.id)"
    )

    def dailies() -> int:
        return int(stack.sql("SELECT count(*) FROM play_deal WHERE source = 'daily'")[0][0])

    # No worker yet: a daily deal nobody precomputed is made on request.
    before = dailies()
    game = start(server, token, rules={"wrap": False, "open": True})
    assert game["mode"] == "daily" and dailies() == before + 1

    worker = stack.start_worker("precompute-1")
    stack.python(
        "from tripeaks.play.tasks import precompute_daily_deals\n"
        f"print(json.dumps(precompute_daily_deals.delay({days_ahead}).id))"
    )
    wait_until(lambda: dailies() >= 8, 30, "the precompute to be under way")
    worker.kill()
    killed = time.monotonic()
    at_kill = dailies()
    assert at_kill < expected
    second = stack.start_worker("precompute-2")
    try:
        wait_until(lambda: dailies() == expected, 60, "the next worker to finish the work", 0.2)
    except TimeoutError:
        raise AssertionError(
            f"{dailies()}/{expected} deals; worker log:\n{second.log_text()[-4000:]}"
        ) from None
    finished = time.monotonic()
    time.sleep(1)
    assert dailies() == expected
    duplicates = stack.sql(
        "SELECT day, rules_key, layout, count(*) FROM play_deal WHERE source = 'daily' "
        "GROUP BY 1, 2, 3 HAVING count(*) > 1"
    )
    assert duplicates == []
    days = {
        row[0] for row in stack.sql("SELECT DISTINCT day FROM play_deal WHERE source = 'daily'")
    }
    today = deal_day()
    assert {today + timedelta(days=d) for d in range(days_ahead + 1)} <= days
    print(
        f"worker killed with {at_kill}/{expected} daily deals made; the next worker made the rest "
        f"in {finished - killed:.1f} s (visibility timeout 4 s, sweep every 1 s)"
    )
