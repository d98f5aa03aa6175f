"""Rematch through the API: GET /api/games/<id>/rematch reads the offer, POST offers the same
table again or answers an open offer (games/rematch.py does the work; docs/api.md)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.auth import PEOPLE, person, require_scope
from api.errors import ErrorOutput, error_responses
from games import rematch


class RematchInput(serializers.Serializer[dict[str, Any]]):
    answer = serializers.ChoiceField(
        choices=["accept", "decline"],
        required=False,
        help_text="Leave out to offer a rematch; `accept` or `decline` answers the open offer.",
    )


class RematchOutput(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField(help_text="The finished game.")
    status = serializers.ChoiceField(
        choices=["none", "open", "started", "declined"],
        help_text="none: nobody offered one yet; open: waiting for answers; started: every "
        "person accepted, `new_game` is the rematch; declined: someone declined (final).",
    )
    offered_by = serializers.CharField(allow_null=True)
    answers = serializers.DictField(
        child=serializers.ChoiceField(choices=["accepted", "declined", "waiting"]),
        help_text="Each person of the table by username (bots accept at once, unlisted).",
    )
    new_game = serializers.IntegerField(allow_null=True)
    possible = serializers.BooleanField(
        help_text="Whether this game can have a rematch: over, and made by hand (not a league "
        "fixture, a ladder game or a validation game)."
    )


# A rematch's refusals are 409s without a game version (not a version conflict).
REFUSED = OpenApiResponse(
    ErrorOutput,
    description="`not-over`, `not-rematchable`, `aborted`, `already-offered`, `no-offer`, "
    "`offer-closed`, `already-answered`.",
)


class Rematch(APIView):
    authentication_classes = PEOPLE

    @extend_schema(responses={200: RematchOutput, **error_responses(403, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        """The game's rematch offer and who has answered it."""
        return Response(rematch.state(game_id).as_json())

    @extend_schema(
        request=RematchInput,
        responses={200: RematchOutput, **error_responses(400, 403, 404), 409: REFUSED},
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Offer a rematch of a finished game you played (no `answer`), or accept or decline
        the open offer. Refusals are 409 with a code: `not-over`, `not-rematchable`, `aborted`,
        `already-offered`, `no-offer`, `offer-closed`, `already-answered`; 403 `not-a-player`
        when you hold no seat in it."""
        require_scope(request, "play")
        data = RematchInput(data=request.data)
        data.is_valid(raise_exception=True)
        answer = data.validated_data.get("answer")
        if answer is None:
            offer = rematch.offer(game_id=game_id, person=person(request))
        else:
            offer = rematch.answer(
                game_id=game_id, person=person(request), accept=answer == "accept"
            )
        return Response(offer.as_json())
