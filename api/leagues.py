"""The league's public reads: clubs, a season with its divisions, its standings and fixtures, a
player's record. Anyone may read them, signed in or not, as anyone may read a club's league
table; league/selectors.py and league/standings.py do the reading. No invitation code, no
pending member and no card is ever shown. One write: a club's member removed by an admin, or
leaving (league/clubs.py). docs/api.md, "Leagues".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api.auth import PEOPLE, person, require_scope
from api.errors import error_responses
from api.pages import next_link
from league import clubs as club_services
from league import selectors, standings
from league.clubs import club_get
from league.errors import PlayerNotFound
from league.models import Membership, Season
from league.selectors import FixtureRow
from ratings import reads

KIND = ["person", "bot"]
ZONE_HELP = (
    '"up" (promoted), "down" (relegated) or "" (stays): as things stand in a running season, '
    'and "" for everyone in a division until its first result is in.'
)
FAMILY_HELP = "The rules family: official, basic-plus, newno, censorship or precognitive."


class EntrantOutput(serializers.Serializer[Any]):
    name = serializers.CharField(help_text="The person's username or the bot's name.")
    kind = serializers.ChoiceField(choices=KIND)
    user_id = serializers.IntegerField(allow_null=True, help_text="A person's; null for a bot.")
    username = serializers.SerializerMethodField(help_text="A person's; null for a bot.")

    def get_username(self, entrant: Any) -> str | None:
        return str(entrant.name) if entrant.kind == "person" else None


class EntryOutput(EntrantOutput):
    entry = serializers.IntegerField(help_text="The entry's id: the same in every table of it.")


class ClubBrief(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()


class ClubRowOutput(ClubBrief):
    description = serializers.CharField()
    members = serializers.IntegerField(source="member_count", help_text="Active members.")
    seasons = serializers.IntegerField(source="season_count")


@extend_schema_field(OpenApiTypes.STR)
class FamilyField(serializers.ReadOnlyField):
    """A variant spec's rules family: official, basic-plus, newno, censorship or precognitive."""

    def to_representation(self, value: Any) -> str:
        return standings.family_of(value)


class SeasonBrief(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    family = FamilyField(source="competition.variant", help_text=FAMILY_HELP)
    status = serializers.ChoiceField(choices=Season.Status.choices)
    start_date = serializers.DateField()


class MemberOutput(serializers.Serializer[Any]):
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class AllTimeOutput(serializers.Serializer[Any]):
    entrant = EntrantOutput(source="*")
    seasons = serializers.IntegerField(help_text="Seasons entered.")
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    league_points = serializers.IntegerField()
    titles = serializers.IntegerField(help_text="First in the top division of a closed season.")
    rank = serializers.IntegerField(
        help_text="The place: most league points, then most wins; entrants level on both share it."
    )
    shared = serializers.BooleanField(help_text="True when another entrant shares the place.")


class ClubOutput(serializers.Serializer[selectors.ClubPage]):
    slug = serializers.SlugField(source="club.slug")
    name = serializers.CharField(source="club.name")
    description = serializers.CharField(source="club.description")
    members = MemberOutput(many=True, help_text="Active members, oldest first.")
    seasons = SeasonBrief(
        many=True, help_text="Newest first, a page of them (`limit`; `Link` for the next)."
    )
    all_time = AllTimeOutput(
        many=True, help_text="Every season's every division, by league points, then wins."
    )


class DivisionOutput(serializers.Serializer[Any]):
    tier = serializers.IntegerField(source="division.tier", help_text="1 is the top.")
    name = serializers.CharField(source="division.name")
    promote = serializers.IntegerField(
        source="division.promote", help_text="How many go up a tier."
    )
    relegate = serializers.IntegerField(
        source="division.relegate", help_text="How many go down a tier."
    )
    entrants = EntryOutput(many=True, help_text="In entry order.")


class SeasonOutput(serializers.Serializer[selectors.SeasonPage]):
    slug = serializers.SlugField(source="season.slug")
    name = serializers.CharField(source="season.name")
    club = ClubBrief(source="season.club")
    variant = serializers.DictField(
        source="season.competition.variant", help_text="The normalised variant spec."
    )
    family = FamilyField(source="season.competition.variant", help_text=FAMILY_HELP)
    seats_per_game = serializers.IntegerField(
        source="season.competition.seats_per_game", help_text="The table size."
    )
    placement_points = serializers.ListField(
        child=serializers.IntegerField(),
        source="season.placement_points",
        help_text="League points for 1st, 2nd, ... place at a table.",
    )
    round_days = serializers.IntegerField(source="season.round_days")
    rounds = serializers.IntegerField(
        source="season.rounds",
        allow_null=True,
        help_text="The setting; null: enough for every pair to meet.",
    )
    rounds_drawn = serializers.IntegerField(help_text="Rounds of fixtures drawn (0 in a draft).")
    start_date = serializers.DateField(source="season.start_date")
    status = serializers.ChoiceField(source="season.status", choices=Season.Status.choices)
    previous = serializers.SlugField(allow_null=True, help_text="The previous season's slug.")
    next = serializers.SlugField(allow_null=True, help_text="The next season's slug.")
    divisions = DivisionOutput(many=True, help_text="Tier 1 (the top) first.")


class StandingLineOutput(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="Whether another entrant shares the rank.")
    entrant = EntryOutput(source="*")
    played = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="First places, forfeited matches not counted.")
    placements = serializers.ListField(
        child=serializers.IntegerField(), help_text="Matches finished 1st, 2nd, ..."
    )
    league_points = serializers.IntegerField()
    hands_won = serializers.IntegerField()
    points_scored = serializers.IntegerField()
    forfeits = serializers.IntegerField()
    head_to_head = serializers.IntegerField(
        help_text="Among the entrants tied before it: finishes ahead less finishes behind."
    )
    zone = serializers.CharField(help_text=ZONE_HELP)


