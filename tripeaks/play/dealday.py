"""The deal day: daily deals turn at midnight in the deal day's time zone (Asia/Kathmandu).

Every part of the service that asks "which day is it?" asks this module.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone


def deal_zone() -> ZoneInfo:
    return ZoneInfo(settings.DEAL_DAY_TIME_ZONE)


def deal_day(moment: datetime | None = None) -> date:
    """The deal day that `moment` (default: now) falls on."""
    return (moment or timezone.now()).astimezone(deal_zone()).date()


def day_start(day: date) -> datetime:
    """The aware instant at which `day` begins."""
    return datetime.combine(day, time.min, tzinfo=deal_zone())


def next_day_start(moment: datetime | None = None) -> datetime:
    """When the next daily deal appears."""
    return day_start(deal_day(moment) + timedelta(days=1))
