"""The arena as one file, `/downloads/uno-arena.pyz` (docs/bots-api.md, "Trying a bot
locally"): a bot author in any language tries a bot at home with `python uno-arena.pyz
--command "node my_bot.mjs"` and Python 3.11+, without the repository.

The file is built in memory from the sources the site runs (bots/bundle.py), once per process:
no build step, nothing written to disk. Its bytes depend on the sources alone, so each process
of a deployment serves the same bytes under the same strong ETag.
"""

from __future__ import annotations

from functools import cache

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import condition, require_safe

from bots.bundle import FILENAME, Bundle, build


@cache
def arena_bundle() -> Bundle:
    return build()


def _etag(request: HttpRequest) -> str:
    return arena_bundle().digest


@require_safe
@condition(etag_func=_etag)
def arena(request: HttpRequest) -> HttpResponse:
    """The file, to save (a download, never shown) and revalidate by its ETag: it changes with
    each deployment whose arena or engine changed."""
    bundle = arena_bundle()
    response = HttpResponse(bundle.data, content_type="application/octet-stream")
    response["Content-Disposition"] = f'attachment; filename="{FILENAME}"'
    response["Cache-Control"] = "public, no-cache"
    response["X-Arena-Version"] = bundle.version
    return response
