"""Daily deals are read from the database once per server process, then kept in memory."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from tripeaks.engine.rules import Rules
from tripeaks.play import deals
from tripeaks.play.dealday import deal_day


@pytest.mark.django_db(transaction=True)
def test_a_daily_deal_once_read_is_not_read_again(django_assert_num_queries: Any) -> None:
    first = deals.daily_deal(deal_day(), Rules())
    with django_assert_num_queries(0):
        again = deals.daily_deal(deal_day(), Rules())
    assert (again.pk, again.code, again.par) == (first.pk, first.code, first.par)
    # Each caller gets a row of its own: changing one changes nothing kept.
    again.par = -1
    assert deals.daily_deal(deal_day(), Rules()).par == first.par
    # Another rule set is another deal.
    assert deals.daily_deal(deal_day(), Rules(wrap=False)).pk != first.pk


@pytest.mark.django_db(transaction=True)
def test_a_daily_deal_made_in_a_transaction_is_kept_only_once_committed(
    django_assert_num_queries: Any,
) -> None:
    with transaction.atomic():
        made = deals.daily_deal(deal_day(), Rules())
    # Read again from the database: inside the transaction it might have been rolled back.
    with django_assert_num_queries(1):
        assert deals.daily_deal(deal_day(), Rules()).pk == made.pk
    with django_assert_num_queries(0):
        deals.daily_deal(deal_day(), Rules())
