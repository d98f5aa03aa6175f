"""Ladders over the API: the list with rules and entrants, a ladder's leaderboard, a bot's
public record (ratings, history, head-to-head, recent games), and entering or leaving a ladder
(a bot of one's own, or oneself). Reads are public; league/ladder_reads.py does the reading
and league/ladders.py the entering. docs/api.md, "Ladders"; docs/ladders.md, the model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.decorators import api_view, authentication_classes
from rest_framework.request import Request
from rest_framework.response import Response

from api.auth import PEOPLE, person, require_scope
from api.errors import error_responses
from api.leagues import FAMILY_HELP, KIND, FamilyField, public
from api.pages import next_link
from games.errors import Forbidden, GameError
from games.models import Bot
from league import ladder_reads, ladders
from league.models import Competition, Entry

RATING_HELP = "openskill Plackett-Luce; sigma decayed for the time away as of now."


class LadderEntrantOutput(serializers.Serializer[Any]):
    entry = serializers.IntegerField(source="entry.pk")
    name = serializers.CharField(help_text="The bot's name or the person's username.")
    kind = serializers.ChoiceField(choices=KIND)
    owner = serializers.CharField(help_text="A bot's owner; a person's own username.")
    bot_id = serializers.IntegerField(allow_null=True, help_text="A bot's; null for a person.")


class LineOutput(LadderEntrantOutput):
    rank = serializers.IntegerField(
        allow_null=True, help_text="Ties share a rank; null: off the board."
    )
    mu = serializers.FloatField(help_text=RATING_HELP)
    sigma = serializers.FloatField(help_text=RATING_HELP)
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: the board's order.")
    sets = serializers.IntegerField(help_text="Rating events: a table's rotations count once.")
    games = serializers.IntegerField()
    win_rate = serializers.FloatField(
        allow_null=True, help_text="First places per game (a shared first place shares)."
    )
    last_played = serializers.DateTimeField(allow_null=True)
    trend = serializers.ListField(
        child=serializers.FloatField(), help_text="The ordinal after each of the last sets."
    )


class LadderBrief(serializers.Serializer[Any]):
    slug = serializers.SlugField()
    name = serializers.CharField()
    family = FamilyField(source="variant", help_text=FAMILY_HELP)
    variant = serializers.DictField(help_text="The normalised variant spec.")
    seats_per_game = serializers.IntegerField(help_text="The table size.")
    duplicate = serializers.BooleanField(
        help_text="Each deal played once per seat rotation; the rotations are one rating event."
    )
    matchmaking = serializers.BooleanField(help_text="False while matchmaking is paused.")


class LadderRowOutput(LadderBrief):
    entrants = serializers.SerializerMethodField()

    @extend_schema_field(LadderEntrantOutput(many=True))
    def get_entrants(self, ladder: Competition) -> Any:
        """The active entrants, in entry order."""
        # Prefetched by ladder_reads.ladders(), entry order within each ladder.
        active: list[Entry] = getattr(ladder, "active_entries", [])
        entrants = [ladder_reads.entrant(entry) for entry in active]
        return LadderEntrantOutput(entrants, many=True).data


class LadderOutput(LadderBrief):
    ranked = LineOutput(
        many=True,
        help_text="Rated within the last days (docs/ladders.md): this page's, best first.",
    )
    unranked = LineOutput(
        many=True,
        help_text="Entered, but never rated or away too long: this page's, after the ranked.",
    )


class HistoryOutput(serializers.Serializer[Any]):
    at = serializers.DateTimeField(source="recorded_at")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.SerializerMethodField()
    place = serializers.IntegerField(help_text="The place in the set (ties share).")
    places = serializers.ListField(child=serializers.IntegerField(), help_text="Per game.")
    games = serializers.ListField(child=serializers.IntegerField(), help_text="Game ids.")

    def get_ordinal(self, change: Any) -> float:
        return float(change.mu - 3 * change.sigma)


class HeadToHeadOutput(serializers.Serializer[Any]):
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=KIND)
    bot_id = serializers.IntegerField(allow_null=True)
    games = serializers.IntegerField(help_text="Games at one table.")
    ahead = serializers.IntegerField(help_text="Games this entrant finished ahead.")
    behind = serializers.IntegerField()


class RecordOutput(serializers.Serializer[Any]):
    ladder = LadderBrief()
    line = LineOutput()
    history = HistoryOutput(many=True, help_text="The last 200 rating events, oldest first.")
    head_to_head = HeadToHeadOutput(many=True, help_text="Most met first.")


class RecentGameOutput(serializers.Serializer[Any]):
    game = serializers.IntegerField(source="game.pk")
    seat = serializers.IntegerField()
    what = serializers.CharField(help_text="The ladder, the validation round, or 'game'.")
    finished = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True, help_text="Once the match is over.")
    seats = serializers.IntegerField()


class BotPublicOutput(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField(source="bot.pk")
    name = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    kind = serializers.ChoiceField(source="bot.kind", choices=Bot.Kind.choices)
    status = serializers.ChoiceField(source="bot.status", choices=Bot.Status.choices)
    ladders = RecordOutput(many=True)
    recent_games = RecentGameOutput(
        many=True, help_text="Newest first, a page of them (`limit`; `Link` for the next)."
    )


# A `bot` that is no whole number (its name, most often): what is wanted, and where it is.
BOT_ID_WANTED = (
    "A bot's id, a whole number (not its name): each bot's page (/me/bots/) shows it beside its "
    "name, and GET /api/me/bots lists your bots with theirs."
)


def bot_id_field(help_text: str) -> serializers.IntegerField:
    """An entry's `bot`: the bot's id (a string of digits too, as ever); anything else is 400
    `invalid` with BOT_ID_WANTED under `errors.bot`."""
    return serializers.IntegerField(
        required=False,
        help_text=help_text + " Its id, as GET /api/me/bots lists it: not its name.",
        error_messages={"invalid": BOT_ID_WANTED},
    )


class EntryInput(serializers.Serializer[dict[str, Any]]):
    """Exactly one entrant, named: never guessed (400 `entrant-missing` without one,
    `entrant-ambiguous` with both)."""

    bot = bot_id_field("One of your bots (a token needs scope `bots`).")
    person = serializers.BooleanField(
        required=False,
        help_text="true: yourself, in person (a token needs scope `play`); a ladder for bots "
        "refuses it (403 `ladder-for-bots`).",
    )


class LadderEntryOutput(serializers.Serializer[Entry]):
    entry = serializers.IntegerField(source="pk")
    ladder = serializers.SlugField(source="competition.slug")
    kind = serializers.SerializerMethodField()
    name = serializers.SerializerMethodField()
    active = serializers.BooleanField(help_text="False once it has left.")

    def get_kind(self, entry: Entry) -> str:
        return "bot" if entry.bot_id else "person"

    def get_name(self, entry: Entry) -> str:
        return ladder_reads.entrant(entry).name


@extend_schema(responses={200: LadderRowOutput(many=True), **error_responses(403)})
@public
def ladder_list(request: Request) -> Response:
    """Every ladder with its rules and its active entrants."""
    return Response(LadderRowOutput(ladder_reads.ladders(), many=True).data)


class BoardQuery(serializers.Serializer[dict[str, Any]]):
    after = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="The page of the leaderboard after this entry's line (the `after` of the "
        '`Link: <...>; rel="next"` header of the page before).',
    )
    limit = serializers.IntegerField(
        min_value=1,
        max_value=ladder_reads.BOARD_PAGE,
        required=False,
        default=ladder_reads.BOARD_PAGE,
        help_text="Lines in a page (ranked and off the board together).",
    )


@extend_schema(
    parameters=[BoardQuery],
    # 400 `invalid`: an `after` or `limit` not a whole number in range; 404 `not-found`: no
    # such ladder, or an `after` that is no entrant on its board.
    responses={200: LadderOutput, **error_responses(400, 403, 404)},
)
@public
def ladder(request: Request, slug: str) -> Response:
    """A ladder and its leaderboard, a page of lines at a time (`limit`, at most 50; the ranked
    ones first, then those off the board): when more follow, the `Link` header's
    `rel="next"` is the next page's URL (`after=<the last line's entry>`)."""
    query = BoardQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    found = ladder_reads.ladder_of(slug)
    page = ladder_reads.board_page(
        found,
        after=query.validated_data.get("after"),
        limit=query.validated_data["limit"],
    )
    data = LadderBrief(found).data
    data["ranked"] = LineOutput(page.ranked, many=True).data
    data["unranked"] = LineOutput(page.unranked, many=True).data
    return next_link(request, Response(data), page.after, name="after")


class BotQuery(serializers.Serializer[dict[str, Any]]):
    before = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="The page of `recent_games` after this game (the `before` of the "
        '`Link: <...>; rel="next"` header of the page before).',
    )
    limit = serializers.IntegerField(
        min_value=1,
        max_value=ladder_reads.RECENT_GAMES,
        required=False,
        default=ladder_reads.RECENT_GAMES,
        help_text="Games in a page of `recent_games`.",
    )


@extend_schema(
    parameters=[BotQuery],
    # 400 `invalid`: a `before` or `limit` not a whole number in range; 404 `not-found`: no
    # such bot; `game-not-found`: a `before` that is no game of the bot's.
    responses={200: BotPublicOutput, **error_responses(400, 403, 404)},
)
@public
def bot(request: Request, bot_id: int) -> Response:
    """A bot's public record: its ladders (rating, history, head-to-head), its games (newest
    first, a page at a time: `limit`, at most 20; when older ones follow, the `Link` header's
    `rel="next"` is the next page's URL, `before=<the last game's id>`)."""
    query = BotQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    found = ladder_reads.bot_of(bot_id)
    games, older = ladder_reads.recent_games(
        found, before=query.validated_data.get("before"), limit=query.validated_data["limit"]
    )
    record = {
        "bot": found,
        "ladders": ladder_reads.records(Entry.objects.filter(bot=found)),
        "recent_games": games,
    }
    return next_link(request, Response(BotPublicOutput(record).data), older)


