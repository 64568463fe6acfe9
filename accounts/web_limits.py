"""The browser forms' request limits: the very throttles, counters and rates of their API twins
(the anonymous request rate for both, plus ``signup`` for the sign-up form), counted before the
form is validated, so a form is no way around a limit the API sets."""

from __future__ import annotations

from types import SimpleNamespace

from django.http import HttpRequest
from django.utils.translation import gettext as _

from tripeaks.infra.throttling import AtomicRate, StrictAnonRateThrottle, StrictScopedRateThrottle


def form_wait(request: HttpRequest, *, scope: str | None = None) -> int | None:
    """Count a form submission: the seconds to wait when it is over a limit, else None."""
    throttles: list[AtomicRate] = [StrictAnonRateThrottle()]
    if scope is not None:
        throttles.append(StrictScopedRateThrottle())
    view = SimpleNamespace(throttle_scope=scope)
    waits = [
        int(throttle.wait() or 1)
        for throttle in throttles
        if not throttle.allow_request(request, view)  # type: ignore[arg-type]
    ]
    return max(waits) if waits else None


def throttled_form_message(seconds: int) -> str:
    return _("Too many requests. Try again in %(seconds)s seconds.") % {"seconds": seconds}
