"""Content negotiation: DRF's, with a shortcut for what API clients send.

The API renders JSON (settings.REST_FRAMEWORK). A request with no Accept header, `*/*` or
`application/json`, and no `?format=`, to a view whose first renderer is JSON gets that
renderer, as DRF would pick it, without DRF parsing the header and matching it against every
renderer on each request; anything else (an empty header, another type, a view such as the
schema's whose first renderer is not JSON) goes through DRF's own negotiation, which answers
406 for a type the view cannot give.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

# No Accept header at all (None), anything, or JSON; an empty header is DRF's to answer (406).
PLAIN = frozenset({None, "*/*", "application/json"})


class JSONFirstNegotiation(DefaultContentNegotiation):
    # DRF passes the view's list of renderers; the stubs say any iterable.
    def select_renderer(  # type: ignore[override]
        self, request: Request, renderers: Sequence[BaseRenderer], format_suffix: Any = None
    ) -> tuple[BaseRenderer, str]:
        if (
            format_suffix is None
            and renderers
            and renderers[0].media_type == "application/json"
            and request.META.get("HTTP_ACCEPT") in PLAIN
            and self.settings.URL_FORMAT_OVERRIDE not in request.query_params
        ):
            # What DRF picks for these: the view's first renderer, here JSON.
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)  # type: ignore[no-any-return]
