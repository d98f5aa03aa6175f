"""Web pages (server-rendered)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from engine.rules import RULESETS
from frontdoor.variant_text import FAMILY_NAMES


def home(request: HttpRequest) -> HttpResponse:
    """Say what the service is and where to go next. The families and the ones the
    precognitive modifier goes over are the engine's own (`supports_precognitive`)."""
    families = [FAMILY_NAMES.get(name, name) for name in RULESETS]
    bases = [FAMILY_NAMES.get(n, n) for n, rules in RULESETS.items() if rules.supports_precognitive]
    return render(request, "home.html", {"families": families, "precognitive_bases": bases})
