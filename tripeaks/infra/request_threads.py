"""Django's ASGI handler, without starting two threads for every request.

Django runs a request's sync code (middleware, view, the database) on one thread from start to
end, so that it keeps one database connection. The stock handler makes a new one-thread executor
for each request and starts a second thread to join it afterwards. Starting a thread waits until
the thread runs, and while it waits the event loop waits too, so every socket of the process
waits: about a tenth of the loop's time in the play bench. Here a request borrows an idle
one-thread executor and hands it back when it is done.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

# Idle executors kept for the next requests; more than this many at once are let go afterwards.
MAX_IDLE = 16


def _nothing() -> None:
    return None


class ReusedThreadsASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self._idle: deque[ThreadPoolExecutor] = deque()

    async def __call__(
        self,
        scope: dict[str, object],
        receive: Callable[[], Awaitable[Mapping[str, object]]],
        send: Callable[[Mapping[str, object]], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP only, not {scope['type']}.")
        executor = self._borrow()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        except BaseException:
            # Cancelled (the client went away): the sync code it started may still be running,
            # so the executor goes back once its thread has finished that.
            executor.submit(_nothing).add_done_callback(lambda _: self._give_back(executor))
            raise
        # Every sync call of the request has been awaited: its thread is idle.
        self._give_back(executor)

    def _borrow(self) -> ThreadPoolExecutor:
        try:
            return self._idle.pop()
        except IndexError:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="django-request")

    def _give_back(self, executor: ThreadPoolExecutor) -> None:
        # Also runs on the executor's own thread: deque appends are atomic, and shutdown without
        # waiting only tells the thread to end once it is done.
        if len(self._idle) < MAX_IDLE:
            self._idle.append(executor)
        else:
            executor.shutdown(wait=False)
