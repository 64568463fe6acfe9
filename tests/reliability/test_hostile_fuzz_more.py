"""Hostile values at every other REST operation of the OpenAPI schema, the second of each pair
(tests/reliability/hostile_fuzz.py; the first: test_hostile_fuzz.py)."""

from __future__ import annotations

import pytest

from tests.reliability.hostile_fuzz import OPERATIONS, fuzz_rest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_hostile_requests_at_the_other_operations_never_get_a_5xx() -> None:
    fuzz_rest(OPERATIONS[1::2])
