"""One object for each running event loop (`PerLoop`): what a server's sockets share lives on
their loop, and a loop that ends takes its object with it (the tests run many loops in one
process, each with its own)."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class PerLoop(Generic[T]):
    """`get()`: the running loop's object, made by `make` the first time that loop asks.

    The last loop asked for is kept by a weak reference beside its object: a server has one loop,
    and every socket frame asks (the flood count, the group commit), where a look-up in the weak
    dictionary made a weak reference and a Python call each time."""

    def __init__(self, make: Callable[[], T], *, close: Callable[[T], None] | None = None) -> None:
        self._make = make
        self._close = close
        self._of: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = (
            weakref.WeakKeyDictionary()
        )
        # The last loop asked for (weakly) and its object.
        self._last: tuple[weakref.ref[asyncio.AbstractEventLoop], T] | None = None

    def get(self) -> T:
        loop = asyncio.get_running_loop()
        last = self._last
        if last is not None and last[0]() is loop:
            return last[1]
        found = self._of.get(loop)
        if found is None:
            self._drop_closed()
            found = self._of[loop] = self._make()
        self._last = (weakref.ref(loop), found)
        return found

    def _drop_closed(self) -> None:
        """Close (`close`) and forget the objects of loops that have closed but linger."""
        if self._close is None:
            return
        for loop, found in list(self._of.items()):
            if loop.is_closed():
                self._close(found)
                del self._of[loop]

    def clear(self) -> None:
        """Close (`close`) and forget every loop's object (the last asked for's too, whose loop
        may have gone)."""
        every = list(self._of.values())
        if self._last is not None and all(found is not self._last[1] for found in every):
            every.append(self._last[1])
        if self._close is not None:
            for found in every:
                self._close(found)
        self._of.clear()
        self._last = None
