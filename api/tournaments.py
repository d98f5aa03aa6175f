"""Tournaments over the API: the list (`?status=`), creating one, a tournament with its rounds
and tables, entering and withdrawing (a bot of one's own, or oneself), and the standings. Reads
are public; the rest (an arena's pause and resume among them) take a session or a personal
token (scope `play`, `bots` for a bot).
tournaments/services.py does the work, tournaments/standings.py the standings. docs/api.md,
"Tournaments"; docs/tournaments.md, the formats.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.auth import PEOPLE, person, require_scope
from api.errors import error_responses
from api.ladders import bot_id_field, named_bot
from api.leagues import FAMILY_HELP, KIND, FamilyField, public
from games.models import Bot
from league.clubs import club_get
from tournaments import services
from tournaments.models import Entry, Round, Tournament, TournamentGame
from tournaments.scheduling import MAX_TABLE_SIZE, MIN_TABLE_SIZE
from tournaments.standings import standings

STATUSES = Tournament.Status.choices


class TournamentOutput(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    status = serializers.ChoiceField(choices=STATUSES)
    family = FamilyField(source="variant", help_text=FAMILY_HELP)
    variant = serializers.DictField(
        help_text="The normalised variant spec (the target among its options)."
    )
    table_size = serializers.IntegerField()
    rounds = serializers.IntegerField(help_text="A knockout's: what its bracket plays.")
    advance = serializers.IntegerField(help_text="A knockout: how many of a table go through.")
    seed_by = serializers.ChoiceField(
        choices=Tournament.SeedBy.choices,
        help_text="A knockout: `rating` (each entrant's rating in the family's pool, a bot's "
        "ladder rating; equal ratings drawn) or `draw` (the whole order drawn).",
    )
    turn_seconds = serializers.IntegerField(help_text="Seconds a person has for a turn.")
    round_seconds = serializers.IntegerField(help_text="A round's deadline, from its start.")
    entry_opens = serializers.DateTimeField()
    entry_closes = serializers.DateTimeField(
        help_text="It starts then (or when its organiser starts it)."
    )
    max_entrants = serializers.IntegerField()
    entrants = serializers.SerializerMethodField()
    rated = serializers.BooleanField()
    bots_allowed = serializers.BooleanField(
        help_text="False: people only; no person sits with a bot."
    )
    organiser = serializers.CharField(source="organiser.username")
    club = serializers.SlugField(source="club.slug", allow_null=True, default=None)
    site_wide = serializers.BooleanField()

    def get_entrants(self, tournament: Tournament) -> int:
        """Entrants not withdrawn."""
        return Entry.objects.filter(tournament=tournament, withdrawn=False).count()


class TournamentSeatOutput(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=KIND)


class TournamentTableOutput(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    rotation = serializers.IntegerField(
        help_text="0: every table plays one game (a duplicate round drawn before that: its "
        "seat rotation, 0 to k-1)."
    )
    game = serializers.IntegerField(help_text="Its game: /api/games/<id>.")
    over = serializers.BooleanField()
    seats = TournamentSeatOutput(many=True, help_text="In seat order.")


class TournamentRoundOutput(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    tables = TournamentTableOutput(many=True)
    byes = TournamentSeatOutput(many=True, help_text="Who sits the round out.")


class TournamentDetailOutput(TournamentOutput):
    rounds_played = TournamentRoundOutput(
        many=True, help_text="Every round drawn so far, first first."
    )


class TournamentStandingOutput(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Tied entrants share a rank.")
    entry = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=KIND)
    withdrawn = serializers.BooleanField()
    points = serializers.FloatField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    byes = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    opponents = serializers.FloatField(help_text="The first tiebreak: opponents' points.")
    scored = serializers.IntegerField(help_text="Card points scored in the games.")


class TournamentCreateInput(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=100)
    slug = serializers.SlugField(max_length=64)
    variant = serializers.DictField(
        help_text='e.g. {"rules": "official", "options": {"target": 100}}.'
    )
    format = serializers.ChoiceField(choices=Tournament.Format.choices, default="swiss")
    table_size = serializers.IntegerField(
        min_value=MIN_TABLE_SIZE, max_value=MAX_TABLE_SIZE, default=4
    )
    target = serializers.IntegerField(required=False, min_value=1, help_text="The target score.")
    rounds = serializers.IntegerField(
        min_value=1, max_value=50, default=3, help_text="Swiss; a knockout plays its bracket."
    )
    advance = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="A knockout: how many of each table go through (default: half, at least 1).",
    )
    seed_by = serializers.ChoiceField(
        choices=Tournament.SeedBy.choices,
        default="rating",
        help_text="A knockout: seeded by `rating` or `draw`.",
    )
    turn_seconds = serializers.IntegerField(required=False, min_value=1)
    round_seconds = serializers.IntegerField(min_value=60, default=86400)
    entry_opens = serializers.DateTimeField(required=False)
    entry_closes = serializers.DateTimeField()
    max_entrants = serializers.IntegerField(min_value=2, max_value=1000, default=64)
    rated = serializers.BooleanField(default=False)
    bots_allowed = serializers.BooleanField(default=True)
    club = serializers.SlugField(required=False, help_text="A club you are an admin of.")
    site_wide = serializers.BooleanField(default=False, help_text="Staff only.")


class TournamentEntryInput(serializers.Serializer[dict[str, Any]]):
    """Exactly one entrant, named: never guessed."""

    bot = bot_id_field("One of your bots (token scope `bots`).")
    person = serializers.BooleanField(
        required=False, help_text="true: yourself (token scope `play`)."
    )


class TournamentEntryOutput(serializers.Serializer[Entry]):
    entry = serializers.IntegerField(source="pk")
    tournament = serializers.SlugField(source="tournament.slug")
    name = serializers.CharField()
    kind = serializers.SerializerMethodField()
    withdrawn = serializers.BooleanField()
    paused = serializers.BooleanField(help_text="An arena: not seated again until it resumes.")

    def get_kind(self, entry: Entry) -> str:
        return "bot" if entry.bot_id else "person"


class TournamentListQuery(serializers.Serializer[dict[str, Any]]):
    status = serializers.ChoiceField(choices=STATUSES, required=False)


def _seat(entry: Entry) -> dict[str, Any]:
    return {"entry": entry.pk, "name": entry.name, "kind": "bot" if entry.bot_id else "person"}


def _detail(tournament: Tournament) -> dict[str, Any]:
    entries = {
        e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("user", "bot")
    }
    tables: dict[int, list[dict[str, Any]]] = {}
    for table in TournamentGame.objects.filter(round__tournament=tournament).select_related("game"):
        tables.setdefault(table.round_id, []).append(
            {
                "table": table.table,
                "rotation": table.rotation,
                "game": table.game_id,
                "over": table.game.status == "match-over",
                "seats": [_seat(entries[e]) for e in table.entries],
            }
        )
    data = dict(TournamentOutput(tournament).data)
    data["rounds_played"] = TournamentRoundOutput(
        [
            {
                "number": r.number,
                "started_at": r.started_at,
                "deadline": r.deadline,
                "finished_at": r.finished_at,
                "tables": sorted(tables.get(r.pk, []), key=lambda t: (t["table"], t["rotation"])),
                "byes": [_seat(entries[e]) for e in r.byes],
            }
            for r in Round.objects.filter(tournament=tournament).order_by("number")
        ],
        many=True,
    ).data
    return data


class Tournaments(APIView):
    authentication_classes = PEOPLE

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        parameters=[TournamentListQuery],
        responses={200: TournamentOutput(many=True), **error_responses(400, 403)},
    )
    def get(self, request: Request) -> Response:
        """Every tournament, entry closing soonest first: `?status=open|running|finished`."""
        query = TournamentListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        found = services.listing(query.validated_data.get("status"))
        return Response(TournamentOutput(found, many=True).data)

    @extend_schema(
        request=TournamentCreateInput,
        responses={201: TournamentDetailOutput, **error_responses(400, 403, 404)},
    )
    def post(self, request: Request) -> Response:
        """Run a tournament: a club's (its admins), an open one (anyone), a site-wide one
        (staff). 400 `invalid-tournament`, `invalid-variant`,
        `slug-taken`; 403 `not-club-admin`, `not-staff`, `token-scope`; 404 `not-found` (no
        such club)."""
        require_scope(request, "play")
        data = TournamentCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = dict(data.validated_data)
        club = club_get(given.pop("club")) if given.get("club") else None
        tournament = services.tournament_create(organiser=person(request), club=club, **given)
        return Response(_detail(tournament), status=status.HTTP_201_CREATED)


@extend_schema(responses={200: TournamentDetailOutput, **error_responses(403, 404)})
@public
def tournament(request: Request, slug: str) -> Response:
    """A tournament with every round drawn so far: its tables (their games, the seats with
    each entrant's person or bot kind) and its byes."""
    return Response(_detail(services.tournament_get(slug)))


@extend_schema(responses={200: TournamentStandingOutput(many=True), **error_responses(403, 404)})
@public
def tournament_standings(request: Request, slug: str) -> Response:
    """The standings, best first: points (placement points per table, a bye the mean of a
    table's), then the published tiebreaks (docs/tournaments.md)."""
    found = services.tournament_get(slug)
    lines = [
        {**line.as_dict(), "kind": "bot" if line.is_bot else "person"} for line in standings(found)
    ]
    return Response(TournamentStandingOutput(lines, many=True).data)


class TournamentEntry(APIView):
    authentication_classes = PEOPLE

    def _entrant(self, request: Request) -> tuple[Any, Bot | None]:
        data = TournamentEntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        bot = named_bot(request, data.validated_data)
        return (None if bot is not None else person(request)), bot

    @extend_schema(
        request=TournamentEntryInput,
        responses={201: TournamentEntryOutput, **error_responses(400, 403, 404)},
    )
    def post(self, request: Request, slug: str) -> Response:
        """Enter yourself (`{"person": true}`) or one of your bots (`{"bot": <id>}`) while
        entry is open. 400 `tournament-closed`, `tournament-full`, `bots-not-allowed`,
        `already-entered`, `tournament-finished`, `not-a-member`, `bot-failed`,
        `birth-date-missing`, `entrant-missing`, `entrant-ambiguous`; 403 `not-owner`,
        `token-scope`; 404 `not-found`."""
        found = services.tournament_get(slug)
        user, bot = self._entrant(request)
        entry = services.tournament_enter(found, actor=person(request), user=user, bot=bot)
        return Response(TournamentEntryOutput(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=TournamentEntryInput,
        responses={200: TournamentEntryOutput, **error_responses(400, 403, 404)},
    )
    def delete(self, request: Request, slug: str) -> Response:
        """Withdraw yourself or your bot. Once it runs, your seats in its unfinished games are
        forfeited (placed last) and you are drawn no more. 400 `not-entered`,
        `tournament-finished`; 403 `not-owner`, `token-scope`; 404 `not-found`."""
        found = services.tournament_get(slug)
        user, bot = self._entrant(request)
        entry = services.tournament_withdraw(found, actor=person(request), user=user, bot=bot)
        return Response(TournamentEntryOutput(entry).data)


class TournamentPause(TournamentEntry):
    """An arena entrant's pause: POST pauses, DELETE resumes."""

    @extend_schema(
        request=TournamentEntryInput,
        responses={200: TournamentEntryOutput, **error_responses(400, 403, 404)},
    )
    def post(self, request: Request, slug: str) -> Response:
        """Pause yourself or your bot in an arena (before it starts or while it runs): not
        seated again until you resume; your points stay and a game you are in plays on. 400
        `not-an-arena`, `already-paused`, `not-entered`, `tournament-finished`,
        `entrant-missing`, `entrant-ambiguous`; 403 `not-owner`, `token-scope`; 404
        `not-found`."""
        found = services.tournament_get(slug)
        user, bot = self._entrant(request)
        entry = services.tournament_pause(found, actor=person(request), user=user, bot=bot)
        return Response(TournamentEntryOutput(entry).data)

    @extend_schema(
        request=TournamentEntryInput,
        responses={200: TournamentEntryOutput, **error_responses(400, 403, 404)},
    )
    def delete(self, request: Request, slug: str) -> Response:
        """Resume: you wait again from now and, while the arena seats, sit down as soon as a
        table fills. 400 `not-an-arena`, `not-paused`, `not-entered`, `tournament-finished`,
        `entrant-missing`, `entrant-ambiguous`; 403 `not-owner`, `token-scope`; 404
        `not-found`."""
        found = services.tournament_get(slug)
        user, bot = self._entrant(request)
        entry = services.tournament_resume(found, actor=person(request), user=user, bot=bot)
        return Response(TournamentEntryOutput(entry).data)
