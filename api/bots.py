"""The pull-bot API: a bot authenticates with its token (`Authorization: Bot <token>`), reads the
decisions its seats owe and posts commands. docs/workers.md describes the protocol."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import extend_schema
from rest_framework import authentication, exceptions, permissions, serializers
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    permission_classes,
    throttle_classes,
)
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import error_responses
from api.shapes import CommandShape
from api.throttles import BotCommandThrottle
from games.models import Bot
from games.remote import pull_turns, tokens

KEYWORD = "Bot"


class BotTokenAuthentication(authentication.BaseAuthentication):
    """`Authorization: Bot <token>`: request.user is the bot's owner, request.auth the Bot."""

    def authenticate(self, request: Request) -> tuple[Any, Bot] | None:
        header = authentication.get_authorization_header(request).decode(errors="replace")
        keyword, _, token = header.partition(" ")
        if keyword != KEYWORD:
            return None
        bot = tokens.bot_for_token(token.strip())
        if bot is None:
            raise exceptions.AuthenticationFailed("unknown bot token")
        return bot.owner, bot

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD


class BotTokenScheme(OpenApiAuthenticationExtension):
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


class DecisionOutput(serializers.Serializer):
    game = serializers.IntegerField()
    seat = serializers.IntegerField()
    version = serializers.IntegerField()
    view = serializers.DictField()
    legal = serializers.ListField(child=serializers.DictField())
    deadline = serializers.DateTimeField(
        help_text="In turn: when the fallback moves for the seat. Optional: when the window "
        "closes and the game moves on without the bot."
    )
    optional = serializers.BooleanField(
        help_text="True for an out-of-turn window (call uno, catch, newno jump-in): answering is "
        "up to the bot, and letting it go costs nothing."
    )


class CommandInput(serializers.Serializer):
    command = serializers.DictField()
    expected_version = serializers.IntegerField(min_value=0)
    command_id = serializers.CharField(max_length=100, required=False, allow_null=True)


class GameCommandInput(CommandInput):
    """CommandInput as the schema describes it: the command's shape (`type` and its fields).
    The views validate with CommandInput, so a command of another shape reaches the engine and
    is refused there with its reason (422 `unknown-command`, `malformed-command`, ...)."""

    command = CommandShape()  # type: ignore[assignment]


class CommandOutput(serializers.Serializer):
    game = serializers.IntegerField()
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.DictField())
    repeated = serializers.BooleanField()


@extend_schema(responses={200: DecisionOutput(many=True), **error_responses(401)})
@api_view(["GET"])
@authentication_classes([BotTokenAuthentication])
@permission_classes([IsBot])
def decisions(request: Request) -> Response:
    """The decisions the games wait for from this bot's seats, and its open out-of-turn windows
    (`optional`)."""
    return Response(pull_turns.pull_decisions(request.auth))


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
    data = CommandInput(data=request.data)
    data.is_valid(raise_exception=True)
    result = pull_turns.pull_command(
        bot=request.auth,
        game_id=game_id,
        command=data.validated_data["command"],
        expected_version=data.validated_data["expected_version"],
        command_id=data.validated_data.get("command_id"),
    )
    return Response(
        {
            "game": result.game_id,
            "version": result.version,
            "events": result.events,
            "repeated": result.repeated,
        }
    )
