"""Top-level URLs: the web pages, the admin and the API."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from web import views as web_views

urlpatterns = [
    path("", web_views.home, name="home"),
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
]
