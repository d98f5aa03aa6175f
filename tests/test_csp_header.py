"""frontdoor/csp.py: the Content-Security-Policy headers built once are django-csp's own, a
changed setting is seen, and a response that changes its policy still goes through django-csp."""

from __future__ import annotations

import pytest
from csp.middleware import CSPMiddleware
from django.http import HttpResponse
from django.test import RequestFactory

from frontdoor.csp import PolicyMiddleware


def headers(middleware: type[CSPMiddleware], response: HttpResponse) -> dict[str, str]:
    request = RequestFactory().get("/api/games/1")
    made = middleware(lambda request: response)
    made.process_request(request)
    answered = made.process_response(request, response)
    return {name: value for name, value in answered.items() if "Security-Policy" in name}


def test_the_header_built_once_is_django_csps_and_follows_the_settings(settings):
    ours = headers(PolicyMiddleware, HttpResponse())
    assert ours == headers(CSPMiddleware, HttpResponse())
    assert "frame-ancestors 'none'" in ours["Content-Security-Policy"]

    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"img-src": ["'none'"]}}
    settings.CONTENT_SECURITY_POLICY = {
        **settings.CONTENT_SECURITY_POLICY,
        "EXCLUDE_URL_PREFIXES": ["/api/"],
    }
    changed = headers(PolicyMiddleware, HttpResponse())
    assert changed == headers(CSPMiddleware, HttpResponse())
    assert list(changed) == ["Content-Security-Policy-Report-Only"]


@pytest.mark.parametrize("attribute", ["_csp_update", "_csp_exempt"])
def test_a_response_that_changes_its_policy_gets_django_csps_header(attribute):
    def response() -> HttpResponse:
        made = HttpResponse()
        setattr(
            made, attribute, {"img-src": ["https://example.org"]} if "update" in attribute else True
        )
        return made

    ours = headers(PolicyMiddleware, response())
    assert ours == headers(CSPMiddleware, response())
    assert ours != headers(PolicyMiddleware, HttpResponse())