class DivisionTableOutput(serializers.Serializer[dict[str, Any]]):
    tier = serializers.IntegerField()
    name = serializers.CharField()
    promote = serializers.IntegerField()
    relegate = serializers.IntegerField()
    lines = StandingLineOutput(many=True)


class StandingsOutput(serializers.Serializer[dict[str, Any]]):
    season = serializers.SlugField()
    final = serializers.BooleanField(help_text="The season has closed: the archived tables.")
    divisions = DivisionTableOutput(many=True)


class ResultOutput(serializers.Serializer[Any]):
    winner = serializers.IntegerField(
        allow_null=True, help_text="The winning seat; null when first place is shared."
    )
    places = serializers.ListField(
        child=serializers.IntegerField(), help_text="Each seat's place, forfeited seats last."
    )
    forfeited = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.ListField(child=serializers.IntegerField())
    hands_won = serializers.ListField(child=serializers.IntegerField())
    hands = serializers.IntegerField()


class LinksOutput(serializers.Serializer[dict[str, Any]]):
    game = serializers.CharField(help_text="The game's page.")
    replay = serializers.CharField(
        allow_null=True, help_text="The replay's page, once the match is over."
    )


class FixtureOutput(serializers.Serializer[Any]):
    division = serializers.IntegerField(source="tier", help_text="The division's tier.")
    round = serializers.IntegerField(source="fixture.round")
    table = serializers.IntegerField(source="fixture.table")
    opens_at = serializers.DateTimeField(
        source="fixture.opens_at",
        help_text="The day drawn for its round; it opens then, or earlier once the round "
        "before it has finished.",
    )
    opened_at = serializers.DateTimeField(
        source="fixture.opened_at",
        allow_null=True,
        help_text="When it really opened (its game was made); null until then.",
    )
    deadline = serializers.DateTimeField(source="fixture.deadline")
    seats = EntryOutput(many=True, help_text="In seat order: the first is seat 0.")
    game = serializers.IntegerField(
        source="fixture.game_id", allow_null=True, help_text="Null until the round opens."
    )
    status = serializers.ChoiceField(choices=["scheduled", "playing", "finished"])
    result = ResultOutput(allow_null=True, help_text="Once finished (null while it is recorded).")
    links = serializers.SerializerMethodField(
        help_text="The pages of the game and its replay; null until the round opens."
    )

    @extend_schema_field(LinksOutput(allow_null=True))
    def get_links(self, row: FixtureRow) -> dict[str, Any] | None:
        game = row.fixture.game_id
        if game is None:
            return None
        replay = reverse("web:replay", args=[game]) if row.replayable else None
        return {"game": reverse("web:play", args=[game]), "replay": replay}


class ByeOutput(serializers.Serializer[Any]):
    division = serializers.IntegerField(source="tier", help_text="The division's tier.")
    entrant = EntryOutput()


