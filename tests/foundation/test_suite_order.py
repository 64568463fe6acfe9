"""The suite's order under xdist (tests/conftest.py, `pytest_collection_modifyitems`): sorted with
the long tests first, then dealt out, so that every worker starts on its share of them."""

from __future__ import annotations

from typing import Any

from tests.conftest import _dealt, _suite_key


def first_shares(items: list[str], workers: int) -> list[list[str]]:
    """What xdist's work stealing hands each worker at the start: runs of the list, each the rest
    divided by the workers still without one (xdist/scheduler/worksteal.py, `check_schedule`)."""
    shares, rest = [], list(items)
    for left in range(workers, 0, -1):
        size = len(rest) // left
        shares.append(rest[:size])
        rest = rest[size:]
    return shares


def test_every_worker_starts_on_its_share_of_the_long_tests() -> None:
    long = [f"bench{n}" for n in range(12)]
    short = [f"engine{n}" for n in range(2000)]
    for workers in (2, 3, 4):
        shares = first_shares(_dealt(long + short, workers), workers)
        for share in shares:
            started_on = [name for name in share[: len(long)] if name.startswith("bench")]
            assert len(started_on) >= len(long) // workers - 1, (workers, shares)
            # Within a share the sorted order holds: its long tests first.
            assert share[: len(started_on)] == started_on


def test_dealt_out_every_test_runs_once_and_one_worker_keeps_the_order() -> None:
    items = [f"t{n}" for n in range(100)]
    for workers in (2, 3, 4):
        assert sorted(_dealt(items, workers)) == sorted(items)
    assert _dealt(items, 1) == items


class _Item:
    """What `_suite_key` reads of a collected test."""

    def __init__(self, *markers: str, fixtures: tuple[str, ...] = ()) -> None:
        self.markers = markers
        self.fixturenames = fixtures

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.markers else None


def test_the_long_tests_on_the_stack_template_come_after_the_other_long_tests() -> None:
    """`make test` makes the template beside the suite from its start (bench/stack_template.py):
    the whole-stack tests that start on it run after the other long tests, by when it is made."""
    on_template = _Item("slow", fixtures=("private_redis", "stack_template"))
    bench = _Item("slow", fixtures=("private_redis",))
    engine = _Item()
    items: list[Any] = [engine, on_template, bench]
    assert sorted(items, key=_suite_key) == [bench, on_template, engine]
