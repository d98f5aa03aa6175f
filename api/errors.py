"""API errors as JSON with a stable code and a human message."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render an API error as {"code": ..., "message": ...}, plus "errors" when invalid.

    Anything DRF does not handle returns None, so Django's usual 500 handling applies.
    """
    # DRF converts these two itself, but only inside its own handler; convert them first
    # so they get our shape too.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "code": "invalid",
            "message": "The request is not valid.",
            "errors": exc.detail,
        }
    else:
        response.data = {"code": exc.get_codes(), "message": str(exc.detail)}
    return response