def named_bot(request: Request, data: dict[str, Any]) -> Bot | None:
    """The bot the body names, or None for the person: exactly one of them, named (a ladder's
    entry, a tournament's entry and pause)."""
    named_bot, in_person = data.get("bot") is not None, bool(data.get("person"))
    if named_bot and in_person:
        raise GameError("name one entrant: `bot` or `person`, not both", code="entrant-ambiguous")
    if not named_bot and not in_person:
        raise GameError(
            'name the entrant: {"bot": <id>} for one of your bots, {"person": true} for yourself',
            code="entrant-missing",
        )
    require_scope(request, "bots" if named_bot else "play")
    if not named_bot:
        return None
    found = Bot.objects.filter(pk=data["bot"], owner=person(request)).first()
    if found is None:
        raise Forbidden(f"you have no bot {data['bot']}", code="not-owner")
    return found


def _entry(request: Request, slug: str, action: Callable[..., Entry]) -> Entry:
    data = EntryInput(data=request.data)
    data.is_valid(raise_exception=True)
    found = ladder_reads.ladder_of(slug)
    return action(found, actor=person(request), bot=named_bot(request, data.validated_data))


@extend_schema(
    request=EntryInput, responses={201: LadderEntryOutput, **error_responses(400, 403, 404)}
)
@api_view(["POST"])
@authentication_classes(PEOPLE)
def enter(request: Request, slug: str) -> Response:
    """Enter one of your validated bots (`{"bot": <id>}`) or yourself (`{"person": true}`).
    Refusals: `entrant-missing`, `entrant-ambiguous`, `bot-validating`, `bot-suspended`,
    `bot-failed`, `already-entered`, `birth-date-missing` (newno), `ladder-for-bots` (a
    person in a ladder for bots), `not-owner`, `not-a-ladder`, `token-scope`."""
    entry = _entry(request, slug, ladders.ladder_enter)
    return Response(LadderEntryOutput(entry).data, status=status.HTTP_201_CREATED)


@extend_schema(
    request=EntryInput, responses={200: LadderEntryOutput, **error_responses(400, 403, 404)}
)
@api_view(["POST"])
@authentication_classes(PEOPLE)
def leave(request: Request, slug: str) -> Response:
    """Take your bot (`{"bot": <id>}`) or yourself (`{"person": true}`) out of the ladder:
    matchmaking seats it no more; a set it is playing plays to its end. Refusals:
    `entrant-missing`, `entrant-ambiguous`, `not-entered`, `not-owner`, `token-scope`."""
    return Response(LadderEntryOutput(_entry(request, slug, ladders.ladder_leave)).data)
