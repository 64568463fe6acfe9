"""The REST API's contests (`CONTEST_PATHS`: /api/races, /api/arenas, /api/quickmatch) fuzzed
from its OpenAPI schema: no 500s, readable JSON errors, a consistent database after each operation
(tests/reliability/api_fuzz.py). In a file of their own so that parallel workers share the
operations outside the accounts' side (test_api_fuzz_play.py: 32 s in CI with them)."""

from __future__ import annotations

from tests.reliability.api_fuzz import CONTEST_PATHS, SCHEMA, fuzz_test

schema = SCHEMA.include(path_regex=CONTEST_PATHS)

test_fuzzed_requests_get_no_500_and_readable_json_errors = fuzz_test(schema)
