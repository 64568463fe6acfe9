"""``{% module_preloads %}``: the home page asks at once for every module the route in its hash
needs (frontend/modules.py), instead of wave after wave as each module's imports come to light."""

from __future__ import annotations

import json

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from frontend.modules import route_modules

register = template.Library()

# The route is the hash's first part ("#/play/..." -> "play"); one without a page of its own is
# the start page's, as app.js routes it. The page's parts it loads on demand come last.
LOADER = (
    "(()=>{{const m={modules},r=(location.hash.match(/^#\\/?([^/?]*)/)||[])[1],"
    "p=m.routes[r]?r:'start';"
    "for(const i of [...m.app,...(m.routes[p]||[]),...(m.later[p]||[])]){{"
    "const l=document.createElement('link');l.rel='modulepreload';l.href=m.base+m.urls[i];"
    "document.head.append(l)}}}})()"
)


@register.simple_tag(takes_context=True)
def module_preloads(context: template.Context) -> SafeString:
    request = context.get("request")
    nonce = getattr(request, "csp_nonce", "") if request is not None else ""
    modules = json.dumps(route_modules(), separators=(",", ":")).replace("<", "\\u003c")
    return format_html(
        '<script nonce="{}">{}</script>', nonce, SafeString(LOADER.format(modules=modules))
    )
