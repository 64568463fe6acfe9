"""The race pages' addresses: `/races/` and `/races/{id}/` (`?code=` for a private race) lead to
the app's hash routes (frontend/static/frontend/js/pages/races.js, race.js)."""

from __future__ import annotations

import re
from uuid import UUID

from django.http import HttpRequest, HttpResponseRedirect

CODE = re.compile(r"[A-Za-z0-9]{1,8}")


def lobby(request: HttpRequest) -> HttpResponseRedirect:
    return HttpResponseRedirect("/#/races")


def race(request: HttpRequest, race_id: UUID) -> HttpResponseRedirect:
    code = request.GET.get("code", "")
    tail = f"/{code.upper()}" if CODE.fullmatch(code) else ""
    return HttpResponseRedirect(f"/#/races/{race_id}{tail}")
