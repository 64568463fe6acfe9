from __future__ import annotations

from django.urls import include, path

from frontend import views
from frontend.catalog import CompactJavaScriptCatalog

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    # The app's words in the page's language (window.gettext & co.), loaded before its modules.
    path("i18n/", include("django.conf.urls.i18n")),  # POST setlang/: the language, in a cookie
    # (frontend/catalog.py: the project's words only, compact UTF-8)
    path(
        "jsi18n/",
        CompactJavaScriptCatalog.as_view(domain="djangojs", packages=["frontend"]),
        name="javascript-catalog",
    ),
]
