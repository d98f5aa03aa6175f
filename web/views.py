"""Web pages (server-rendered)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """Say what the service is and where to go next."""
    return render(request, "home.html")
