"""People's API authentication: the browser's session, or a personal token for scripts.

`Authorization: Token <key>` (the key from POST /api/me/token, shown once; accounts/services.py
stores only its SHA-256). A token request needs no CSRF token: no browser sends the header by
itself. A key never issued, replaced or revoked is 401 `token-invalid`. A token carries scopes
(accounts.models.SCOPES): the owners' endpoints need `bots`, a person's moves `play`; without
it, 403 `token-scope`. The session has every scope.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import HTTP_HEADER_ENCODING, authentication, exceptions, permissions
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts import services as accounts
from accounts.models import PersonalToken

KEYWORD = "Token"


class TokenInvalid(exceptions.APIException):
    """A personal token never issued, replaced or revoked: 401 whatever the view's other
    authentications (DRF turns its own AuthenticationFailed into a 403 behind a session)."""

    status_code = 401
    default_code = "token-invalid"
    default_detail = "unknown, replaced or revoked personal token"
    # DRF's exception handler sends it as WWW-Authenticate.
    auth_header = KEYWORD


def authorization(request: Request) -> str:
    """The Authorization header, as DRF's `get_authorization_header` reads it (bytes, a str
    encoded as ISO-8859-1), decoded as the authentications here decode it; read from META,
    where DRF's builds the request's whole `headers` mapping (every header's name parsed) for
    the one header, on every request of the API."""
    header = request.META.get("HTTP_AUTHORIZATION", b"")
    if isinstance(header, str):
        header = header.encode(HTTP_HEADER_ENCODING)
    return bytes(header).decode(errors="replace")


class PersonalTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Token <key>`: request.user is the token's person, request.auth the
    token (its scopes)."""

    def authenticate(self, request: Request) -> tuple[User, PersonalToken] | None:
        keyword, _, key = authorization(request).partition(" ")
        if keyword != KEYWORD:
            return None
        token = accounts.token_for_key(key.strip())
        if token is None:
            raise TokenInvalid()
        return token.user, token

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


def require_scope(request: Request, scope: str) -> None:
    """Refuse (403 `token-scope`) a request made with a personal token that lacks `scope`; a
    session has every scope."""
    token = request.auth
    if isinstance(token, PersonalToken) and scope not in token.scope_list:
        raise exceptions.PermissionDenied(
            f"this personal token's scopes ({token.scopes}) do not include `{scope}`: "
            f"make a token with `{scope}`",
            code="token-scope",
        )


class BotsScope(permissions.BasePermission):
    """The owners' endpoints: a signed-in person, whose token (if any) has scope `bots`."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not request.user or not request.user.is_authenticated:
            return False
        require_scope(request, "bots")
        return True


class PlayScope(permissions.BasePermission):
    """A person's moves: a signed-in person, whose token (if any) has scope `play`."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not request.user or not request.user.is_authenticated:
            return False
        require_scope(request, "play")
        return True


def person(request: Request) -> User:
    """The signed-in person of a request that IsAuthenticated (the API's default permission)
    has let through: request.user, which the types allow to be AnonymousUser."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    return user