class RoundOutput(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField()
    fixtures = FixtureOutput(many=True)
    byes = ByeOutput(many=True, help_text="Entrants sitting the round out.")


class FixturesQuery(serializers.Serializer[dict[str, Any]]):
    round = serializers.IntegerField(min_value=1, required=False)
    division = serializers.IntegerField(min_value=1, required=False, help_text="A tier.")


class FixturesOutput(serializers.Serializer[dict[str, Any]]):
    season = serializers.SlugField()
    rounds = RoundOutput(many=True)


class DivisionBrief(serializers.Serializer[Any]):
    tier = serializers.IntegerField()
    name = serializers.CharField()


class SeasonRecordOutput(serializers.Serializer[Any]):
    club = ClubBrief(source="season.club")
    season = SeasonBrief()
    division = DivisionBrief()
    line = StandingLineOutput(allow_null=True, help_text="Their line of the division's table.")


class FamilyRecordOutput(serializers.Serializer[Any]):
    family = serializers.CharField()
    matches = serializers.IntegerField(help_text="Finished matches of any kind.")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    hands = serializers.IntegerField()
    mean_points_per_hand = serializers.FloatField()


PERSON_RATING_HELP = (
    "openskill Plackett-Luce, the ladders' model (docs/ratings.md); sigma decayed for the time "
    "away as of now."
)


class PersonRatingOutput(serializers.Serializer[Any]):
    """A person's rating in one pool (ratings/reads.py PoolRating)."""

    family = serializers.CharField(help_text="The pool: a family, or one under precognitive.")
    name = serializers.CharField(help_text='The pool in words: "Basic-plus + precognitive".')
    kind = serializers.ChoiceField(choices=KIND, help_text="Always person: no bot is rated here.")
    mu = serializers.FloatField(help_text=PERSON_RATING_HELP)
    sigma = serializers.FloatField(help_text=PERSON_RATING_HELP)
    rating = serializers.FloatField(help_text="The displayed figure: mu - 3 sigma (the ordinal).")
    games = serializers.IntegerField(help_text="Rated games played in the pool.")
    provisional = serializers.BooleanField(
        help_text="Fewer rated games than RATINGS_PROVISIONAL_GAMES: the figure is not settled."
    )
    rated_at = serializers.DateTimeField(help_text="When their last rated game in it ended.")


class PlayerOutput(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    kind = serializers.ChoiceField(choices=KIND, help_text="Always person.")
    seasons = SeasonRecordOutput(
        many=True, help_text="Newest first, a page of them (`limit`; `Link` for the next)."
    )
    families = FamilyRecordOutput(many=True)
    ratings = serializers.DictField(
        child=PersonRatingOutput(),
        help_text="Per pool they played a rated game in: their rating (docs/ratings.md).",
    )


def public(view: Any) -> Any:
    """A GET anyone may make, signed in or not."""
    view = permission_classes([AllowAny])(view)
    view = authentication_classes(PEOPLE)(view)
    return api_view(["GET"])(view)


@extend_schema(responses={200: ClubRowOutput(many=True), **error_responses(403)})
@public
def clubs(request: Request) -> Response:
    """Every club, by name: how many active members and seasons it has."""
    return Response(ClubRowOutput(selectors.clubs(), many=True).data)


class ClubQuery(serializers.Serializer[dict[str, Any]]):
    before = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="The page of seasons after this season (the `before` of the "
        '`Link: <...>; rel="next"` header of the page before).',
    )
    limit = serializers.IntegerField(
        min_value=1,
        max_value=selectors.SEASONS_PAGE,
        required=False,
        default=selectors.SEASONS_PAGE,
        help_text="Seasons in a page.",
    )


@extend_schema(
    parameters=[ClubQuery],
    # 400 `invalid`: a `before` or `limit` not a whole number in range; 404 `not-found`: no
    # such club, or a `before` that names no season of it.
    responses={200: ClubOutput, **error_responses(400, 403, 404)},
)
@public
def club(request: Request, slug: str) -> Response:
    """A club: its active members, its seasons (newest first, a page at a time: `limit`, at
    most 20; when older ones follow, the `Link` header's `rel="next"` is the next page's URL,
    `before=<the last season's id>`) and its all-time table."""
    query = ClubQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    found = query.validated_data
    page = selectors.club_page(club_get(slug), before=found.get("before"), limit=found["limit"])
    return next_link(request, Response(ClubOutput(page).data), page.before)


@extend_schema(request=None, responses={204: None, **error_responses(400, 403, 404)})
@api_view(["DELETE"])
@authentication_classes(PEOPLE)
def club_member(request: Request, slug: str, username: str) -> Response:
    """Take a member out of the club: your own username, you leave it; another's, you remove
    them (the club's admins, and staff), and they are told under their bell. What they
    entered stays (entries in seasons and tournaments are played and ruled as now). 204.
    Refusals: 400 `not-a-member`, `last-admin` (the club's only admin neither leaves nor is
    removed); 403 `not-club-admin`, `token-scope`; 404 `not-found` (no such club or person)."""
    require_scope(request, "play")
    club = club_get(slug)
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise PlayerNotFound(f"person {username!r}")
    caller = person(request)
    if user.pk == caller.pk:
        club_services.club_leave(club=club, user=caller)
    else:
        club_services.member_remove(club=club, admin=caller, user=user)
    return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(responses={200: SeasonOutput, **error_responses(403, 404)})
@public
def season(request: Request, slug: str) -> Response:
    """A season: its rules and settings, its neighbours, its divisions and their entrants."""
    return Response(SeasonOutput(selectors.season_page(selectors.season_of(slug))).data)


@extend_schema(responses={200: StandingsOutput, **error_responses(403, 404)})
@public
def season_standings(request: Request, slug: str) -> Response:
    """Each division's table, ranked by the tiebreaks; a closed season's archived final
    tables."""
    found = selectors.season_of(slug)
    final = found.status == Season.Status.CLOSED
    divisions = []
    for division, lines in standings.season_tables(found):
        # The marks the season's page shows: none while a running table has no result in.
        marks = standings.zone_marks(lines, final=final)
        divisions.append(
            {
                "tier": division.tier,
                "name": division.name,
                "promote": division.promote,
                "relegate": division.relegate,
                "lines": [replace(line, zone=marks.get(line.entry, "")) for line in lines],
            }
        )
    body = {"season": found.slug, "final": final, "divisions": divisions}
    return Response(StandingsOutput(body).data)


@extend_schema(
    parameters=[FixturesQuery],
    responses={200: FixturesOutput, **error_responses(400, 403, 404)},
)
@public
def season_fixtures(request: Request, slug: str) -> Response:
    """The fixtures and byes by round: `?round=N`, `?division=T` (a tier)."""
    query = FixturesQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    found = selectors.season_of(slug)
    rounds = selectors.season_fixtures(
        found,
        round_number=query.validated_data.get("round"),
        tier=query.validated_data.get("division"),
    )
    return Response(FixturesOutput({"season": found.slug, "rounds": rounds}).data)


class PlayerQuery(serializers.Serializer[dict[str, Any]]):
    before = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="The page of `seasons` after this season (the `before` of the "
        '`Link: <...>; rel="next"` header of the page before).',
    )
    limit = serializers.IntegerField(
        min_value=1,
        max_value=standings.PLAYER_SEASONS,
        required=False,
        default=standings.PLAYER_SEASONS,
        help_text="Seasons in a page.",
    )


@extend_schema(
    parameters=[PlayerQuery],
    # 400 `invalid`: a `before` or `limit` not a whole number in range; 404 `not-found`: no
    # such person, or a `before` that is no season they entered.
    responses={200: PlayerOutput, **error_responses(400, 403, 404)},
)
@public
def player(request: Request, username: str) -> Response:
    """A person's league seasons (with their line of each table; newest first, a page at a
    time: `limit`, at most 20; when older ones follow, the `Link` header's `rel="next"` is the
    next page's URL, `before=<the last season's id>`), per rules family their finished matches
    of any kind, and their rating in each pool they played rated games in."""
    query = PlayerQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    user = selectors.player_of(username)
    seasons, families, older = selectors.player_page(
        user, before=query.validated_data.get("before"), limit=query.validated_data["limit"]
    )
    body = {
        "username": user.get_username(),
        "kind": "person",
        "seasons": seasons,
        "families": [family.as_dict() for family in families],
        "ratings": {rating.family: rating for rating in reads.person_ratings(user)},
    }
    return next_link(request, Response(PlayerOutput(body).data), older)
