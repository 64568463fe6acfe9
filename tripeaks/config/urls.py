"""The site's URLs.

- ``/`` and the page shell: ``frontend``; ``/accounts/...``: browser sign up / in / out.
- ``/api/health``, ``/api/schema``, ``/api/docs``, ``/api/auth/...``, ``/api/me``.
- Every other project app's ``urls.py`` is included at the site root (see settings.PROJECT_APPS),
  so an app owns its own prefixes, e.g. ``api/games/...``.
"""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib import admin
from django.urls import URLResolver, include, path, re_path
from django.utils.module_loading import module_has_submodule
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tripeaks.infra.api_errors import api_not_found
from tripeaks.infra.health import health

_MINE = {"accounts", "frontend"}


def _project_app_urls() -> list[URLResolver]:
    return [
        path("", include(f"{app}.urls"))
        for app in settings.PROJECT_APPS
        if app not in _MINE and module_has_submodule(import_module(app), "urls")
    ]


urlpatterns = [
    path("api/health", health, name="health"),
    path("api/schema", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as its own request (/api/docs?script=),
    # not inline, so the page runs under the enforced Content-Security-Policy as it is.
    path("api/docs", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("accounts.api_urls")),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    *_project_app_urls(),
    # Any other /api/ URL: the JSON 404, with DEBUG on too (Django's debug 404 page is HTML).
    re_path(r"^api/", api_not_found),
    path("", include("frontend.urls")),
]

handler400 = "tripeaks.infra.api_errors.json_400"
handler403 = "tripeaks.infra.api_errors.json_403"
handler404 = "tripeaks.infra.api_errors.json_404"
handler500 = "tripeaks.infra.api_errors.json_500"
