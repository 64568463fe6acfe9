"""Gzip for the JSON API, never for pages or answers that carry a secret.

Static files are compressed ahead of time by WhiteNoise (``CompressedManifestStaticFilesStorage``
writes a ``.gz`` and a ``.br`` beside each file). Answers made per request are compressed here,
and only where that is safe from BREACH (a secret in a compressed body that also reflects what an
attacker sends can be guessed byte by byte from the compressed length):

- only ``application/json`` bodies: the HTML pages carry the CSRF token (the sign-out and
  language forms), so they go uncompressed; the JavaScript catalog (``/jsi18n/``, the same for
  everyone in a language) is gzipped once a language by its view (frontend/catalog.py);
- only paths of the public and game API (``COMPRESSED_PATHS``): the sign-in API answers with
  API tokens and CSRF tokens (``/api/auth/...``) and ``/api/me`` is left out with them, so a new
  endpoint under another path is uncompressed until someone decides it is safe.

Django's ``GZipMiddleware`` does the work (it also pads the gzip header with random bytes,
"Heal The Breach", as a second guard).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

COMPRESSED_PATHS = (
    "/api/layouts",
    "/api/today",
    "/api/games",
    "/api/leaderboards/",
    "/api/players/",
    "/api/me/stats",
    "/api/me/today",
    "/api/me/history",
    "/api/me/games",
    # A shared replay: the token is in the path, never in the body (tripeaks/review).
    "/api/replays/",
)
COMPRESSED_TYPES = ("application/json",)


class JsonGZipMiddleware(GZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not response.get("Content-Type", "").startswith(COMPRESSED_TYPES):
            return response
        if not request.path.startswith(COMPRESSED_PATHS):
            return response
        return super().process_response(request, response)
