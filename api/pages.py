"""A list a page at a time: the `Link: <...>; rel="next"` header every paged list of the API
answers with when a next page follows (docs/api.md, "Pages"). The pages are keysets (the next
after the last item shown, `before`), never offsets, so a page costs the same however long the
list."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response


def next_link(
    request: Request, response: Response, before: int | None, *, name: str = "before"
) -> Response:
    """`response` with the `Link` header's `rel="next"`: this request's URL with `before` as
    the parameter `name`, when a next page follows (`before` not None)."""
    if before is not None:
        following = request.query_params.copy()
        following[name] = str(before)
        url = request.build_absolute_uri(f"{request.path}?{following.urlencode()}")
        response["Link"] = f'<{url}>; rel="next"'
    return response
