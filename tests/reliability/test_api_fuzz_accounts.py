"""The REST API's accounts side but the player's own account (`ACCOUNT_PATHS`: /api/auth,
/api/staff, /api/players, /api/leaderboards) fuzzed from its OpenAPI schema: no 500s, readable JSON
errors, a consistent database after each operation (tests/reliability/api_fuzz.py). /api/me:
test_api_fuzz_me.py; the other operations: test_api_fuzz_play.py and test_api_fuzz_contests.py."""

from __future__ import annotations

from tests.reliability.api_fuzz import ACCOUNT_PATHS, SCHEMA, fuzz_test

schema = SCHEMA.include(path_regex=ACCOUNT_PATHS)

test_fuzzed_requests_get_no_500_and_readable_json_errors = fuzz_test(schema)
