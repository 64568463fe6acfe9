"""The page shell. The game UI (ES modules) mounts into it in a later step."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "frontend/home.html")
