"""`PerLoop`: one object a running event loop, found without a weak reference on every frame,
and a loop's object closed once its loop has closed."""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

import pytest

from tripeaks.infra.loop_local import PerLoop


class _Thing:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_the_same_loop_gets_its_object_without_the_weak_dictionary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    per_loop = PerLoop(_Thing, close=_Thing.close)
    looked: list[object] = []
    get = weakref.WeakKeyDictionary.get

    def counted(self: Any, key: Any, default: Any = None) -> Any:
        looked.append(key)
        return get(self, key, default)

    monkeypatch.setattr(weakref.WeakKeyDictionary, "get", counted)

    async def frames() -> list[_Thing]:
        return [per_loop.get() for _ in range(100)]

    found = asyncio.run(frames())
    assert len({id(thing) for thing in found}) == 1
    assert len(looked) == 1  # the first ask only: was one a frame


def test_each_loop_has_its_own_and_a_closed_loops_is_closed_when_another_is_made() -> None:
    per_loop = PerLoop(_Thing, close=_Thing.close)

    async def one() -> _Thing:
        return per_loop.get()

    first_loop = asyncio.new_event_loop()
    first = first_loop.run_until_complete(one())
    first_loop.close()  # closed, still referenced: its object lingers until another is made
    assert not first.closed
    second = asyncio.run(one())
    assert second is not first and first.closed and not second.closed
    per_loop.clear()
    assert second.closed
    third = asyncio.run(one())
    assert third is not second
