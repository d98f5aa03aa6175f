"""Web pages (server-rendered): the home page, and the web app manifest that lets a phone keep
the site on its home screen as an app."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from engine.rules import RULESETS
from games.variant_text import FAMILY_NAMES


def home(request: HttpRequest) -> HttpResponse:
    """Say what the service is and where to go next. The families and the ones the
    precognitive modifier goes over are the engine's own (`supports_precognitive`)."""
    families = [FAMILY_NAMES.get(name, name) for name in RULESETS]
    bases = [FAMILY_NAMES.get(n, n) for n, rules in RULESETS.items() if rules.supports_precognitive]
    return render(request, "home.html", {"families": families, "precognitive_bases": bases})


# The site's paper and ink (static/site.css --paper): an installed app's splash screen and its
# status bar take them, so the app opens on the page's own colour.
PAPER = "#fbfbfa"


@require_safe
@cache_control(public=True, max_age=86400)
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest (/manifest.webmanifest, linked from every page): a phone's browser
    offers "Install app" or "Add to Home screen" from it, and the site then opens from its icon
    without the browser's bars, on the lobby (the sign-in first when signed out). A view, not a
    static file, so that the icons are named by the static files' hashed URLs."""
    icons = [
        {
            "src": static(f"icons/{kind}-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for kind, purpose in (("icon", "any"), ("maskable", "maskable"))
        for size in (192, 512)
    ]
    body = {
        "id": "/",
        "name": "UNO League",
        "short_name": "UNO League",
        "description": "UNO leagues, tables, ladders and tournaments: play in turns, with people "
        "and bots.",
        "start_url": reverse("web:lobby"),
        "scope": "/",
        "display": "standalone",
        "background_color": PAPER,
        "theme_color": PAPER,
        "icons": icons,
    }
    return HttpResponse(json.dumps(body, indent=1), content_type="application/manifest+json")
