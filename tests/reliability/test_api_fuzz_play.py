"""The REST API's every operation outside `ME_PATHS`, `ACCOUNT_PATHS`, `CONTEST_PATHS` and
`GAME_PATHS` (replays, layouts, ratings, today, ...) fuzzed from its OpenAPI schema: no 500s,
readable JSON errors, a consistent database after each operation (tests/reliability/api_fuzz.py).
The accounts' side: test_api_fuzz_me.py and test_api_fuzz_accounts.py; races, arenas and quick
match: test_api_fuzz_contests.py; /api/games: test_api_fuzz_games.py."""

from __future__ import annotations

from tests.reliability.api_fuzz import (
    ACCOUNT_PATHS,
    CONTEST_PATHS,
    GAME_PATHS,
    ME_PATHS,
    SCHEMA,
    fuzz_test,
)

schema = (
    SCHEMA.exclude(path_regex=ME_PATHS)
    .exclude(path_regex=ACCOUNT_PATHS)
    .exclude(path_regex=CONTEST_PATHS)
    .exclude(path_regex=GAME_PATHS)
)

test_fuzzed_requests_get_no_500_and_readable_json_errors = fuzz_test(schema)
