"""Open tables and challenges through the API: GET /api/tables lists the open tables (and your
challenges), POST opens one, GET /api/tables/<id> reads one, and …/join, …/leave, …/cancel,
…/decline change it. tables/services.py does the work; docs/api.md, "Open tables"."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, authentication_classes, throttle_classes
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from api.auth import PEOPLE, person
from api.errors import ErrorOutput, error_responses
from engine.rules import RULESETS
from frontdoor.throttles import TableThrottle
from tables import listings, services
from tables.models import Table


class TableOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=Table.Status.choices,
        help_text="open: waiting for people; started: full, `game` is its game; cancelled by "
        "its opener; expired: nobody came in time; declined: the challenged (or an invited) "
        "person said no.",
    )
    opener = serializers.CharField(help_text="The username of the person who opened it.")
    family = serializers.CharField(help_text="The rule family (`variant.rules`).")
    variant = serializers.DictField(help_text="The normalised variant spec.")
    seats = serializers.IntegerField(help_text="How many seats the game has.")
    seated = serializers.ListField(
        child=serializers.CharField(), help_text="The people sitting, in the order they sat."
    )
    turn_seconds = serializers.IntegerField()
    rated = serializers.BooleanField()
    fill_with_bots_after = serializers.IntegerField(
        allow_null=True, help_text="Minutes after opening when bots take the empty seats."
    )
    challenged = serializers.CharField(
        allow_null=True, help_text="A challenge: the one person who may accept it."
    )
    game = serializers.IntegerField(allow_null=True, help_text="The game, once started.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    invited = serializers.ListField(
        child=serializers.CharField(),
        help_text="An invitation (POST /api/games naming other people): the people asked, "
        "each of whom accepts (join) or declines; empty for a table or a challenge.",
    )
    plan = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="An invitation's seats in order (usernames, bot names); null otherwise.",
    )


class OpenInput(serializers.Serializer[dict[str, Any]]):
    variant = serializers.DictField(
        help_text='The variant spec, e.g. `{"rules": "official", "options": {"target": 500}}`.'
    )
    seats = serializers.IntegerField(help_text="2 to 10, as the family allows.")
    turn_seconds = serializers.IntegerField(
        required=False,
        default=services.DEFAULT_TURN,
        help_text=f"One of {', '.join(map(str, services.TURN_CHOICES))}.",
    )
    rated = serializers.BooleanField(required=False, default=False)
    fill_with_bots_after = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Minutes after which built-in bots take the empty seats and the game starts.",
    )
    challenge = serializers.CharField(
        required=False,
        allow_null=True,
        default=None,
        max_length=150,
        help_text="A username: a private table for you and that person, who accepts (join) "
        "or declines.",
    )


class ListQuery(serializers.Serializer[dict[str, Any]]):
    family = serializers.ChoiceField(choices=list(RULESETS), required=False)
    turn_seconds = serializers.ChoiceField(choices=list(services.TURN_CHOICES), required=False)


REFUSED = OpenApiResponse(
    ErrorOutput,
    description="`table-full`, `own-table`, `already-seated`, `not-seated`, `table-not-open`, "
    "`too-many-tables`.",
)
NOT_YOURS = OpenApiResponse(
    ErrorOutput,
    description="`not-challenged` (someone else's challenge), `not-opener` (cancelling "
    "someone else's table), or not signed in.",
)


def _throttled(request: Request) -> list[BaseThrottle]:
    return [] if request.method == "GET" else [TableThrottle()]


class Tables(APIView):
    authentication_classes = PEOPLE

    def get_throttles(self) -> list[BaseThrottle]:
        return _throttled(self.request)

    @extend_schema(
        parameters=[ListQuery],
        responses={200: TableOutput(many=True), **error_responses(400, 403)},
    )
    def get(self, request: Request) -> Response:
        """The open tables anyone may join, oldest first, then your open challenges (sent and
        received): `?family=official`, `?turn_seconds=300`."""
        query = ListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        found = listings.visible_tables(
            person(request),
            family=query.validated_data.get("family"),
            turn_seconds=query.validated_data.get("turn_seconds"),
        )
        return Response(TableOutput([table.as_json() for table in found], many=True).data)

    @extend_schema(
        request=OpenInput,
        responses={201: TableOutput, **error_responses(400, 403, 429), 409: REFUSED},
    )
    def post(self, request: Request) -> Response:
        """Open a table, you in its first seat (or, with `challenge`, challenge one person).
        400 `invalid-variant`, `invalid-seats`, `invalid-turn-seconds`, `invalid-fill`,
        `unknown-user`, `challenge-self`, `birth-date-missing`; 409 `too-many-tables`."""
        data = OpenInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        table = services.open_table(
            opener=person(request),
            variant_spec=given["variant"],
            seats=given["seats"],
            turn_seconds=given["turn_seconds"],
            rated=given["rated"],
            fill_with_bots_after=given["fill_with_bots_after"],
            challenge=given["challenge"],
        )
        body = listings.table_info(table_id=table.pk, viewer=request.user).as_json()
        return Response(TableOutput(body).data, status=status.HTTP_201_CREATED)


@extend_schema(responses={200: TableOutput, **error_responses(404), 403: NOT_YOURS})
@api_view(["GET"])
@authentication_classes(PEOPLE)
def table(request: Request, table_id: int) -> Response:
    """One table: `open`, `started` (with `game`), `cancelled`, `expired` or `declined`."""
    return Response(
        TableOutput(listings.table_info(table_id=table_id, viewer=request.user).as_json()).data
    )


def _change(request: Request, table_id: int, action: Any) -> Response:
    action(table_id=table_id, person=person(request))
    body = listings.table_info(table_id=table_id, viewer=request.user).as_json()
    return Response(TableOutput(body).data)


CHANGE_RESPONSES: dict[int, Any] = {
    200: TableOutput,
    **error_responses(400, 404, 429),
    403: NOT_YOURS,
    409: REFUSED,
}


@extend_schema(request=None, responses=CHANGE_RESPONSES)
@api_view(["POST"])
@authentication_classes(PEOPLE)
@throttle_classes([TableThrottle])
def join(request: Request, table_id: int) -> Response:
    """Take a seat at an open table, or accept a challenge addressed to you. The last seat
    starts the game (`status` started, `game`). 409 `table-full` (someone took the last seat
    first), `own-table`, `already-seated`, `table-not-open`; 403 `not-challenged`; 400
    `birth-date-missing` (newno)."""
    return _change(request, table_id, services.join)


@extend_schema(request=None, responses=CHANGE_RESPONSES)
@api_view(["POST"])
@authentication_classes(PEOPLE)
@throttle_classes([TableThrottle])
def leave(request: Request, table_id: int) -> Response:
    """Stand up from an open table; its opener leaving cancels it. 409 `not-seated`,
    `table-not-open`."""
    return _change(request, table_id, services.leave)


@extend_schema(request=None, responses=CHANGE_RESPONSES)
@api_view(["POST"])
@authentication_classes(PEOPLE)
@throttle_classes([TableThrottle])
def cancel(request: Request, table_id: int) -> Response:
    """Cancel your open table or challenge. 403 `not-opener`; 409 `table-not-open`."""
    return _change(request, table_id, services.cancel)


@extend_schema(request=None, responses=CHANGE_RESPONSES)
@api_view(["POST"])
@authentication_classes(PEOPLE)
@throttle_classes([TableThrottle])
def decline(request: Request, table_id: int) -> Response:
    """Decline a challenge addressed to you; its opener is told. 403 `not-challenged`; 409
    `table-not-open`."""
    return _change(request, table_id, services.decline)
