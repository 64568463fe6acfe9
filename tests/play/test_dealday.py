from __future__ import annotations

from datetime import UTC, date, datetime

from tripeaks.play.dealday import deal_day, next_day_start


def test_the_deal_day_turns_at_1815_utc() -> None:
    assert deal_day(datetime(2026, 6, 1, 18, 14, 59, 999999, tzinfo=UTC)) == date(2026, 6, 1)
    assert deal_day(datetime(2026, 6, 1, 18, 15, tzinfo=UTC)) == date(2026, 6, 2)


def test_the_next_deal_appears_at_kathmandu_midnight() -> None:
    assert next_day_start(datetime(2026, 6, 1, 12, 0, tzinfo=UTC)) == datetime(
        2026, 6, 1, 18, 15, tzinfo=UTC
    )
    assert next_day_start(datetime(2026, 6, 1, 18, 15, tzinfo=UTC)) == datetime(
        2026, 6, 2, 18, 15, tzinfo=UTC
    )
