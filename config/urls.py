"""Top-level URLs: the web pages, the admin and the API."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from api import metrics as api_metrics
from web import signin
from web import views as web_views

urlpatterns = [
    # First: every API request resolves here without trying the web pages' patterns one by one
    # (no web page's path starts with api/).
    path("api/", include("api.urls")),
    path("", web_views.home, name="home"),
    # The web app manifest (web/views.py): a phone keeps the site on its home screen as an app.
    path("manifest.webmanifest", web_views.manifest, name="manifest"),
    # Sign-up, profile, the lobby, new game, play and replay (web/urls.py).
    path("", include("web.urls")),
    path("admin/", admin.site.urls),
    # Sign in and out, password change and reset: Django's own views (templates/registration/);
    # the API's session endpoints use this session. Signing in answers a script in JSON when
    # refused (web/signin.py).
    path("accounts/login/", signin.SignIn.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    # The staff console (staff/urls.py): staff only, a 404 for anyone else.
    path("staff/", include("staff.urls")),
    # Prometheus's scrape (api/metrics.py): METRICS_TOKEN only (loopback and private addresses
    # too with DEBUG or METRICS_ALLOW_PRIVATE).
    path("metrics", api_metrics.scrape, name="metrics"),
]

# Under /api/ errors keep the API's JSON shape (api/views.py); elsewhere Django's pages.
handler400 = "api.views.bad_request"
handler404 = "api.views.not_found"
handler500 = "api.views.server_error"
