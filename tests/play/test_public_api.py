from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_layouts_are_public_and_carry_no_cards() -> None:
    body = APIClient().get("/api/layouts").json()
    assert body["default"] == "classic" and len(body["layouts"]) >= 54
    classic = body["layouts"][0]
    assert classic["name"] == "classic" and classic["size"] == 28
    assert classic["slots"][0]["covered_by"] == [3, 4]
    assert "card" not in str(body)


def test_today_says_when_the_next_daily_deal_appears(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 11, 29, 18, 14, tzinfo=UTC))
    body = APIClient().get("/api/today").json()
    assert body["day"] == "2026-11-29" and body["time_zone"] == "Asia/Kathmandu"
    assert body["next_day_at"] == "2026-11-30T00:00:00+05:45"
    assert [r["key"] for r in body["rule_sets"]] == [
        "wrap-closed",
        "wrap-open",
        "nowrap-closed",
        "nowrap-open",
    ]
