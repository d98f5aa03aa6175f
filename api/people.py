"""The people's API (session or personal token): resign a game, take vacation days, choose how
turn notices arrive, hold personal API tokens. games/seat_facts.py, clocks/deadlines.py and
accounts/services.py do the work; docs/api.md lists the errors."""

from __future__ import annotations

from typing import Any

from django.views.decorators.debug import sensitive_variables
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services as accounts
from accounts.models import SCOPES, PersonalToken
from api.auth import PEOPLE, person, require_scope
from api.errors import ErrorOutput, error_responses
from clocks import deadlines, presence
from games import seat_facts
from games.models import NotificationPreference, Seat


class ResignOutput(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    seats = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The seats resigned: the default bot plays them, and they are placed last.",
    )


class VacationInput(serializers.Serializer[dict[str, Any]]):
    days = serializers.IntegerField(help_text="Whole days, at least 1, within the game's budget.")


class VacationOutput(serializers.Serializer[deadlines.Vacation]):
    game = serializers.IntegerField(source="game_id")
    seat = serializers.IntegerField()
    deadline_at = serializers.DateTimeField(allow_null=True)
    vacation_until = serializers.DateTimeField()
    days_used = serializers.IntegerField()
    days_left = serializers.IntegerField(help_text="Of the game's vacation_days budget.")


class NotificationSettings(serializers.ModelSerializer[NotificationPreference]):
    class Meta:
        model = NotificationPreference
        fields = ["turn_emails"]
        extra_kwargs = {"turn_emails": {"required": True}}


@extend_schema(request=None, responses={200: ResignOutput, **error_responses(400, 403, 404)})
@api_view(["POST"])
@authentication_classes(PEOPLE)
def resign(request: Request, game_id: int) -> Response:
    """Resign every seat you hold in a playing game."""
    require_scope(request, "play")
    seats = seat_facts.game_resign(game_id=game_id, actor=person(request))
    return Response({"game": game_id, "seats": seats})


@extend_schema(
    request=VacationInput, responses={200: VacationOutput, **error_responses(400, 403, 404)}
)
@api_view(["POST"])
@authentication_classes(PEOPLE)
def vacation(request: Request, game_id: int) -> Response:
    """Pause your clock in a game for some days: a running deadline moves that much later."""
    require_scope(request, "play")
    data = VacationInput(data=request.data)
    data.is_valid(raise_exception=True)
    vacation = deadlines.seat_vacation(
        game_id=game_id, actor=person(request), days=data.validated_data["days"]
    )
    return Response(VacationOutput(vacation).data)


class Notifications(APIView):
    authentication_classes = PEOPLE

    @extend_schema(responses={200: NotificationSettings, **error_responses(403)})
    def get(self, request: Request) -> Response:
        """How you hear that it is your turn. each (the default): an email when a turn starts
        while you are away from that game, one per game until you are back at it, the other
        waiting turns in the daily digest; digest: the daily digest only; none: no email."""
        preference = NotificationPreference.objects.filter(user=person(request)).first()
        return Response(NotificationSettings(preference or NotificationPreference()).data)

    @extend_schema(
        request=NotificationSettings,
        responses={200: NotificationSettings, **error_responses(400, 403)},
    )
    def put(self, request: Request) -> Response:
        """Choose each (an email per game per absence, then the digest), digest, or none."""
        data = NotificationSettings(data=request.data)
        data.is_valid(raise_exception=True)
        preference, _ = NotificationPreference.objects.update_or_create(
            user=person(request), defaults=data.validated_data
        )
        return Response(NotificationSettings(preference).data)


