"""Chat through the API: a game's messages (GET /api/games/<id>/chat?after=N, POST to say
something), reporting a message (POST /api/chat/<id>/report) and muting a person everywhere
(POST /api/people/<username>/mute, DELETE to unmute). chat/table.py and chat/moderation.py do
the work; docs/api.md, "Chat"."""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.auth import PEOPLE, person
from api.errors import ErrorOutput, error_responses
from chat import moderation, table
from chat.errors import ChatInvalid
from chat.models import Message

RATE_LIMITED = OpenApiResponse(
    ErrorOutput,
    description="`chat-rate-limited`: more messages than a conversation needs (5 in 10 s, "
    "tables and boards together); `wait` says how many seconds, as Retry-After does.",
)
RESTRICTED = OpenApiResponse(
    ErrorOutput,
    description="`chat-restricted` (staff restricted you; `until` says to when), `not-seated` "
    "(the seats' channel is for the seated), `seated` (the spectators' channel is for the "
    "people watching), `not-signed-in`.",
)


class MessageOutput(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField(help_text="The message's id (to report it).")
    seq = serializers.IntegerField(help_text="Its number in the game: ask ?after=seq for newer.")
    channel = serializers.ChoiceField(choices=Message.Channel.choices)
    author = serializers.CharField(help_text="The author's username.")
    text = serializers.CharField(
        allow_null=True, help_text="As written; null when the moderators hid it (staff read it)."
    )
    hidden = serializers.BooleanField()
    version = serializers.IntegerField(help_text="The game's version when it was said.")
    created_at = serializers.DateTimeField()
    mine = serializers.BooleanField()


class ChatOutput(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    last = serializers.IntegerField(
        help_text="The seq of the last message in this answer (`after` if none): ask again "
        "with after=last."
    )
    channels = serializers.ListField(
        child=serializers.ChoiceField(choices=Message.Channel.choices),
        help_text="The channels you read: seated people read only `seats` while the match plays.",
    )
    writes = serializers.ChoiceField(
        choices=Message.Channel.choices,
        allow_null=True,
        help_text="The channel you write to (null when signed out).",
    )
    messages = MessageOutput(many=True)


class ChatInput(serializers.Serializer[dict[str, Any]]):
    text = serializers.CharField(
        allow_blank=True, trim_whitespace=False, help_text="1 to 500 characters, kept as written."
    )
    channel = serializers.ChoiceField(
        choices=Message.Channel.choices,
        required=False,
        help_text="Default: yours (`seats` if you play in the game, else `spectators`).",
    )


class ReportInput(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(
        required=False, allow_blank=True, help_text="Why (up to 500 characters)."
    )


class ReportOutput(serializers.Serializer[dict[str, Any]]):
    report = serializers.IntegerField()
    status = serializers.CharField(help_text="`open` until staff answer it.")


class MuteOutput(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    muted = serializers.BooleanField()


AFTER = OpenApiParameter(
    "after",
    int,
    required=False,
    description="Only the messages numbered after this one (0, the default: from the start).",
)


def _after(request: Request) -> int:
    raw = request.query_params.get("after", "0")
    if not re.fullmatch(r"[0-9]{1,18}", raw):
        raise ChatInvalid("after is a message number, 0 or more", code="bad-after")
    return int(raw)


class GameChat(APIView):
    authentication_classes = PEOPLE

    def get_permissions(self) -> list[Any]:
        # Anyone who may view the game reads its chat; only signed-in people write.
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        parameters=[AFTER], responses={200: ChatOutput, **error_responses(400, 403, 404)}
    )
    def get(self, request: Request, game_id: int) -> Response:
        """The game's messages you may read, after `after`, oldest first (at most 200): the
        seats' channel for everyone, the spectators' for the people watching, and for the
        seated too once the match is over. People you mute are left out. 400 `bad-after`."""
        after = _after(request)
        where, found = table.read(game_id=game_id, viewer=request.user, after=after)
        body = {
            "game": game_id,
            "last": found[-1]["seq"] if found else after,
            "channels": where.channels,
            "writes": where.writes if request.user.is_authenticated else None,
            "messages": found,
        }
        return Response(ChatOutput(body).data)

    @extend_schema(
        request=ChatInput,
        responses={
            201: MessageOutput,
            **error_responses(400, 404),
            403: RESTRICTED,
            429: RATE_LIMITED,
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Say something in the game: 400 `empty-message`, `message-too-long`; 403
        `not-seated`, `seated`, `chat-restricted` (with `until`); 429 `chat-rate-limited`."""
        data = ChatInput(data=request.data)
        data.is_valid(raise_exception=True)
        message = table.post(
            game_id=game_id,
            author=person(request),
            text=data.validated_data["text"],
            channel=data.validated_data.get("channel"),
        )
        shown = table.as_json(message, request.user)
        return Response(MessageOutput(shown).data, status=status.HTTP_201_CREATED)


class ReportMessage(APIView):
    authentication_classes = PEOPLE

    @extend_schema(
        request=ReportInput,
        responses={
            201: ReportOutput,
            **error_responses(400, 403, 404),
            409: OpenApiResponse(ErrorOutput, description="`already-reported`, `already-hidden`."),
        },
    )
    def post(self, request: Request, message_id: int) -> Response:
        """Report a message you can read to the moderators (403 `own-message`)."""
        data = ReportInput(data=request.data)
        data.is_valid(raise_exception=True)
        found = moderation.report(
            reporter=person(request),
            message_id=message_id,
            reason=data.validated_data.get("reason", ""),
        )
        return Response(
            {"report": found.pk, "status": found.status}, status=status.HTTP_201_CREATED
        )


class MutePerson(APIView):
    authentication_classes = PEOPLE

    @extend_schema(request=None, responses={200: MuteOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, username: str) -> Response:
        """Mute a person: their messages are left out of what you read, at every table and on
        every board (400 `cannot-mute-self`)."""
        muted = moderation.mute(muter=person(request), username=username)
        return Response({"username": muted.username, "muted": True})

    @extend_schema(request=None, responses={200: MuteOutput, **error_responses(403, 404)})
    def delete(self, request: Request, username: str) -> Response:
        """Read the person again."""
        muted = moderation.unmute(muter=person(request), username=username)
        return Response({"username": muted.username, "muted": False})
