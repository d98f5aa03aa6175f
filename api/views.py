"""API views: one function per operation, each with its own small serializers."""

from __future__ import annotations

import logging
import re
from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import defaults
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.status import HTTP_503_SERVICE_UNAVAILABLE

from api.errors import NOT_FOUND
from frontdoor.boundary import BadInput, printable
from frontdoor.converters import LARGEST_ID
from games.health import (
    BROKER_UNAVAILABLE,
    DATABASE_UNAVAILABLE,
    MESSAGES,
    NO_WORKERS,
    check_tasks,
    database_answers,
)

log = logging.getLogger(__name__)


class HealthOutput(serializers.Serializer[dict[str, Any]]):
    status = serializers.ChoiceField(choices=["ok", "unavailable"])
    code = serializers.CharField(
        required=False,
        help_text="503 only: the first check that failed, in this order: "
        f"`{DATABASE_UNAVAILABLE}`, `{BROKER_UNAVAILABLE}`, `{NO_WORKERS}`.",
    )
    message = serializers.CharField(required=False, help_text="503 only: for people.")
    database = serializers.CharField(help_text="Database vendor, e.g. postgresql or sqlite.")
    broker = serializers.CharField(
        help_text="The Celery broker's transport, e.g. redis; `eager` when tasks run in the "
        "web process (no REDIS_URL), which needs neither broker nor workers."
    )
    workers = serializers.IntegerField(
        allow_null=True,
        help_text="Celery workers that answered a ping within HEALTH_TIMEOUT; null when tasks "
        "run eagerly or the broker does not answer.",
    )


@extend_schema(responses={200: HealthOutput, 503: HealthOutput})
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def health(request: Request) -> Response:
    """Report whether the service can reach its database, its task broker and at least one
    worker (for load balancers and compose). docs/api.md lists the fields and codes."""
    database_ok = database_answers()
    tasks = check_tasks()
    body = {
        "status": "ok",
        "database": connection.vendor,
        "broker": tasks.broker,
        "workers": tasks.workers,
    }
    problem = DATABASE_UNAVAILABLE if not database_ok else tasks.problem
    if problem is None:
        return Response(body)
    body.update(status="unavailable", code=problem, message=MESSAGES[problem])
    return Response(body, status=HTTP_503_SERVICE_UNAVAILABLE)


def _json_error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


# Paths one competition's API takes and the other's does not: ladders are entered and left with
# POST /enter and POST /leave, tournaments with POST and DELETE /entry (docs/api.md). The 404 of
# such a near miss says where to go (one address per action: no alias routes).
_NEAR_MISSES = (
    (
        re.compile(r"/api/tournaments/([-\w]+)/(?:enter|leave|join|withdraw)/?"),
        "A tournament is entered with POST /api/tournaments/{0}/entry and withdrawn from with "
        "DELETE /api/tournaments/{0}/entry",
    ),
    (
        re.compile(r"/api/ladders/([-\w]+)/(?:entry|join|withdraw)/?"),
        "A ladder is entered with POST /api/ladders/{0}/enter and left with POST "
        "/api/ladders/{0}/leave",
    ),
)
# A number in the path past the largest id a row can have, which matches no URL
# (frontdoor/converters.py).
_PAST_IDS = re.compile(r"/([0-9]{19,})(?=/|$)")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: the JSON error shape under /api/, Django's page elsewhere. A near miss
    (_NEAR_MISSES) says which endpoint was meant."""
    if _is_api(request):
        message = f"There is no API endpoint at {request.path}."
        for pattern, hint in _NEAR_MISSES:
            if found := pattern.fullmatch(request.path):
                message += f" {hint.format(found[1])}."
                break
        past = [n for n in _PAST_IDS.findall(request.path) if int(n) > LARGEST_ID]
        if past:
            message += (
                f" Ids are whole numbers up to {LARGEST_ID}, and {past[0]} is larger: nothing "
                "has it."
            )
        return _json_error(404, NOT_FOUND, message)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400: input refused at the boundary (frontdoor/boundary.py BadInput, with its code), a
    body past DATA_UPLOAD_MAX_MEMORY_SIZE, a bad Host... JSON under /api/; elsewhere the 400
    page with the code, or Django's own page for Django's own refusals."""
    if isinstance(exception, BadInput):
        if _is_api(request):
            return _json_error(400, exception.code, exception.message)
        context = {"code": exception.code, "message": exception.message}
        return render(request, "bad_request.html", context, status=400)
    if _is_api(request):
        message = printable(str(exception)) or "The request is not valid."
        return _json_error(400, "bad_request", message)
    return defaults.bad_request(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: JSON under /api/ (the error is logged), Django's page elsewhere."""
    if _is_api(request):
        return _json_error(500, "server_error", "The server failed; the error was logged.")
    return defaults.server_error(request)
