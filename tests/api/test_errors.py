"""api.errors: every API error is JSON with a stable code and a human message."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions

from api.errors import exception_handler


def test_it_gives_django_404_the_api_shape():
    response = exception_handler(Http404("no such game"), {})

    assert response is not None
    assert response.status_code == 404
    assert response.data == {"code": "not_found", "message": "Not found."}


def test_it_gives_django_permission_denied_the_api_shape():
    response = exception_handler(PermissionDenied(), {})

    assert response is not None
    assert response.status_code == 403
    assert response.data["code"] == "permission_denied"


def test_it_lists_the_field_errors_of_an_invalid_request():
    response = exception_handler(exceptions.ValidationError({"seat": ["Required."]}), {})

    assert response is not None
    assert response.status_code == 400
    assert response.data == {
        "code": "invalid",
        "message": "The request is not valid.",
        "errors": {"seat": ["Required."]},
    }


def test_it_leaves_unexpected_errors_to_django():
    assert exception_handler(ValueError("bug"), {}) is None
