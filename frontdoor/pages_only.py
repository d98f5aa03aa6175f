"""Django's flash messages for the site's pages only: a request under /api/ skips them
(config/urls.py: no page's path starts there).

No API view adds or reads a flash message; for every other path the middleware is Django's as it
is. Its storage (a cookie storage with its signer and a session storage, built for every request)
was about 1.6% of a command's Python through the API (docs/performance.md, "API").
"""

from __future__ import annotations

from collections.abc import Awaitable

from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest
from django.http.response import HttpResponseBase

API_PREFIX = "/api/"


class PageMessageMiddleware(MessageMiddleware):
    """Django's flash messages, for every request but the API's."""

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        if request.path_info.startswith(API_PREFIX):
            return self.get_response(request)
        return super().__call__(request)
