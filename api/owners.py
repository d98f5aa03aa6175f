"""The bot owners' API (the session, or a personal token with scope `bots`): register bots,
read their status and call stats, rename and change them, run their validation again, issue
pull tokens, retire them. bots/registry.py does the work; a bot that is not the signed-in
user's is a 404, as if it did not exist. docs/api.md lists the errors."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    permission_classes,
    throttle_classes,
)
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from api.auth import PEOPLE, BotsScope, person
from api.errors import ErrorOutput, error_responses
from botcalls import reads as call_reads
from botcalls.reasons import REASONS
from bots import registry as bot_registry
from frontdoor.throttles import BotChangesThrottle
from games.models import Bot


class Seconds(serializers.FloatField):
    """A latency in seconds, to the millisecond (3 decimals): `0.171`, not the sum's division's
    `0.17057799999999998`."""

    def to_representation(self, value: Any) -> Any:  # float; the stubs say str
        return round(float(value), 3)


class BotStatsOutput(serializers.ModelSerializer[Bot]):
    mean_latency = Seconds(
        allow_null=True,
        read_only=True,
        help_text="Seconds per call, to the millisecond; null before the first call.",
    )

    class Meta:
        model = Bot
        fields = ["calls", "mean_latency", "timeouts", "errors", "illegal_answers"]
        read_only_fields = fields


class BotOutput(serializers.ModelSerializer[Bot]):
    stats = BotStatsOutput(source="*", read_only=True)
    # Not the model's URLField (`format: uri` in the schema): only a webhook bot has a URL, and
    # the other kinds' is the empty string, which is no URI.
    url = serializers.CharField(
        read_only=True, help_text="Kind webhook: where moves are asked for; empty for the others."
    )
    suspended_by_staff = serializers.BooleanField(
        read_only=True,
        help_text="Suspended by the staff: only the staff lift it, and `validate` is refused "
        "(403 `suspended-by-staff`) until they do.",
    )
    retired_at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="When its owner retired it (status `retired`, for good); null before.",
    )

    class Meta:
        model = Bot
        fields = [
            "id",
            "name",
            "kind",
            "strategy",
            "url",
            "status",
            "status_reason",
            "suspended_by_staff",
            "strikes",
            "stats",
            "created_at",
            "updated_at",
            "retired_at",
        ]
        read_only_fields = fields


class RegisteredOutput(BotOutput):
    token = serializers.SerializerMethodField(
        help_text="A pull bot's API token (`Authorization: Bot <token>`), shown this once."
    )
    secret = serializers.SerializerMethodField(
        help_text="A webhook bot's HMAC secret, shown this once."
    )

    class Meta(BotOutput.Meta):
        fields = [*BotOutput.Meta.fields, "token", "secret"]
        read_only_fields = fields

    def get_token(self, bot: Bot) -> str | None:
        return self.context.get("token")

    def get_secret(self, bot: Bot) -> str | None:
        return bot.secret if bot.kind == Bot.Kind.WEBHOOK else None


class OnlyItsFields(serializers.Serializer[dict[str, Any]]):
    """A body of these fields and no other: a field the endpoint does not take (`kind` in a
    change, a misspelt `stratgy`) is 400 `invalid` naming it, where DRF would drop it and answer
    200 having changed nothing the caller meant."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = self.initial_data if isinstance(self.initial_data, dict) else {}
        unknown = sorted(str(key) for key in given if key not in self.fields)
        if unknown:
            takes = ", ".join(self.fields)
            raise serializers.ValidationError(
                {key: [f"Not a field of this body, which takes {takes}."] for key in unknown}
            )
        return attrs


# A bot's name, registering it or renaming it: bots/registry.py checks the rest (its length,
# trimmed, as `invalid-bot`; another of the owner's bots with it, as `name-taken`).
NAME_HELP = (
    f"1 to {bot_registry.NAME_LENGTH} characters, trimmed; unique among your bots (retired "
    "ones included)."
)


class RegisterInput(OnlyItsFields):
    name = serializers.CharField(help_text=NAME_HELP)
    kind = serializers.ChoiceField(choices=Bot.Kind.choices)
    strategy = serializers.CharField(
        required=False, allow_blank=True, help_text="Kind builtin: a built-in strategy's name."
    )
    url = serializers.CharField(
        required=False, allow_blank=True, help_text="Kind webhook: where moves are asked for."
    )
    secret = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text="Kind webhook: the HMAC key; a random one when left out.",
    )


class UpdateInput(OnlyItsFields):
    name = serializers.CharField(required=False, help_text=f"A new name: {NAME_HELP}")
    strategy = serializers.CharField(required=False, allow_blank=True)
    url = serializers.CharField(required=False, allow_blank=True)
    secret = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)


class TokenOutput(serializers.Serializer[dict[str, Any]]):
    token = serializers.CharField(help_text="The new token, shown this once; the old one is void.")


# The 409s of a change its state refuses (games.errors.BotRefused): no game version in them.
REFUSED_RETIRED = OpenApiResponse(
    ErrorOutput, description="`bot-retired`: a retired bot is changed no more."
)
REFUSED_BUSY = OpenApiResponse(
    ErrorOutput,
    description="`bot-busy`: a running game, a ladder set with games to play, a club season "
    "or a tournament not over holds the bot (the message names them); nothing changed.",
)


class ThrottledChanges(APIView):
    """Class views: reading is free, changing is throttled."""

    def get_throttles(self) -> list[BaseThrottle]:
        return [] if self.request.method == "GET" else [BotChangesThrottle()]


def _my_bot(request: Request, bot_id: int) -> Bot:
    bot = Bot.objects.filter(pk=bot_id, owner=person(request)).first()
    if bot is None:
        raise NotFound(f"you have no bot {bot_id}")
    return bot


