"""Content-Security-Policy for the site's HTML pages (the page shell, the sign-in pages), through
django-csp.

The policy (django-csp's ``CONTENT_SECURITY_POLICY`` in settings) allows scripts, styles, images,
fonts and connections (``fetch`` and the WebSockets, same origin) from the site itself only, no
plugins, no framing, forms posting only to the site. Inline ``<script>`` blocks run only with the
request's nonce: templates write ``<script nonce="{{ request.csp_nonce }}">``. Inline SVG and
styles set from JavaScript are unaffected.

The policy is enforced (``Content-Security-Policy``). No page needs an exemption: the Swagger UI
at ``/api/docs`` is drf-spectacular's split view, which loads its start-up script from
``/api/docs?script=`` (JavaScript, so no policy of its own) instead of inlining it; the admin's
scripts are all files. ``CSP_REPORT_ONLY=1`` sends the same policy as
``Content-Security-Policy-Report-Only`` instead: browsers report what it would block without
blocking it (to try a stricter policy).

What this adds to django-csp's own middleware: the header goes on HTML responses only (JSON needs
none), ``CSP_REPORT_ONLY`` picks the header per request, and every page's policy names a fresh
nonce, whether or not the page used it (django-csp names one only once a template asked for it).
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from csp.utils import default_config
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        html = response.get("Content-Type", "").startswith("text/html")
        if not html or report_only != settings.CSP_REPORT_ONLY:
            parts.config = {}  # no policy: no header
            return parts
        parts.config = default_config(settings.CONTENT_SECURITY_POLICY["DIRECTIVES"])
        parts.nonce = str(request.csp_nonce)  # type: ignore[attr-defined]
        return parts
