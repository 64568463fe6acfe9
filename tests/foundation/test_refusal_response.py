"""A service's refusal becomes its API answer in one place (tripeaks/infra/api_errors.py,
`refusal_response`): play's, an arena's, a race's and the review's errors alike. Before, play,
races and the review each built the body themselves (races.api.refused, the share view's inline
Response), and the shapes could drift apart."""

from __future__ import annotations

import re
from pathlib import Path

from tripeaks.arenas.errors import ArenaNotFound, ArenaRefused
from tripeaks.infra import api_errors
from tripeaks.play.deals import PoolEmpty
from tripeaks.play.errors import GameNotFound, SeqConflict, TimeUp
from tripeaks.races.errors import NotHost, RaceConflict, RaceOver
from tripeaks.review.errors import NotShareable

ROOT = Path(__file__).resolve().parents[2]


def test_each_apps_refusal_keeps_its_status_code_and_message() -> None:
    cases = [
        (GameNotFound("no such game"), 404, "not_found"),
        (TimeUp("the arena is over"), 409, "time_up"),
        (ArenaNotFound("no such arena"), 404, "not_found"),
        (ArenaRefused("join the arena first"), 409, "refused"),
        (NotHost("only the host can start"), 403, "not_host"),
        (RaceConflict("the race is full", code="race_full"), 409, "race_full"),
        (RaceOver("the race is over"), 409, "race_over"),
        (
            NotShareable("only a finished game can be shared", code="not_finished"),
            400,
            "not_finished",
        ),
    ]
    for error, status, code in cases:
        response = api_errors.refusal_response(error)
        assert response.status_code == status, error
        assert response.data == {"detail": error.message, "code": code}, error
        assert not response.has_header("Retry-After"), error


def test_a_refusal_carries_its_view_and_its_wait() -> None:
    conflict = api_errors.refusal_response(SeqConflict("stale", view={"id": "g", "seq": 3}))
    assert conflict.status_code == 409
    assert conflict.data == {
        "detail": "stale",
        "code": "seq_mismatch",
        "game": {"id": "g", "seq": 3},
    }

    empty = api_errors.refusal_response(PoolEmpty("no deal ready yet"))
    assert empty.status_code == 503
    assert empty.data == {"detail": "no deal ready yet", "code": "pool_empty"}
    assert empty["Retry-After"] == str(PoolEmpty.retry_after)


# A view module that shapes a refusal's body itself: `"detail": error.message` or the like.
OWN_SHAPE = re.compile(r"""["']detail["']\s*:\s*\w+\.message""")


def test_no_view_shapes_a_refusal_itself() -> None:
    """Every REST view (a module that answers with DRF's Response) answers a service's refusal
    with the one converter; the socket frames (consumers) have their own shape."""
    shaping = [
        str(path.relative_to(ROOT))
        for package in ("tripeaks", "accounts", "leaderboard", "frontend")
        for path in (ROOT / package).rglob("*.py")
        if path.name != "api_errors.py"
        and "rest_framework.response" in (text := path.read_text())
        and OWN_SHAPE.search(text)
    ]
    assert shaping == []
