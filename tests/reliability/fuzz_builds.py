"""The fuzzed operations' tests (tests/reliability/api_fuzz.py) built when they run, not when they
are collected.

schemathesis' pytest plugin builds each operation's Hypothesis test as it collects it: its
coverage cases and the schema's examples are worked out then (10 of the 28 s of a profiled
collection of the suite). Under xdist every worker collects every test, so each of `make test`'s
three workers built all 63 operations' tests, and ran a third of them: 1.2-1.6 s of CPU a worker
(the five fuzz files collected alone, 4.2-4.6 s against 3.0 s). Now collection makes a stand-in
with the test's fixtures; the setup of the test that runs it builds the test, as the plugin would
have (the same call, the same arguments), and the item runs that.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import pytest

# The stand-in's attribute: the build it stands for.
BUILD = "_fuzz_build"
# An item's mark: its test was built from a stand-in at its setup.
BUILT = pytest.StashKey[bool]()


def later(build: Callable[..., Callable[..., Any]]) -> Callable[..., Callable[..., Any]]:
    """`build` (schemathesis' `build_operation_test`), made when the test runs (`built`): a
    stand-in now, with the fixtures of the test the build makes (its own less `case`, which
    Hypothesis draws)."""

    def stand_in_for(**arguments: Any) -> Callable[..., Any]:
        test = arguments["test_func"]

        def stand_in(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError(f"{test.__name__}: a fuzz test run before it was built")

        signature = inspect.signature(test)
        fixtures = [p for name, p in signature.parameters.items() if name != "case"]
        stand_in.__signature__ = signature.replace(parameters=fixtures)  # type: ignore[attr-defined]
        stand_in.__name__ = test.__name__
        setattr(stand_in, BUILD, functools.partial(build, **arguments))
        return stand_in

    return stand_in_for


def built(test: Callable[..., Any]) -> Callable[..., Any]:
    """The test a stand-in stands for, built; any other test as it is."""
    build = getattr(test, BUILD, None)
    return build() if build is not None else test


def install() -> None:
    """Collection makes stand-ins (the plugin imports the builder when it collects)."""
    from schemathesis.pytest import _test_builder

    builder: Any = _test_builder
    if getattr(builder.build_operation_test, "__name__", "") != "stand_in_for":
        builder.build_operation_test = later(builder.build_operation_test)


def build_before_setup(item: pytest.Item) -> None:
    """A stand-in item's test built before its fixtures are set up (`pytest_runtest_setup`)."""
    function: Any = item
    if isinstance(item, pytest.Function) and hasattr(function.obj, BUILD):
        function.obj = built(function.obj)
        item.stash[BUILT] = True
