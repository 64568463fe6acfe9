"""The REST API's player's own account (`ME_PATHS`: /api/me) fuzzed from its OpenAPI schema: no
500s, readable JSON errors, a consistent database after each operation
(tests/reliability/api_fuzz.py). In a file of its own so that parallel workers share the accounts'
side (with test_api_fuzz_accounts.py: 57 s on one worker of a loaded run)."""

from __future__ import annotations

from tests.reliability.api_fuzz import ME_PATHS, SCHEMA, fuzz_test

schema = SCHEMA.include(path_regex=ME_PATHS)

test_fuzzed_requests_get_no_500_and_readable_json_errors = fuzz_test(schema)
