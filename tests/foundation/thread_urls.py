"""Views for the request-thread tests: each answers with the thread it ran on."""

from __future__ import annotations

import itertools
import threading

from django.http import HttpRequest, JsonResponse
from django.urls import path

# Both requests of the concurrent test wait here until the other one is running too.
together = threading.Barrier(2, timeout=10)


_numbers = itertools.count()
_local = threading.local()


def _thread_number() -> int:
    """A number of the thread's own: unlike its ident, never reused by a later thread."""
    if not hasattr(_local, "number"):
        _local.number = next(_numbers)
    return int(_local.number)


def thread(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"thread": _thread_number()})


def meet(request: HttpRequest) -> JsonResponse:
    together.wait()
    return JsonResponse({"thread": _thread_number()})


urlpatterns = [path("thread", thread), path("meet", meet)]
