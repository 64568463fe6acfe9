"""The fuzzed operations' tests built when they run (tests/reliability/fuzz_builds.py)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from schemathesis.pytest.plugin import SchemathesisFunction

from tests.reliability import fuzz_builds


def test_a_stand_in_has_the_tests_fixtures_and_is_built_once_when_asked() -> None:
    builds: list[dict[str, Any]] = []

    def the_test(case: Any, fuzz_player: dict[str, Any]) -> None: ...

    def build(**arguments: Any) -> Any:
        builds.append(arguments)
        return lambda fuzz_player: None

    stand_in = fuzz_builds.later(build)(test_func=the_test, operation="GET /api/races")

    assert builds == []
    assert list(inspect.signature(stand_in).parameters) == ["fuzz_player"]
    with pytest.raises(RuntimeError, match="before it was built"):
        stand_in(fuzz_player={})
    real = fuzz_builds.built(stand_in)
    assert builds == [{"test_func": the_test, "operation": "GET /api/races"}]
    assert list(inspect.signature(real).parameters) == ["fuzz_player"]
    assert fuzz_builds.built(real) is real  # a built test (or any other) is left as it is


def test_the_fuzz_tests_are_collected_as_stand_ins(request: pytest.FixtureRequest) -> None:
    """Each fuzz item of this process (tests/reliability/test_api_fuzz_*.py, when they are in the
    run) is a stand-in until its own setup builds it: none was built as it was collected."""
    fuzz = [item for item in request.session.items if isinstance(item, SchemathesisFunction)]
    for item in fuzz:
        assert hasattr(item.obj, fuzz_builds.BUILD) or item.stash.get(fuzz_builds.BUILT, False)
