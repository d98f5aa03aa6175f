"""django-csp's middleware, its headers built once (settings.py CONTENT_SECURITY_POLICY).

django-csp builds the Content-Security-Policy header again for every response: the settings'
directives copied, each value copied, the policy parts turned into a dict with `asdict`, and the
header joined, twice (the policy and the report-only one). Nothing here changes it per response
(no view asks for a nonce, no csp_update, csp_replace or csp_exempt decorator), so a response
that asks for none of those gets the header built once, from django-csp's own `build_policy`,
until a setting changes; any response that does goes through django-csp as it is. It was about
7% of the Python of an API request (docs/performance.md, "API").
"""

from __future__ import annotations

import http.client
from functools import cache
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpRequest
from django.http.response import HttpResponseBase

# What a response or view sets to change its policy (django-csp's decorators).
_PER_RESPONSE = (
    "_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro",
    "_csp_replace_ro",
)  # fmt: skip
_DEBUG_EXEMPT = (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND)


@cache
def _headers() -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    """(header, value, the response's exemption attribute, the excluded path prefixes) for each
    policy the settings define, as django-csp builds them for a response that changes nothing."""
    found = []
    for header, setting, exempt, report_only in (
        (HEADER, "CONTENT_SECURITY_POLICY", "_csp_exempt", False),
        (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", "_csp_exempt_ro", True),
    ):
        value = build_policy(report_only=report_only)
        if value:
            policy = getattr(settings, setting, None) or {}
            prefixes = tuple(policy.get("EXCLUDE_URL_PREFIXES", None) or ())
            found.append((header, value, exempt, prefixes))
    return tuple(found)


def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _headers.cache_clear()


setting_changed.connect(_forget)


class PolicyMiddleware(CSPMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        changed = getattr(request, "_csp_nonce", None) is not None or any(
            hasattr(response, name) for name in _PER_RESPONSE
        )
        if changed or (response.status_code in _DEBUG_EXEMPT and settings.DEBUG):
            return super().process_response(request, response)
        for header, value, exempt, prefixes in _headers():
            if header not in response and getattr(response, exempt, False) is False:
                if not request.path_info.startswith(prefixes):
                    response[header] = value
        # As django-csp: a nonce asked for after the header was written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response
