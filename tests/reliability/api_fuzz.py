"""The whole REST API fuzzed from its own OpenAPI schema (schemathesis), signed in as a player
with a token: no 500s, every error a JSON body with a readable `detail`, and afterwards the
database is consistent (every game replays to its stored state, every game's seq is its log's
length, statistics equal their recomputation).

The operations are fuzzed in five files, so that parallel workers share them (together they took
40 s on one worker, the play side alone 32 s in CI, and the accounts' side with /api/me 57 s of a
loaded run): test_api_fuzz_me.py the player's own account (`ME_PATHS`: /api/me),
test_api_fuzz_accounts.py the rest of the accounts' side (`ACCOUNT_PATHS`: /api/auth, /api/staff,
/api/players, /api/leaderboards), test_api_fuzz_contests.py the contests' (`CONTEST_PATHS`:
/api/races, /api/arenas, /api/quickmatch), test_api_fuzz_games.py the games (`GAME_PATHS`:
/api/games), test_api_fuzz_play.py every other operation (the schema less those paths, so that a
new operation is fuzzed without a word here).
Both use `check` and the `fuzz_player` fixture (tests/reliability/conftest.py).

Bounded: EXAMPLES per operation; half the cases that name a game name the player's real game, so
moves with fuzzed bodies reach a real game.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, settings

from tests.factories import UserFactory

EXAMPLES = 40
ME_PATHS = r"^/api/me(/|$)"
ACCOUNT_PATHS = r"^/api/(auth|staff|players|leaderboards)(/|$)"
CONTEST_PATHS = r"^/api/(races|arenas|quickmatch)(/|$)"
GAME_PATHS = r"^/api/games(/|$)"
# Hypothesis' settings of both files' tests.
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)


def _load_schema() -> Any:
    """The schema the WSGI app serves (loaded at collection: drf-spectacular needs no database)."""
    from tripeaks.config.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/schema", application)


SCHEMA = _load_schema()


@contextlib.contextmanager
def keeping_the_test_connection() -> Iterator[None]:
    """Requests are called in-process inside the test's transaction: as Django's test client
    does, they must not close the test's database connection when they finish."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


# Whether Flask is installed: it is not. schemathesis' in-process transport tries `from flask
# import Flask` at every request (transport/wsgi.py, to catch a Flask app's exceptions), and an
# import that fails is not remembered: each searched sys.path again (2,012 calls, 1.2 s of a
# profiled run's 56 s of CPU; 0.14 ms a request unprofiled).
FLASK_MISSING = importlib.util.find_spec("flask") is None


@contextlib.contextmanager
def flask_known_missing() -> Iterator[None]:
    """While a request is sent, `import flask` fails at once (None in sys.modules: the import
    system's own mark of a module known missing) rather than after a search of sys.path, as it
    failed anyway."""
    if not FLASK_MISSING or "flask" in sys.modules:
        yield
        return
    sys.modules["flask"] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.modules.pop("flask", None)


def fuzz_player() -> Iterator[dict[str, Any]]:
    """A player with a token, a game in progress (a few moves made) and a finished game; the
    database checked afterwards (the `fuzz_player` fixture)."""
    from rest_framework.authtoken.models import Token

    from tests.play.helpers import client_for, move, start_custom, winnable_code

    user = UserFactory(username="fuzzer")
    api = client_for(user)
    numbered = api.post("/api/games", {"mode": "numbered", "number": 7}, format="json").json()
    move(api, numbered, "resign")
    code, line = winnable_code()
    game = start_custom(api, code)
    for step in line[:4]:
        game = move(api, game, **step).json()
    token, _ = Token.objects.get_or_create(user=user)
    yield {"user": user, "token": token.key, "game": game["id"]}
    assert_database_consistent()


def assert_database_consistent() -> None:
    from django.db.models import Count, F

    from bench.play_load import verify_replays
    from leaderboard.models import PlayerStats
    from leaderboard.services.recompute import recompute_stats
    from tripeaks.play.models import Game

    ids = {str(pk) for pk in Game.objects.values_list("pk", flat=True)}
    checked, bad = verify_replays(ids)
    assert checked == len(ids) and bad == 0
    assert not Game.objects.annotate(logged=Count("log")).exclude(logged=F("seq")).exists()
    fields = [f.name for f in PlayerStats._meta.fields if f.name != "id"]
    before = sorted(PlayerStats.objects.values_list(*fields))
    with transaction.atomic():
        recompute_stats()
        assert sorted(PlayerStats.objects.values_list(*fields)) == before
        transaction.set_rollback(True)


def _aim_at_the_real_game(case: Any, game_id: str) -> None:
    params = case.path_parameters or {}
    if "game_id" in params:
        digest = hashlib.sha256(repr(case.body).encode() + repr(params).encode()).digest()
        if digest[0] % 2 == 0:
            params["game_id"] = game_id


def check(case: Any, player: dict[str, Any]) -> None:
    """One fuzzed request as `player`: no 500, an error's body JSON with a readable detail."""
    _aim_at_the_real_game(case, player["game"])
    with keeping_the_test_connection(), flask_known_missing():
        # identity: the in-process transport hands back the body as sent, and the game API's
        # JSON is gzipped for clients that accept it (tripeaks/infra/compression.py).
        response = case.call(
            headers={
                "Authorization": f"Token {player['token']}",
                "Accept-Encoding": "identity",
            }
        )
    where = f"{case.method} {case.formatted_path} -> {response.status_code}: {response.text[:300]}"
    assert response.status_code < 500, where
    if response.status_code >= 400:
        headers = {name.lower(): value for name, value in response.headers.items()}
        content_type = headers.get("content-type", "")
        content_type = content_type[0] if isinstance(content_type, list) else content_type
        assert content_type.startswith("application/json"), where
        body = json.loads(response.text)
        assert isinstance(body, dict) and isinstance(body.get("detail"), str), where
        assert body["detail"].strip() and "Traceback" not in response.text, where


def fuzz_test(schema: Any) -> Callable[..., None]:
    """The fuzz test of `schema`'s operations, for a test module to name as its own (the API's
    operations are shared out among several files, so that parallel workers share them)."""

    @schema.parametrize()
    @FUZZ_SETTINGS
    def test_fuzzed_requests_get_no_500_and_readable_json_errors(
        case: Any, fuzz_player: dict[str, Any]
    ) -> None:
        check(case, fuzz_player)

    return test_fuzzed_requests_get_no_500_and_readable_json_errors
