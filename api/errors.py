"""API errors as JSON with a stable code and a human message.

Every error is mapped here, once: DRF's own exceptions, Django's Http404 and PermissionDenied,
and the services' typed errors (games.errors.GameError and its subclasses, which include
bots/registry.py's, clocks/deadlines.py's and league/errors.py's). Views let them propagate.
`error_responses()` documents the statuses a view can answer with in its OpenAPI schema.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse
from rest_framework import authentication, exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from chat.errors import ChatRateLimited, ChatRestricted
from frontdoor.boundary import BadInput, printable
from frontdoor.errors import status_for
from games.errors import Conflict, GameError


def game_error_response(error: GameError) -> Response:
    """{"code", "message"}, plus "current_version" for a version conflict, "until" for a chat
    restriction and "wait" (seconds, also the Retry-After header) for chat's rate limit."""
    body: dict[str, Any] = {"code": error.code, "message": error.message}
    headers = None
    if isinstance(error, Conflict):
        body["current_version"] = error.current_version
    elif isinstance(error, ChatRestricted):
        body["until"] = error.until.isoformat()
    elif isinstance(error, ChatRateLimited):
        body["wait"] = error.wait
        headers = {"Retry-After": str(error.wait)}
    return Response(body, status=status_for(error), headers=headers)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render an API error as {"code": ..., "message": ...}, plus "errors" when invalid.

    Anything neither DRF nor the services define returns None, so Django's usual 500 handling
    applies.
    """
    if isinstance(exc, BadInput):
        # Refused at the site's input boundary (frontdoor/boundary.py): a NUL or a lone surrogate
        # in a string of the body, JSON nested too deep, a malformed number.
        return Response({"code": exc.code, "message": exc.message}, status=400)
    if isinstance(exc, GameError):
        # No set_rollback() as DRF does for its own errors: a service may record something on
        # purpose before refusing (a pull bot's illegal answer is counted), and the per-view
        # handling this replaces never rolled back either.
        return game_error_response(exc)

    # DRF converts these two itself, but only inside its own handler; convert them first
    # so they get our shape too.
    if isinstance(exc, Http404):
        # Its message names what is missing ("no schema named 'x'"); DRF's bare "Not found."
        # names nothing.
        exc = exceptions.NotFound(str(exc) or not_found_message(context))
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, exceptions.NotAuthenticated):
        exc = other_scheme(exc, context)

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
        code = exc.get_codes()
        if code == exceptions.NotFound.default_code:
            # DRF's `not_found`, spelt as the site's codes and the services' `not-found` are.
            code = NOT_FOUND
        response.data = {"code": code, "message": str(exc.detail)}
        if isinstance(exc, exceptions.UnsupportedMediaType):
            # DRF says only what was sent; say what to send (every body of the API is JSON).
            response.data["message"] += (
                " Send the body as JSON, with `Content-Type: application/json`."
            )
    # A message may echo the input it refuses (`"\ud800" is not a valid choice.`): a lone
    # surrogate in it would fail the renderer's UTF-8, a 500 for a 400.
    response.data = printable_data(response.data)
    return response


# The one code of a 404 that names no kind of thing (a game's, a table's and a notice's have
# theirs): DRF's NotFound, Django's Http404, the services' not-found errors, an unknown path.
NOT_FOUND = "not-found"


def not_found_message(context: dict[str, Any]) -> str:
    """A 404's message when the code that raised it gave none: the path with nothing at it."""
    request = context.get("request")
    path = getattr(request, "path", None)
    return f"there is nothing at {path}" if path else "there is nothing here"


# An Authorization header's scheme, as echoed in a refusal: a word of letters (RFC 9110's token
# is wider; a key is not a scheme, and is never echoed).
_SCHEME = re.compile(rb"[A-Za-z]{1,20}")
# The words for each way in an endpoint may take, by its authentication's scheme.
SCHEMES = {"Token": "`Authorization: Token <key>`", "Bot": "`Authorization: Bot <token>`"}


