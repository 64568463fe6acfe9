"""Hostile values at every other REST operation of the OpenAPI schema, the first of each pair
(tests/reliability/hostile_fuzz.py says what is fuzzed and how; the others:
test_hostile_fuzz_more.py): not one answer a 5xx, every error JSON with a `detail`."""

from __future__ import annotations

import pytest

from tests.reliability.hostile_fuzz import OPERATIONS, fuzz_rest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_hostile_requests_never_get_a_5xx() -> None:
    fuzz_rest(OPERATIONS[0::2])
