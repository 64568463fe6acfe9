"""WSGI entry point (HTTP only). The service itself runs on ASGI: see ``tripeaks.config.asgi``."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tripeaks.config.settings")

application = get_wsgi_application()
