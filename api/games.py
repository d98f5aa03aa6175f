"""The people's game API: start a game, list mine, read one, follow its events, send commands,
read the whole log once it is over. Session or personal token (api/auth.py); games/lobby.py,
games/commands.py and games/visibility.py do the work, and every view of a game is redacted for
its viewer there.
Spectators (anyone, signed in or not, holding no seat) may read a game: its view hides every
hand. docs/api.md describes the protocol.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    permission_classes,
    throttle_classes,
)
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.auth import PEOPLE, person, require_scope
from api.bots import (
    COMMAND_ID_LENGTH,
    BotTokenAuthentication,
    CommandOutput,
    GameCommandInput,
    command_input,
)
from api.errors import error_responses
from api.pages import next_link
from api.shapes import CommandShape, VersionedEvent, ViewShape
from api.tables import TableOutput
from clocks import presence
from frontdoor.converters import LARGEST_ID
from frontdoor.throttles import PersonCommandThrottle
from games import lobby, tasks
from games.commands import game_command
from games.models import Bot, Game
from games.repository import repository
from games.visibility import game_events, game_replay
from tables.invitations import start_or_invite
from tables.listings import table_info
from tables.models import Table

# Events per page of GET /api/games/{id}/events.
EVENTS_PAGE = 500
IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_META = "HTTP_IDEMPOTENCY_KEY"


class SeatInput(serializers.Serializer[dict[str, Any]]):
    """One of `user` (a username, or "me"), `bot` (a built-in strategy) or `bot_id`."""

    user = serializers.CharField(required=False)
    bot = serializers.CharField(required=False)
    bot_id = serializers.IntegerField(required=False)


class CreateInput(serializers.Serializer[dict[str, Any]]):
    variant = serializers.DictField(
        help_text='The variant spec, e.g. `{"rules": "official", "options": {"target": 500}}` '
        "(docs/rules.md lists every family and option)."
    )
    seats = serializers.ListField(child=SeatInput(), min_length=2, max_length=10)
    seed = serializers.IntegerField(
        required=False,
        help_text="Makes the deals reproducible: a practice deal, allowed only when every other "
        "seat is a built-in bot or one of your own bots (else 400 `seed-not-allowed`). The game "
        "then says who chose its seed and counts for no record.",
    )
    turn_seconds = serializers.IntegerField(
        required=False, help_text="Seconds a person has for a turn (60 to 28 days)."
    )


class SeatOutput(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["person", "bot"])


class ResultShape(serializers.Serializer[Any]):
    winner = serializers.IntegerField(allow_null=True, help_text="null when first is shared.")
    places = serializers.ListField(child=serializers.IntegerField(), help_text="By seat.")
    forfeited = serializers.ListField(child=serializers.IntegerField())


class GameOutput(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    version = serializers.IntegerField(help_text="Send it as the next command's expected_version.")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    variant = serializers.DictField(help_text="The normalised variant spec.")
    seats = SeatOutput(many=True)
    seed_chosen_by = serializers.CharField(
        allow_null=True,
        help_text="A practice deal: the username of the person who chose the seed (they can "
        "know every hand; the game counts for no record). null when the server drew the deal.",
    )
    watched_by = serializers.CharField(
        allow_null=True,
        help_text="A practice match: the username of the bot owner who started this game of bots "
        "alone to watch it from no seat (nobody's rating moves; it counts for no record). null "
        "otherwise.",
    )
    my_seats = serializers.ListField(child=serializers.IntegerField())
    view = ViewShape(help_text="The game from your first seat (a spectator's view if none).")
    legal = serializers.ListField(
        child=CommandShape(),
        help_text="Every command your seat may send now, in turn and out of turn.",
    )
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the turn the game waits for runs out."
    )
    result = ResultShape(
        allow_null=True,
        help_text="Once the match is over, its result as the service records it: the forfeited "
        "seats share the last place (the view's places are the rules' alone). null while it "
        "plays, or when the staff aborted it.",
    )


# GameOutput's own field for `deadline`, made once: its format is the serializer's.
_DEADLINE = GameOutput().fields["deadline"]


def game_output(detail: dict[str, Any]) -> dict[str, Any]:
    """GameOutput(detail).data, built directly: a serializer copies its fields (and theirs)
    every time it is made, which cost more than the whole body. GameOutput still describes it
    in the schema; tests/api/test_game_output.py holds the two equal."""
    deadline = detail["deadline"]
    return {
        "game": int(detail["game"]),
        "version": int(detail["version"]),
        "status": detail["status"],
        "variant": detail["variant"],
        "seats": [
            {"seat": int(seat.seat), "name": str(seat.name), "kind": seat.kind}
            for seat in detail["seats"]
        ],
        "seed_chosen_by": detail["seed_chosen_by"],
        "watched_by": detail["watched_by"],
        "my_seats": [int(seat) for seat in detail["my_seats"]],
        "view": detail["view"],
        "legal": list(detail["legal"]),
        "deadline": None if deadline is None else _DEADLINE.to_representation(deadline),
        "result": detail["result"],
    }


class GameRowOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="game.pk")
    variant = serializers.DictField(source="game.variant")
    status = serializers.ChoiceField(source="game.status", choices=Game.Status.choices)
    version = serializers.IntegerField(source="game.version")
    my_seats = serializers.ListField(child=serializers.IntegerField())
    my_turn = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    seats = SeatOutput(many=True)


class ListQuery(serializers.Serializer[dict[str, Any]]):
    status = serializers.ChoiceField(choices=["playing", "finished"], required=False)
    my_turn = serializers.BooleanField(required=False, default=False)
    before = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="With status=finished: the page after this game (the `before` of the "
        '`Link: <...>; rel="next"` header of the page before).',
    )
    limit = serializers.IntegerField(
        min_value=1,
        max_value=lobby.FINISHED_PAGE,
        required=False,
        default=lobby.FINISHED_PAGE,
        help_text="With status=finished: games in a page.",
    )


class EventsQuery(serializers.Serializer[dict[str, Any]]):
    after = serializers.IntegerField(min_value=0, max_value=LARGEST_ID, required=False, default=0)


class EventsOutput(serializers.Serializer[dict[str, Any]]):
    version = serializers.IntegerField(
        help_text="The version of the last event in this page (`after` if none): ask for the "
        "next page with after=version."
    )
    events = VersionedEvent(many=True)
    more = serializers.BooleanField(help_text="Whether events follow this page.")


class ReplayOutput(serializers.Serializer[dict[str, Any]]):
    game = serializers.IntegerField()
    variant = serializers.DictField()
    seats = SeatOutput(many=True)
    events = VersionedEvent(many=True, help_text="The whole log: every card, every deck order.")


class Games(APIView):
    authentication_classes = PEOPLE

    @extend_schema(
        parameters=[ListQuery],
        # 404 `game-not-found`: a `before` that names no game.
        responses={200: GameRowOutput(many=True), **error_responses(400, 403, 404)},
    )
    def get(self, request: Request) -> Response:
        """My games, newest activity first: `?status=playing|finished`, `?my_turn=1`. Finished
        games come a page at a time (`limit`, at most 50): when more follow, the `Link`
        header's `rel="next"` is the next page's URL (`before=<the last game's id>`)."""
        query = ListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        found = query.validated_data
        if found.get("status") != "finished":
            rows = lobby.games_of(
                person=person(request), status=found.get("status"), my_turn=found["my_turn"]
            )
            return Response(GameRowOutput(rows, many=True).data)
        page = lobby.finished_page(
            person=person(request), before=found.get("before"), limit=found["limit"]
        )
        rows = [row for row in page.rows if row.my_turn] if found["my_turn"] else page.rows
        return next_link(request, Response(GameRowOutput(rows, many=True).data), page.before)

    @extend_schema(
        request=CreateInput,
        responses={201: GameOutput, 202: TableOutput, **error_responses(400, 403, 409)},
    )
    def post(self, request: Request) -> Response:
        """Start a game with people and bots; you must hold a seat, unless every seat is a bot
        and one at least is your own registered bot (a practice match you watch: nobody else's
        registered bot, 403 `not-your-bot`; at most GAMES_MAX_PRACTICE_MATCHES running, 409
        `too-many-practice-matches`). Each seat is `{"user": "me"}`, `{"user": "<username>"}`,
        `{"bot": "<strategy>"}` or `{"bot_id": N}` (an active registered bot). A game that
        names another person does not start: 202 with an invitation (a table, as GET
        /api/tables/<id> reads it) each person named accepts (POST /api/tables/<id>/join) or
        declines; its `game` is the game once everyone accepted."""
        require_scope(request, "play")
        data = CreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        made = start_or_invite(
            creator=person(request),
            variant_spec=data.validated_data["variant"],
            seats=data.validated_data["seats"],
            seed=data.validated_data.get("seed"),
            turn_seconds=data.validated_data.get("turn_seconds"),
        )
        if isinstance(made, Table):
            found = table_info(table_id=made.pk, viewer=request.user)
            return Response(TableOutput(found.as_json()).data, status=status.HTTP_202_ACCEPTED)
        detail = lobby.game_detail(game_id=made.pk, viewer=request.user)
        return Response(game_output(detail), status=status.HTTP_201_CREATED)


@extend_schema(responses={200: GameOutput, **error_responses(403, 404)})
@api_view(["GET"])
@authentication_classes(PEOPLE)
@permission_classes([AllowAny])
def game(request: Request, game_id: int) -> Response:
    """The game as you may see it, with your legal commands now (none for a spectator)."""
    # One read of the game, for its grace and its detail; read again only when a grace ended.
    loaded = repository.get(game_id, names=True)
    if tasks.end_grace_if_over(loaded.game):
        loaded = repository.get(game_id, names=True)
    detail = lobby.game_detail(game_id=game_id, viewer=request.user, loaded=loaded)
    return Response(game_output(detail))


@extend_schema(
    parameters=[EventsQuery], responses={200: EventsOutput, **error_responses(400, 403, 404)}
)
@api_view(["GET"])
@authentication_classes([*PEOPLE, BotTokenAuthentication])
@permission_classes([AllowAny])
def events(request: Request, game_id: int) -> Response:
    """The events after version `after` as you may see them, at most 500 a page: a pull bot
    (`Authorization: Bot <token>`) sees them from its seat, its own `fallback-played` reasons
    included."""
    query = EventsQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    after = query.validated_data["after"]
    viewer = request.auth if isinstance(request.auth, Bot) else request.user
    # One more than a page, to tell whether another page follows.
    found = game_events(game_id=game_id, viewer=viewer, after=after, limit=EVENTS_PAGE + 1)
    page = found[:EVENTS_PAGE]
    body: dict[str, Any] = {
        "version": page[-1]["version"] if page else after,
        "events": page,
        "more": len(found) > EVENTS_PAGE,
    }
    return Response(body)


@extend_schema(
    request=GameCommandInput,
    parameters=[
        OpenApiParameter(
            IDEMPOTENCY_HEADER,
            location=OpenApiParameter.HEADER,
            required=False,
            description="The command id, if the body has none: a repeat returns the first answer.",
        )
    ],
    responses={200: CommandOutput, **error_responses(400, 403, 404, 409, 422, 429)},
)
@api_view(["POST"])
@authentication_classes(PEOPLE)
@throttle_classes([PersonCommandThrottle])
def command(request: Request, game_id: int) -> Response:
    """Send one command for one of your seats at the version you decided on; a refused one is a
    typed error and changes nothing. The same body and answer as the pull bots' endpoint."""
    require_scope(request, "play")
    data = command_input(request.data)
    # The header from META, as `request.headers` would give it, without building the mapping.
    command_id = data.get("command_id") or request.META.get(IDEMPOTENCY_META)
    if command_id is not None and len(command_id) > COMMAND_ID_LENGTH:
        raise serializers.ValidationError(
            {IDEMPOTENCY_HEADER: [f"At most {COMMAND_ID_LENGTH} characters."]}
        )
    # The person is at the game: no turn email while they play (clocks/presence.py).
    presence.seen_now_and_then(
        f"user:{request.user.pk}",
        game_id,
        lambda: request.user.pk if request.user.is_authenticated else None,
    )
    result = game_command(
        game_id=game_id,
        actor=person(request),
        command=data["command"],
        expected_version=data["expected_version"],
        command_id=command_id,
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


@extend_schema(responses={200: ReplayOutput, **error_responses(403, 404)})
@api_view(["GET"])
@authentication_classes(PEOPLE)
@permission_classes([AllowAny])
def replay(request: Request, game_id: int) -> Response:
    """The whole log, every card, once the match is over and the game's reveal setting allows;
    403 `not-revealed` before."""
    log = game_replay(game_id=game_id)
    game = Game.objects.prefetch_related("seats__user", "seats__registered_bot").get(pk=game_id)
    body = {"game": game.pk, "variant": game.variant, "seats": lobby.seat_listing(game)}
    return Response(ReplayOutput({**body, "events": log}).data)