def other_scheme(
    exc: exceptions.NotAuthenticated, context: dict[str, Any]
) -> exceptions.NotAuthenticated:
    """`exc` with a message that names the ways in the endpoint takes, the code unchanged.

    With no Authorization header: DRF's "Authentication credentials were not provided", then
    the ways in ("this endpoint takes `Authorization: Bot <token>`."). With a header in a scheme
    this endpoint does not take (a personal token on the pull bots' API, a bot's token on the
    owners'): "credentials were not provided" would send the caller looking for a missing
    header, so the message says what was sent and what is taken. The scheme is echoed only
    when the header has one (a word of letters before a space), never the key: a header that
    is a bare key is said to have no scheme."""
    request = context.get("request")
    header = authentication.get_authorization_header(request) if request is not None else b""
    taken = []
    for way in getattr(request, "authenticators", ()) or ():
        if isinstance(way, authentication.SessionAuthentication):
            taken.append("a signed-in session")
        elif (keyword := way.authenticate_header(request)) in SCHEMES:
            taken.append(SCHEMES[keyword])
    if not taken:
        return exc
    if not header:
        # Nothing sent: DRF's sentence, and which way in the endpoint takes (a pull bot's
        # author who forgot the header learns the scheme here, not from the docs).
        message = f"{str(exceptions.NotAuthenticated.default_detail).rstrip('.')}: this "
        message += f"endpoint takes {' or '.join(taken)}."
    else:
        word, space, _ = header.partition(b" ")
        named = bool(space) and _SCHEME.fullmatch(word) is not None
        sent = (
            f"an `Authorization: {word.decode()}` header"
            if named
            else "an `Authorization` header without a scheme"
        )
        message = f"this endpoint takes {' or '.join(taken)}; {sent} opens none of it"
    # The same exception, whose status and WWW-Authenticate DRF's view has set (401 with the
    # header, else 403), with the message that says what was wrong.
    exc.detail = exceptions.ErrorDetail(message, code=exceptions.NotAuthenticated.default_code)
    return exc


def printable_data(data: Any) -> Any:
    """`data` with every lone surrogate in its strings (keys too) replaced by U+FFFD."""
    if isinstance(data, str):
        return printable(data)
    if isinstance(data, dict):
        return {printable_data(key): printable_data(value) for key, value in data.items()}
    if isinstance(data, list):
        return [printable_data(item) for item in data]
    return data


class ErrorOutput(serializers.Serializer[dict[str, Any]]):
    code = serializers.CharField(help_text="Stable, for programs (docs/api.md lists them).")
    message = serializers.CharField(help_text="For people; may change.")
    # A declared field: DRF's serializer metaclass moves it out of the class into
    # _declared_fields, so Serializer.errors, which the stubs see it override, stays.
    errors = serializers.DictField(  # type: ignore[assignment]
        required=False, help_text="400 `invalid` only: the field errors, by field."
    )


class ConflictOutput(ErrorOutput):
    current_version = serializers.IntegerField(help_text="The game's version now.")


ERROR_DESCRIPTIONS = {
    400: "`invalid` (field errors), `parse_error` (not JSON, or nested too deeply), "
    "`invalid-characters` (a NUL or a lone surrogate anywhere in the request), or a "
    "refusal of the service (e.g. `match-over`).",
    401: "No bot token, or an unknown one.",
    403: "Not signed in, no CSRF token, a personal token without the scope "
    "(`token-scope`), or the service refuses this caller (e.g. `not-seated`).",
    404: "`not-found` (the message names what), or `game-not-found`, `table-not-found`, "
    "`notice-not-found`: no such game, bot or personal token (or not yours), club, season, "
    "player or notice.",
    409: "`version-conflict`: the game moved on; reload and decide again.",
    422: "The rules refuse the command; `code` is the engine's reason. `game-over`: the match "
    "is over (a command decided on an older version also gets `current_version`, the game's "
    "version now).",
    429: "`throttled`: past the rate limit.",
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """The error answers of a view for extend_schema(responses=...)."""
    return {
        status: OpenApiResponse(
            ConflictOutput if status == 409 else ErrorOutput,
            description=ERROR_DESCRIPTIONS[status],
        )
        for status in statuses
    }


# Any operation can answer this, from the site's input boundary (frontdoor/boundary.py).
BOUNDARY_400 = "`invalid-characters`: a NUL or a lone surrogate in the path, the query, a header."
# Any operation that reads a personal token answers this (api/auth.py), the public reads too.
TOKEN_401 = "`token-invalid`: a personal token never issued, replaced or revoked."


def boundary_errors(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's postprocessing hook (SPECTACULAR_SETTINGS): the 400 of the input
    boundary in every operation that does not list a 400 of its own, and the 401 of a wrong
    personal token in every operation that reads one."""
    error = {"$ref": "#/components/schemas/ErrorOutput"}
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.setdefault(
                "400",
                {"content": {"application/json": {"schema": error}}, "description": BOUNDARY_400},
            )
            schemes = {name for item in operation.get("security", []) for name in item}
            if "personalToken" in schemes:
                responses.setdefault(
                    "401",
                    {"content": {"application/json": {"schema": error}}, "description": TOKEN_401},
                )
    return result
