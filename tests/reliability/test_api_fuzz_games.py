"""The REST API's games (`GAME_PATHS`: /api/games, its moves, hints, shares and analyses) fuzzed
from its OpenAPI schema: no 500s, readable JSON errors, a consistent database after each operation
(tests/reliability/api_fuzz.py). In a file of its own so that parallel workers share the operations
outside the accounts' side and the contests (test_api_fuzz_play.py with them: 201 s on one worker
of a loaded run, the slowest file)."""

from __future__ import annotations

from tests.reliability.api_fuzz import GAME_PATHS, SCHEMA, fuzz_test

schema = SCHEMA.include(path_regex=GAME_PATHS)

test_fuzzed_requests_get_no_500_and_readable_json_errors = fuzz_test(schema)
