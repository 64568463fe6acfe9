"""WebSocket URL patterns, gathered from the project's installed apps.

An app adds sockets by defining ``websocket_urlpatterns`` in its own ``routing.py``, e.g.
``tripeaks/play/routing.py``; nothing here needs to change.
"""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.urls import URLPattern, URLResolver
from django.utils.module_loading import module_has_submodule


def collect_websocket_urlpatterns() -> list[URLPattern | URLResolver]:
    patterns: list[URLPattern | URLResolver] = []
    for app in settings.PROJECT_APPS:
        if module_has_submodule(import_module(app), "routing"):
            patterns.extend(getattr(import_module(f"{app}.routing"), "websocket_urlpatterns", []))
    return patterns


websocket_urlpatterns = collect_websocket_urlpatterns()
