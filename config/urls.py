"""Top-level URLs: the web pages, the admin and the API."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from web import views as web_views

urlpatterns = [
    path("", web_views.home, name="home"),
    path("", include("web.urls")),
    path("admin/", admin.site.urls),
    # Sign in and out (Django's own views); the API's session endpoints use this session.
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("api.urls")),
]