class MyBots(ThrottledChanges):
    authentication_classes = PEOPLE
    permission_classes = [BotsScope]

    @extend_schema(responses={200: BotOutput(many=True), **error_responses(403)})
    def get(self, request: Request) -> Response:
        """The signed-in user's bots, oldest first."""
        bots = Bot.objects.filter(owner=person(request)).order_by("created_at", "pk")
        return Response(BotOutput(bots, many=True).data)

    @extend_schema(
        request=RegisterInput,
        responses={201: RegisteredOutput, **error_responses(400, 403, 429)},
    )
    def post(self, request: Request) -> Response:
        """Register a bot; it is validating until its validation matches have been played."""
        data = RegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        bot, token = bot_registry.bot_register(owner=person(request), **data.validated_data)
        output = RegisteredOutput(bot, context={"token": token})
        return Response(output.data, status=status.HTTP_201_CREATED)


class MyBot(ThrottledChanges):
    authentication_classes = PEOPLE
    permission_classes = [BotsScope]

    @extend_schema(responses={200: BotOutput, **error_responses(403, 404)})
    def get(self, request: Request, bot_id: int) -> Response:
        """One of the user's bots: its status, why it has it, its strikes and call stats."""
        return Response(BotOutput(_my_bot(request, bot_id)).data)

    @extend_schema(
        request=UpdateInput,
        responses={200: BotOutput, **error_responses(400, 403, 404, 429), 409: REFUSED_RETIRED},
    )
    def patch(self, request: Request, bot_id: int) -> Response:
        """Rename a bot; change a webhook bot's URL or secret, or a built-in bot's strategy. A
        new URL or strategy is validated again; a new name is not."""
        bot = _my_bot(request, bot_id)
        data = UpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        bot = bot_registry.bot_update(bot=bot, owner=person(request), **data.validated_data)
        return Response(BotOutput(bot).data)

    @extend_schema(
        request=None,
        responses={200: BotOutput, **error_responses(403, 404, 429), 409: REFUSED_BUSY},
    )
    def delete(self, request: Request, bot_id: int) -> Response:
        """Retire a bot, for good: it plays nothing new and leaves its ladders; its pull token
        stops working; its games, ratings and standings stay. 200 with the bot, `retired`
        (again for a bot retired already). 409 `bot-busy` while a running game, an open ladder
        set, a club season or a tournament holds it."""
        bot = bot_registry.bot_retire(bot=_my_bot(request, bot_id), owner=person(request))
        return Response(BotOutput(bot).data)


@extend_schema(
    request=None, responses={202: BotOutput, **error_responses(403, 404, 429), 409: REFUSED_RETIRED}
)
@api_view(["POST"])
@authentication_classes(PEOPLE)
@permission_classes([BotsScope])
@throttle_classes([BotChangesThrottle])
def validate(request: Request, bot_id: int) -> Response:
    """Run the bot's validation matches again (after a failure or a suspension for its
    strikes); a suspension by the staff is lifted by the staff alone (403
    `suspended-by-staff`); a retired bot is validated no more (409 `bot-retired`)."""
    bot = bot_registry.bot_revalidate(bot=_my_bot(request, bot_id), owner=person(request))
    return Response(BotOutput(bot).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(
    request=None,
    responses={200: TokenOutput, **error_responses(400, 403, 404), 409: REFUSED_RETIRED},
)
@api_view(["POST"])
@authentication_classes(PEOPLE)
@permission_classes([BotsScope])
def token(request: Request, bot_id: int) -> Response:
    """Issue a pull bot a new API token; the old one stops working."""
    new = bot_registry.bot_new_token(bot=_my_bot(request, bot_id), owner=person(request))
    return Response({"token": new})


# Calls per page of GET /api/me/bots/<id>/calls.
CALLS_PAGE = 50


class CallsQuery(serializers.Serializer[dict[str, Any]]):
    before = serializers.IntegerField(
        required=False, min_value=1, help_text="Only calls older than this call id (paging)."
    )


class DecisionRef(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField(allow_null=True)


class CallOutput(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    decision = DecisionRef(help_text="The decision asked: seat and version null where not kept.")
    answer = serializers.JSONField(
        allow_null=True, help_text="What the bot answered, as it sent it; null for none."
    )
    outcome = serializers.ChoiceField(choices=["ok", "timeout", "error", "illegal", "refused"])
    strike = serializers.BooleanField()
    code = serializers.ChoiceField(choices=sorted(REASONS), help_text="docs/bots-api.md")
    refusal = serializers.CharField(
        allow_null=True, help_text="The rules' code of a refused answer (`card-not-in-hand`)."
    )
    message = serializers.CharField()
    latency = Seconds(help_text="Seconds, to the millisecond.")


class CallsOutput(serializers.Serializer[dict[str, Any]]):
    calls = CallOutput(many=True)
    more = serializers.BooleanField(help_text="Older calls follow: ask with `before`.")


@extend_schema(
    parameters=[CallsQuery],
    responses={200: CallsOutput, **error_responses(400, 403, 404)},
)
@api_view(["GET"])
@authentication_classes(PEOPLE)
@permission_classes([BotsScope])
def calls(request: Request, bot_id: int) -> Response:
    """The bot's kept calls (its last 100), newest first, 50 a page: each with its decision,
    the bot's answer, the verdict and a reason code (docs/bots-api.md, "Reason codes")."""
    bot = _my_bot(request, bot_id)
    query = CallsQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    found = call_reads.calls_of(
        bot.pk, before=query.validated_data.get("before"), limit=CALLS_PAGE + 1
    )
    page = found[:CALLS_PAGE]
    return Response(CallsOutput({"calls": page, "more": len(found) > CALLS_PAGE}).data)
