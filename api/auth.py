"""People's API authentication: the browser's session, or a personal token for scripts.

`Authorization: Token <key>` (the key from POST /api/me/token, shown once; accounts/services.py
stores only its SHA-256). A token request needs no CSRF token: no browser sends the header by
itself.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts import services as accounts

KEYWORD = "Token"


class PersonalTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Token <key>`: request.user is the token's person."""

    def authenticate(self, request: Request) -> tuple[User, None] | None:
        header = authentication.get_authorization_header(request).decode(errors="replace")
        keyword, _, key = header.partition(" ")
        if keyword != KEYWORD:
            return None
        user = accounts.user_for_token(key.strip())
        if user is None:
            raise exceptions.AuthenticationFailed("unknown or revoked personal token")
        return user, None

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD


# drf_spectacular's __init_subclass__ (the extension's registration) is unannotated.
class PersonalTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """PersonalTokenAuthentication in the OpenAPI schema."""

    target_class = PersonalTokenAuthentication
    name = "personalToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>`: your personal API token (POST /api/me/token).",
        }


# The people's endpoints: a signed-in browser, or a script with a personal token.
PEOPLE = [authentication.SessionAuthentication, PersonalTokenAuthentication]


def person(request: Request) -> User:
    """The signed-in person of a request that IsAuthenticated (the API's default permission)
    has let through: request.user, which the types allow to be AnonymousUser."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    return user
