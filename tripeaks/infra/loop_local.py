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
    """`get()`: the running loop's object, made by `make` the first time that loop asks."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._of: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = (
            weakref.WeakKeyDictionary()
        )

    def get(self) -> T:
        loop = asyncio.get_running_loop()
        found = self._of.get(loop)
        if found is None:
            found = self._of[loop] = self._make()
        return found
