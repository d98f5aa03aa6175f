"""The open database's page (/data/): each month's files of finished games with their games,
sizes and SHA-256 checksums, and their downloads (/data/<YYYY-MM>/<file>), streamed from
EXPORTS_DIR. Only a file a month's manifest lists is ever served (games/export.py
`file_path`). docs/database.md describes the files."""

from __future__ import annotations

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import export


@require_GET
def database(request: HttpRequest) -> HttpResponse:
    """Every exported month, newest first, with its files."""
    return render(request, "database/index.html", {"months": export.manifests()})


@require_GET
def download(request: HttpRequest, month: str, name: str) -> FileResponse:
    """One file of a month, as an attachment (zstandard-compressed JSON Lines)."""
    path = export.file_path(month, name)
    if path is None:
        raise Http404("There is no such file in the open database.")
    response = FileResponse(
        open(path, "rb"),  # noqa: SIM115 (FileResponse closes it once streamed)
        as_attachment=True,
        filename=f"uno-{month}-{name}",
        content_type="application/zstd",
    )
    response["Cache-Control"] = "public, max-age=3600"
    return response