class GameEmails(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField(read_only=True)
    muted = serializers.BooleanField(
        help_text="True: no turn email and no digest line for this game, whatever turn_emails says."
    )


class GameNotifications(APIView):
    authentication_classes = PEOPLE

    @extend_schema(responses={200: GameEmails, **error_responses(403, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        """Whether you muted the turn emails of one of your games."""
        user = person(request)
        if not Seat.objects.filter(game_id=game_id, user_id=user.pk).exists():
            raise NotFound(f"you hold no seat in game {game_id}")
        muted = presence.is_muted(user.pk, game_id)
        return Response(GameEmails({"game": game_id, "muted": muted}).data)

    @extend_schema(
        request=GameEmails, responses={200: GameEmails, **error_responses(400, 403, 404)}
    )
    def put(self, request: Request, game_id: int) -> Response:
        """Mute (or unmute) the turn emails of one of your games."""
        data = GameEmails(data=request.data)
        data.is_valid(raise_exception=True)
        muted = data.validated_data["muted"]
        if not presence.mute(person(request).pk, game_id, muted):
            raise NotFound(f"you hold no seat in game {game_id}")
        return Response(GameEmails({"game": game_id, "muted": muted}).data)


class PersonalTokenOutput(serializers.ModelSerializer[PersonalToken]):
    scopes = serializers.ListField(
        source="scope_list",
        child=serializers.ChoiceField(choices=SCOPES),
        help_text="`bots`: the owners' API; `play`: your moves. Reads need none.",
    )

    class Meta:
        model = PersonalToken
        fields = ["prefix", "scopes", "created_at", "last_used_at"]
        read_only_fields = fields


class NewTokenInput(serializers.Serializer[dict[str, Any]]):
    scopes = serializers.MultipleChoiceField(
        choices=SCOPES,
        required=False,
        allow_empty=False,
        error_messages={
            "invalid_choice": f'"{{input}}" is not a scope: the scopes are {", ".join(SCOPES)}.',
            "empty": f"Name at least one scope: the scopes are {', '.join(SCOPES)}.",
        },
        help_text="What the token may do; left out: every scope (the `default` key renewing "
        "itself: its own).",
    )


def _key_field() -> serializers.SerializerMethodField:
    """A new token's key in its answer (from the serializer's context: never stored)."""
    return serializers.SerializerMethodField(
        help_text="The key, for `Authorization: Token <key>`: shown this once, stored hashed."
    )


def _the_key(serializer: serializers.Serializer[Any], token: PersonalToken) -> str:
    return str(serializer.context["key"])


class NewPersonalTokenOutput(PersonalTokenOutput):
    token = _key_field()
    get_token = _the_key

    class Meta(PersonalTokenOutput.Meta):
        fields = [*PersonalTokenOutput.Meta.fields, "token"]
        read_only_fields = fields


# The 409s of a token refused (accounts.services.TokenRefused): no game version in them.
TOKEN_REFUSED = OpenApiResponse(
    ErrorOutput,
    description="`token-name-taken`: another of your tokens has the name, in any case; "
    "`too-many-tokens`: you hold 10 tokens already (revoke one first).",
)
TOO_MANY_TOKENS = OpenApiResponse(
    ErrorOutput,
    description="`too-many-tokens`: a new `default` would be your 11th token (revoke one first).",
)


def _calling_token(request: Request) -> PersonalToken | None:
    """The personal token the request was made with; None for a session."""
    return request.auth if isinstance(request.auth, PersonalToken) else None


def _scopes_asked(request: Request, asked: Any) -> list[str]:
    """The scopes a new token gets: those asked for, else every scope (made with a token, that
    token's own); a scope the calling token lacks is refused (403 `token-scope`)."""
    caller = _calling_token(request)
    scopes = asked or (caller.scope_list if caller is not None else SCOPES)
    for scope in scopes:
        require_scope(request, scope)
    return sorted(scopes)


def _signed_in_to_make(request: Request, rotating: PersonalToken | None = None) -> None:
    """Refuse (403 `session-required`) a token made with a personal token, but for the token
    `rotating` renewing itself (`POST /api/me/token` with the `default` key): a key that leaked
    makes no other key, so revoking it ends what it could do (as GitHub's and Lichess's tokens
    are made on a signed-in page)."""
    caller = _calling_token(request)
    if caller is None or (rotating is not None and caller.pk == rotating.pk):
        return
    raise PermissionDenied(
        "a personal token makes no new token: make it signed in (the profile page, "
        "/accounts/profile/, or a session as the bot guide, /guides/bots-api/, shows with curl); "
        "with a token, only the `default` token renews itself (POST /api/me/token)",
        code="session-required",
    )


def _may_end(request: Request, token: PersonalToken | None) -> None:
    """Refuse (403 `token-scope`) a request made with a personal token that would revoke or
    replace a token holding a scope the calling one lacks: a `bots` token leaked from CI does
    not switch off the person's `play` token, as it could not have made one (a session may)."""
    caller = _calling_token(request)
    if caller is None or token is None:
        return
    lacking = [scope for scope in token.scope_list if scope not in caller.scope_list]
    if lacking:
        raise PermissionDenied(
            f"this personal token's scopes ({caller.scopes}) do not include `{lacking[0]}`, "
            f"which the token “{token.name}” holds: revoke or replace it signed in, or with a "
            "token that has its scopes",
            code="token-scope",
        )


class Token(APIView):
    """The token named "default" (accounts.models.DEFAULT_TOKEN): what a person had when they
    could have only one; the person's other tokens are Tokens' and TokenDetail's."""

    authentication_classes = PEOPLE

    @extend_schema(responses={200: PersonalTokenOutput, **error_responses(403, 404)})
    def get(self, request: Request) -> Response:
        """Your personal API token named `default`: its prefix and dates (never the key); 404
        when you have none of that name (GET /api/me/tokens lists them all)."""
        token = accounts.default_token_of(person(request))
        if token is None:
            raise NotFound("you have no personal API token")
        return Response(PersonalTokenOutput(token).data)

    @extend_schema(
        request=NewTokenInput,
        responses={201: NewPersonalTokenOutput, **error_responses(400, 403), 409: TOO_MANY_TOKENS},
    )
    @sensitive_variables()  # a crash report shows no variable here or below: never the new key
    def post(self, request: Request) -> Response:
        """Make a new personal API token named `default` with the scopes asked for, shown once;
        the old `default` stops working at once, your other tokens are left alone. With a token,
        only the `default` key renews itself (another is 403 `session-required`), with no scope
        it lacks (403 `token-scope`); 409 `too-many-tokens` when a new `default` would make more
        than 10."""
        data = NewTokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        scopes = _scopes_asked(request, data.validated_data.get("scopes"))
        _signed_in_to_make(request, rotating=accounts.default_token_of(person(request)))
        token, key = accounts.default_token_issue(user=person(request), scopes=scopes)
        return Response(NewPersonalTokenOutput(token, context={"key": key}).data, status=201)

    @extend_schema(request=None, responses={204: None, **error_responses(403, 404)})
    def delete(self, request: Request) -> Response:
        """Revoke your personal API token named `default`: requests with it are refused from now
        on; your other tokens keep working. Made with a token, 403 `token-scope` when `default`
        holds a scope that token lacks."""
        _may_end(request, accounts.default_token_of(person(request)))
        if not accounts.token_revoke(user=person(request)):
            raise NotFound("you have no personal API token")
        return Response(status=204)


class NamedTokenOutput(PersonalTokenOutput):
    name = serializers.CharField(help_text="Unique among your tokens, in any case.")

    class Meta(PersonalTokenOutput.Meta):
        fields = ["id", "name", *PersonalTokenOutput.Meta.fields]
        read_only_fields = fields


class NewNamedTokenInput(NewTokenInput):
    name = serializers.CharField(
        trim_whitespace=False,
        allow_blank=True,
        help_text="1 to 40 characters once trimmed, no control or formatting character; "
        "unique among your tokens in any case (409 `token-name-taken`).",
    )


class NewNamedTokenOutput(NamedTokenOutput):
    token = _key_field()
    get_token = _the_key

    class Meta(NamedTokenOutput.Meta):
        fields = [*NamedTokenOutput.Meta.fields, "token"]
        read_only_fields = fields


class Tokens(APIView):
    authentication_classes = PEOPLE

    @extend_schema(responses={200: NamedTokenOutput(many=True), **error_responses(403)})
    def get(self, request: Request) -> Response:
        """Your personal API tokens, oldest first: each one's id, name, prefix, scopes and
        dates, never a key."""
        tokens = accounts.tokens_of(person(request))
        return Response(NamedTokenOutput(tokens, many=True).data)

    @extend_schema(
        request=NewNamedTokenInput,
        responses={201: NewNamedTokenOutput, **error_responses(400, 403), 409: TOKEN_REFUSED},
    )
    @sensitive_variables()  # a crash report shows no variable here or below: never the new key
    def post(self, request: Request) -> Response:
        """Make a named personal API token beside your others, with the scopes asked for; the
        key is shown once. Signed in only: made with a personal token, 403 `session-required`
        (a key that leaked makes no other). 400 `invalid-token-name`; 409 `token-name-taken`,
        or `too-many-tokens` when you hold 10."""
        _signed_in_to_make(request)
        data = NewNamedTokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        scopes = _scopes_asked(request, data.validated_data.get("scopes"))
        token, key = accounts.token_create(
            user=person(request), name=data.validated_data["name"], scopes=scopes
        )
        return Response(NewNamedTokenOutput(token, context={"key": key}).data, status=201)


class TokenDetail(APIView):
    authentication_classes = PEOPLE

    @extend_schema(request=None, responses={204: None, **error_responses(403, 404)})
    def delete(self, request: Request, token_id: int) -> Response:
        """Revoke one of your personal API tokens: requests with it are refused from now on,
        your others keep working. 404 for an id that is not one of your tokens; made with a
        token, 403 `token-scope` for one holding a scope that token lacks."""
        user = person(request)
        _may_end(request, PersonalToken.objects.filter(user=user, pk=token_id).first())
        if accounts.token_revoke_one(user=user, token_id=token_id) is None:
            raise NotFound(f"you have no personal API token {token_id}")
        return Response(status=204)
