"""The pull-bot API: a bot authenticates with its token (`Authorization: Bot <token>`), reads the
decisions its seats owe and posts commands. docs/workers.md describes the protocol."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import authentication, exceptions, permissions, serializers
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    permission_classes,
    throttle_classes,
)
from rest_framework.request import Request
from rest_framework.response import Response

from api import decision_schemas
from api.auth import authorization
from api.errors import error_responses
from api.shapes import CommandShape
from bots.remote import pull_turns, tokens
from frontdoor.throttles import BotCommandThrottle
from games.models import Bot

KEYWORD = "Bot"


class BotTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Bot <token>`: request.user is the bot's owner, request.auth the Bot."""

    def authenticate(self, request: Request) -> tuple[Any, Bot] | None:
        keyword, _, token = authorization(request).partition(" ")
        if keyword != KEYWORD:
            return None
        bot = tokens.bot_for_token(token.strip())
        if bot is None:
            raise exceptions.AuthenticationFailed("unknown bot token")
        if bot.status == Bot.Status.RETIRED:
            # Retired for good (bots/registry.py bot_retire): its token opens nothing.
            raise exceptions.AuthenticationFailed(
                f"bot {bot.name} is retired: its token no longer works"
            )
        return bot.owner, bot

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD


# drf_spectacular's __init_subclass__ (the extension's registration) is unannotated.
class BotTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """BotTokenAuthentication in the OpenAPI schema."""

    target_class = BotTokenAuthentication
    name = "botToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Bot <token>`: the pull bot's token (POST /api/me/bots/<id>/token).",
        }


class IsBot(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return isinstance(request.auth, Bot)


def bot_of(request: Request) -> Bot:
    """The bot of a request that IsBot has let through: request.auth."""
    bot = request.auth
    if not isinstance(bot, Bot):
        raise exceptions.NotAuthenticated()
    return bot


@extend_schema_field(decision_schemas.ref("view"))
class ViewField(serializers.DictField):
    """A view, typed in the schema by api/decision_schemas.py (`BotView`)."""


@extend_schema_field({"type": "array", "items": decision_schemas.ref("command")})
class LegalField(serializers.ListField):
    """The legal commands, typed in the schema by api/decision_schemas.py (`BotCommand`)."""


class DecisionOutput(serializers.Serializer[dict[str, Any]]):
    """One decision; also at /api/schemas/decision.json (api/decision_schemas.py)."""

    game = serializers.IntegerField()
    seat = serializers.IntegerField()
    version = serializers.IntegerField()
    view = ViewField()
    legal = LegalField(child=serializers.DictField())
    deadline = serializers.DateTimeField(
        help_text="In turn: when the fallback moves for the seat. Optional: when the window "
        "closes and the game moves on without the bot."
    )
    optional = serializers.BooleanField(
        help_text="True for an out-of-turn window (call uno, catch, newno jump-in): answering is "
        "up to the bot, and letting it go costs nothing."
    )


COMMAND_ID_LENGTH = 100


class CommandInput(serializers.Serializer[dict[str, Any]]):
    command = serializers.DictField()
    expected_version = serializers.IntegerField(min_value=0)
    command_id = serializers.CharField(
        max_length=COMMAND_ID_LENGTH, required=False, allow_null=True
    )


def command_input(data: Any) -> dict[str, Any]:
    """CommandInput's validated data. A body of exactly the plain shape (a JSON object, an
    object `command`, an integer `expected_version` >= 0, no `command_id` or a trimmed one of
    1-100 characters) is taken as it is, without building the serializer (a tenth of a
    command's Python, issue 16); any other goes through CommandInput, for its conversions and
    its errors."""
    if type(data) is dict and type(data.get("command")) is dict:
        version = data.get("expected_version")
        command_id = data.get("command_id")
        plain_id = command_id is None or (
            type(command_id) is str
            and 0 < len(command_id) <= COMMAND_ID_LENGTH
            and command_id == command_id.strip()
        )
        if type(version) is int and version >= 0 and plain_id:
            checked = {"command": dict(data["command"]), "expected_version": version}
            if "command_id" in data:
                checked["command_id"] = command_id
            return checked
    serializer = CommandInput(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class GameCommandInput(CommandInput):
    """CommandInput as the schema describes it: the command's shape (`type` and its fields).
    The views validate with CommandInput, so a command of another shape reaches the engine and
    is refused there with its reason (422 `unknown-command`, `malformed-command`, ...)."""

    command = CommandShape()  # type: ignore[assignment]


class CommandOutput(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.DictField())
    repeated = serializers.BooleanField()
    next = serializers.ListField(
        child=serializers.DictField(),
        help_text="What the game waits for from your seats right after this command (the "
        "decision after a draw, the next turn of a seat you also hold): each `{game, seat, "
        "version, view, legal}`, a pull bot's with `deadline` and `optional` too, as GET "
        "/api/bot/decisions lists them. Empty when the game waits for others (read it again "
        "then) and for a repeated command.",
    )


POLL_HINT = OpenApiParameter(
    "Retry-After",
    int,
    OpenApiParameter.HEADER,
    response=[200],
    description="Whole seconds to wait before polling again after a poll that gave the bot "
    "nothing to send (an empty list, or only windows it lets go): BOTS_POLL_SECONDS, 1 unless "
    "the site sets another. Shorter than a pull window (BOTS_PULL_WINDOW_SECONDS, 2 s).",
)


@extend_schema(
    responses={200: DecisionOutput(many=True), **error_responses(401)}, parameters=[POLL_HINT]
)
@api_view(["GET"])
@authentication_classes([BotTokenAuthentication])
@permission_classes([IsBot])
def decisions(request: Request) -> Response:
    """The decisions the games wait for from this bot's seats, and its open out-of-turn windows
    (`optional`). `Retry-After` says how long to wait before the next poll when there is
    nothing to send (docs/bots-api.md, "Pull bots")."""
    return Response(
        pull_turns.pull_decisions(bot_of(request)),
        headers={"Retry-After": str(settings.BOTS_POLL_SECONDS)},
    )


@extend_schema(
    request=GameCommandInput,
    responses={200: CommandOutput, **error_responses(400, 401, 403, 404, 409, 422, 429)},
)
@api_view(["POST"])
@authentication_classes([BotTokenAuthentication])
@permission_classes([IsBot])
@throttle_classes([BotCommandThrottle])
def command(request: Request, game_id: int) -> Response:
    """Send one command for one of this bot's seats; a refused one is a typed error
    (api/errors.py) and changes nothing in the game."""
    data = command_input(request.data)
    result = pull_turns.pull_command(
        bot=bot_of(request),
        game_id=game_id,
        command=data["command"],
        expected_version=data["expected_version"],
        command_id=data.get("command_id"),
    )
    return Response(
        {
            "game": result.game_id,
            "version": result.version,
            "events": result.events,
            "repeated": result.repeated,
            "next": list(result.next),
        }
    )
