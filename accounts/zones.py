"""The player's time zone, for the times an account page shows (sessions): the browser's, which
the site's pages keep in the `tp_tz` cookie (base.html, from `Intl`), else UTC. Accounts have no
time zone of their own; a profile's would come first here.

The cookie is the browser's word and nothing more: a name that is not a known zone (or not a
zone's shape at all) is UTC, never an error."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest

ZONE_COOKIE = "tp_tz"
UTC = ZoneInfo("UTC")
# IANA names: "Asia/Kathmandu", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "UTC".
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,2}")


def player_zone(request: HttpRequest) -> ZoneInfo:
    name = request.COOKIES.get(ZONE_COOKIE, "")
    if len(name) > 64 or not _NAME.fullmatch(name):
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return UTC
