from __future__ import annotations

from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from frontend import views

app_name = "frontend"

urlpatterns = [
    path("", views.home, name="home"),
    # The app's words in the page's language (window.gettext & co.), loaded before its modules.
    path("i18n/", include("django.conf.urls.i18n")),  # POST setlang/: the language, in a cookie
    path("jsi18n/", JavaScriptCatalog.as_view(domain="djangojs"), name="javascript-catalog"),
]
