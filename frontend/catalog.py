"""The JavaScript catalog (``/jsi18n/``): Django's ``JavaScriptCatalog``, lighter on the wire.

- The project's own words only (``locale/``, and Django's few), not every installed app's: the
  admin's calendar and filter words were in every page's catalog.
- The catalog as UTF-8 JSON without indentation: Django writes ``"\\u0928\\u092f..."`` with an
  indent of two, six bytes a Devanagari letter where UTF-8 takes three.
- Made once a process for each language, and gzipped once, at the highest level and with no
  random padding: it is the same for everyone in a language and holds no secret, so the padding
  that guards a secret from BREACH (Django's ``GZipMiddleware``, tripeaks/infra/compression.py)
  only made its size differ by up to 99 bytes from one load to the next. The Nepali catalog is
  16,015 bytes gzipped (16,252 plus 0-99 bytes at Django's level 6 with the padding), and a page
  load no longer renders it (10 ms of the server's CPU) or compresses it.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import re_accepts_gzip
from django.template import Context, Engine
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.views.i18n import JavaScriptCatalog, builtin_template_path


def _compact(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


CONTENT_TYPE = 'text/javascript; charset="utf-8"'


@dataclass(frozen=True)
class _Made:
    """One language's catalog, as it is and gzipped."""

    body: bytes
    packed: bytes

    def response(self, request: HttpRequest) -> HttpResponse:
        accepts_gzip = re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))
        response = HttpResponse(self.packed if accepts_gzip else self.body, CONTENT_TYPE)
        if accepts_gzip:
            response["Content-Encoding"] = "gzip"
        patch_vary_headers(response, ("Accept-Encoding",))
        return response


# By language, domain and packages: the URLconf's few, in the site's few languages.
_made: dict[tuple[str, str, str], _Made] = {}


class CompactJavaScriptCatalog(JavaScriptCatalog):
    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        packages = kwargs.get("packages") or "+".join(self.packages or ())
        key = (get_language(), str(kwargs.get("domain", self.domain)), str(packages))
        made = _made.get(key)
        if made is None:
            body = super().get(request, *args, **kwargs).content
            made = _made[key] = _Made(body, gzip.compress(body, compresslevel=9, mtime=0))
        return made.response(request)

    def render_to_response(self, context: dict[str, Any], **response_kwargs: Any) -> HttpResponse:
        with builtin_template_path("i18n_catalog.js").open(encoding="utf-8") as fh:
            template = Engine().from_string(fh.read())
        context["catalog_str"] = _compact(context["catalog"]) if context["catalog"] else None
        context["formats_str"] = _compact(context["formats"])
        return HttpResponse(template.render(Context(context)), CONTENT_TYPE)
