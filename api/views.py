"""API views: one function per operation, each with its own small serializers."""

from __future__ import annotations

from django.db import DatabaseError, connection
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.status import HTTP_503_SERVICE_UNAVAILABLE


class HealthOutput(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "unavailable"])
    database = serializers.CharField(help_text="Database vendor, e.g. postgresql or sqlite.")


@extend_schema(responses={200: HealthOutput, 503: HealthOutput})
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def health(request: Request) -> Response:
    """Report whether the service can reach its database (for load balancers and compose)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        body = {"status": "unavailable", "database": connection.vendor}
        return Response(body, status=HTTP_503_SERVICE_UNAVAILABLE)
    return Response({"status": "ok", "database": connection.vendor})
