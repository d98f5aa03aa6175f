"""Content negotiation: DRF's, with a shortcut for what API clients send.

The API renders JSON only (settings.REST_FRAMEWORK). A request with no Accept header, `*/*` or
`application/json`, and no `?format=`, gets the JSON renderer without DRF parsing the header
and matching it against every renderer on each request; anything else goes through DRF's own
negotiation, which answers 406 for a type the API cannot give.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

PLAIN = frozenset({"", "*/*", "application/json"})


class JSONFirstNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Sequence[BaseRenderer], format_suffix: Any = None
    ) -> tuple[BaseRenderer, str]:
        if (
            format_suffix is None
            and request.META.get("HTTP_ACCEPT", "") in PLAIN
            and self.settings.URL_FORMAT_OVERRIDE not in request.query_params
        ):
            for renderer in renderers:
                if renderer.media_type == "application/json":
                    return renderer, renderer.media_type
        return super().select_renderer(request, renderers, format_suffix)  # type: ignore[no-any-return]
