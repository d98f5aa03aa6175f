"""The open database over the API: `GET /api/data`, each exported month's files with their
games, sizes, SHA-256 and download addresses (the files are served by the site's /data/).
Public. games/export.py reads the manifests; docs/database.md describes the files."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import error_responses
from api.leagues import public
from games import export


class FileOutput(serializers.Serializer[Any]):
    family = serializers.CharField(help_text="official, basic-plus, newno or censorship.")
    name = serializers.CharField(help_text="<family>.jsonl.zst")
    games = serializers.IntegerField()
    bytes = serializers.IntegerField()
    sha256 = serializers.CharField(help_text="The file's SHA-256, hex.")
    url = serializers.CharField(help_text="Where to download it (the site's /data/).")


class MonthOutput(serializers.Serializer[Any]):
    month = serializers.CharField(help_text="YYYY-MM: the games' matches ended that month (UTC).")
    generated_at = serializers.DateTimeField()
    files = FileOutput(many=True)


@extend_schema(responses={200: MonthOutput(many=True), **error_responses(403)})
@public
def months(request: Request) -> Response:
    """Every exported month of the open database, newest first, with its files."""
    rows = [
        {
            **manifest,
            "files": [
                {
                    **f,
                    "url": request.build_absolute_uri(
                        reverse("web:data-file", args=[manifest["month"], f["name"]])
                    ),
                }
                for f in manifest.get("files", [])
            ],
        }
        for manifest in export.manifests()
    ]
    return Response(MonthOutput(rows, many=True).data)
