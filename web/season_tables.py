"""A season's tables and fixtures, the part of the season page (/seasons/<slug>/) that shows
how the season stands: each division's table (ranked by league/standings.py's tiebreaks, with
who goes up and down), its fixtures round by round, and, for the club's admins and staff, the
rulings on an open fixture (forfeit a seat, move the deadline) as POST views here: each comes
back to the fixture (`#fixture-<id>`), its message tagged so, and the page shows it in the
fixture's box.

The season page's view includes `templates/leagues/_season_tables.html` and merges
`season_tables_context(season, user, said)` into its own context. A closed season shows its archived
final tables (standings.season_tables); the fixtures stay where they were.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from engine.events import SEAT_FORFEITED
from games import event_reads, seat_facts
from games.models import Game, MatchResult
from games.variant_text import moment
from league import seasons
from league.errors import NotClubAdmin, SeasonError
from league.models import Club, Division, Fixture, Season
from league.selectors import Entrant, FixtureRow, season_fixtures
from league.standings import (
    StandingLine,
    entrant_name,
    season_tables,
    tiebreak_words,
    tied_across,
    zone_marks,
)
from web.forfeits import FORFEIT_REASONS
from web.names import seats_counted
from web.play import refused
from web.sentences import number, ordinal

NOTE_LENGTH = 200


def season_url(season: Season) -> str:
    return reverse("web:season", args=[season.slug])


def club_url(club: Club) -> str:
    return reverse("web:club", args=[club.slug])


def player_url(username: str) -> str:
    return reverse("web:player", args=[username])


# --------------------------------------------------------------------------- the tables


@dataclass(frozen=True, slots=True)
class TableRow:
    """One entrant's line of a division's table as the page shows it."""

    line: StandingLine
    url: str  # the player page; "" for a bot
    places: str  # "3 · 1 · 0 · 0": the times in 1st, 2nd, ... place
    places_said: str  # the same in words, for the cell's title and screen readers
    # Whether the head-to-head score decided anything (the line was tied on the rest).
    head_to_head_needed: bool
    # The mark the table shows: "up", "down" or "" (league/standings.py zone_marks).
    zone: str = ""
    # The viewer's own line (marked "you" on the page).
    mine: bool = False


def table_rows(
    lines: list[StandingLine], marks: dict[int, str] | None = None, viewer: int | None = None
) -> list[TableRow]:
    """The lines as the page shows them; `viewer`: the signed-in person's id, whose line is
    marked as theirs."""
    marks = marks or {}

    def key(line: StandingLine) -> tuple[int, int, int]:
        return (line.league_points, line.wins, line.points_scored)

    counts: dict[tuple[int, int, int], int] = defaultdict(int)
    for line in lines:
        counts[key(line)] += 1
    return [
        TableRow(
            line=line,
            url=player_url(line.name) if line.kind == "person" else "",
            places=" · ".join(str(times) for times in line.placements),
            places_said=", ".join(
                f"{ordinal(place)} {times} time{'s' if times != 1 else ''}"
                for place, times in enumerate(line.placements, start=1)
            ),
            head_to_head_needed=counts[key(line)] > 1,
            zone=marks.get(line.entry, ""),
            mine=viewer is not None and line.user_id == viewer,
        )
        for line in lines
    ]


def tiebreaks(season: Season) -> list[str]:
    """The order of the tiebreaks in words (docs/leagues.md, "Standings"), as
    league/standings.py ranks by them."""
    options = season.competition.variant.get("options") or {}
    return tiebreak_words(low_points_win=options.get("scoring") == "running-total")


# --------------------------------------------------------------------------- the fixtures


@dataclass(frozen=True, slots=True)
class SeatCell:
    """One seat of a fixture: who sits there and, once it has finished, how they did."""

    number: int
    name: str
    kind: str  # "person" or "bot"
    url: str
    mine: bool
    to_act: bool
    place: int | None
    score: int | None
    forfeited: bool

    @property
    def place_text(self) -> str:
        return ordinal(self.place) if self.place else ""


@dataclass(frozen=True, slots=True)
class FixtureView:
    fixture: Fixture
    status: str  # "scheduled", "playing" or "finished"
    seats: list[SeatCell]
    overdue: bool
    # The deadline was moved by a ruling (it differs from the round's).
    retimed: bool
    your_turn: bool
    counted: bool  # finished and in the results (the projection has folded it)
    rulable: bool  # the viewer may rule on it now
    # The viewer may forfeit a seat of it: they may rule and hold no seat of it (nobody rules
    # on a fixture they play in: league.seasons.fixture_forfeit, `own-fixture`).
    forfeitable: bool = False
    # Each forfeit in words, from the game's log as soon as it is written (the result's
    # projection comes later): "Greta was forfeited by the league's ruling: “no show”."
    forfeits: tuple[str, ...] = ()
    # The messages of a ruling on this fixture, shown in its box, where the ruling's redirect
    # brings the page (web/season_page.py `placed_messages`).
    said: tuple[Any, ...] = ()

    @property
    def anchor(self) -> str:
        """The fixture's id on the page: a ruling comes back to it, its messages tagged so."""
        return f"fixture-{self.pk}"

    @property
    def seated(self) -> bool:
        """The viewer holds a seat of it that is still theirs to play (not forfeited)."""
        return any(cell.mine and not cell.forfeited for cell in self.seats)

    @property
    def game_url(self) -> str:
        return reverse("web:play", args=[self.fixture.game_id]) if self.fixture.game_id else ""

    @property
    def replay_url(self) -> str:
        if self.status != "finished":
            return ""
        return reverse("web:replay", args=[self.fixture.game_id])

    @property
    def forfeit_url(self) -> str:
        return reverse("web:fixture-forfeit", args=[self.fixture.division.season.slug, self.pk])

    @property
    def retime_url(self) -> str:
        return reverse("web:fixture-retime", args=[self.fixture.division.season.slug, self.pk])

    @property
    def pk(self) -> int:
        return self.fixture.pk


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    opens_at: datetime.datetime  # when it opened, if it has (early or not), else its day
    deadline: datetime.datetime  # as drawn; a ruling may move one fixture's
    fixtures: list[FixtureView]
    byes: list[str]
    opened: bool  # its day has come: "opened Sat 5 Dec", not "opens", while it is played
    my_bye: bool = False  # the viewer sits this round out


@dataclass(frozen=True, slots=True)
class DivisionView:
    division: Division
    rows: list[TableRow]
    rounds: list[RoundView]
    # A running table that marks nothing yet: no result is in.
    marks_wait: bool = False
    # The shared places a zone's line runs through, by entry order: "Rex and ada (2nd)".
    ties: tuple[str, ...] = ()

    @property
    def promoted_said(self) -> str:
        """Who goes up, for the note under the table: "the best one goes up a division"."""
        count = self.division.promote
        goes = "goes" if count == 1 else "go"
        return f"the best {number(count)} {goes} up a division next season"

    @property
    def relegated_said(self) -> str:
        """Who goes down: "the last two go down a division"."""
        count = self.division.relegate
        goes = "goes" if count == 1 else "go"
        return f"the last {number(count)} {goes} down a division"


def division_rounds(
    division: Division,
    user: Any,
    *,
    rule: bool,
    now: datetime.datetime,
    said: Mapping[str, Sequence[Any]] | None = None,
) -> list[RoundView]:
    """The division's fixtures round by round (league.selectors.season_fixtures), as `user`
    sees them; `said`: the messages to show in a fixture's box, by its anchor."""
    round_length = datetime.timedelta(days=division.season.round_days)
    said = said or {}
    viewer = user.pk if user is not None and user.is_authenticated else None
    rounds = [
        rows for rows in season_fixtures(division.season, tier=division.tier) if rows.fixtures
    ]
    forfeits = logged_forfeits([row for rows in rounds for row in rows.fixtures])
    return [
        RoundView(
            number=rows.round,
            # When it really opened (early, once the round before finished), else its day.
            opens_at=min(
                (row.fixture.opened_at for row in rows.fixtures if row.fixture.opened_at),
                default=rows.fixtures[0].fixture.opens_at,
            ),
            deadline=rows.fixtures[0].fixture.opens_at + round_length,
            fixtures=[
                fixture_view(
                    row,
                    user,
                    rule=rule,
                    now=now,
                    drawn=round_length,
                    forfeits=forfeits.get(row.fixture.game_id or 0, {}),
                    said=said.get(f"fixture-{row.fixture.pk}", ()),
                )
                for row in rows.fixtures
            ],
            byes=sorted(bye.entrant.name for bye in rows.byes),
            my_bye=viewer is not None and any(bye.entrant.user_id == viewer for bye in rows.byes),
            opened=any(row.fixture.opened_at for row in rows.fixtures)
            or rows.fixtures[0].fixture.opens_at <= now,
        )
        for rows in rounds
    ]


def logged_forfeits(rows: list[FixtureRow]) -> dict[int, dict[int, dict[str, Any]]]:
    """The seat-forfeited events of the fixtures' games by game and seat (the first of a seat,
    as games/seat_facts.py folds them). A counted match keeps them in its result
    (MatchResult.forfeits, read with the fixtures): nothing more is read for it. Only the games
    whose result is not counted yet (the ones playing, or just over) are read from the log, their
    seat-forfeited events alone, in one query (through the index `event_landmarks`; a game not
    counted is never archived): a ruling shows on its fixture as soon as it is made, not once the
    projection has folded the result. A result folded before MatchResult had `forfeits` (NULL)
    is read from the log too."""
    found: dict[int, dict[int, dict[str, Any]]] = {}
    games = []
    for row in rows:
        game_id, result = row.fixture.game_id, row.result
        if game_id is None or (result is not None and not result.forfeited):
            continue
        if result is None or result.forfeits is None:
            games.append(game_id)
            continue
        for event in result.forfeits:
            found.setdefault(game_id, {}).setdefault(event["seat"], event)
    for game_id, records in event_reads.load_many(games, types={SEAT_FORFEITED}).items():
        for record in records:
            found.setdefault(game_id, {}).setdefault(record.event["seat"], record.event)
    return found


def fixture_view(
    row: FixtureRow,
    user: Any,
    *,
    rule: bool,
    now: datetime.datetime,
    drawn: datetime.timedelta,
    forfeits: Mapping[int, dict[str, Any]] | None = None,
    said: Sequence[Any] = (),
) -> FixtureView:
    """A fixture as `user` sees it; `drawn` is a round's length (the deadline as drawn),
    `forfeits` its game's seat-forfeited events by seat (`logged_forfeits`), `said` the
    messages to show in its box."""
    fixture, game, result = row.fixture, row.fixture.game, row.result
    forfeits = forfeits or {}
    playing = game is not None and row.status == "playing"
    to_act = set(game.to_act or []) if playing and game is not None else set()
    viewer = user.pk if user is not None and user.is_authenticated else None
    seats = [
        _seat_cell(number, entrant, result, viewer, to_act, number in forfeits)
        for number, entrant in enumerate(row.seats)
    ]
    return FixtureView(
        fixture=fixture,
        status=row.status,
        seats=seats,
        overdue=row.status != "finished" and now > fixture.deadline,
        retimed=fixture.deadline != fixture.opens_at + drawn,
        your_turn=any(cell.mine and cell.to_act for cell in seats),
        counted=result is not None,
        rulable=rule and playing,
        forfeitable=rule and playing and not any(cell.mine for cell in seats),
        forfeits=tuple(
            forfeit_words(row.seats[seat].name, event, playing=playing)
            for seat, event in sorted(forfeits.items())
            if seat < len(row.seats)
        ),
        said=tuple(said),
    )


def forfeit_words(name: str, event: dict[str, Any], *, playing: bool) -> str:
    """A seat-forfeited event as its fixture says it: "Greta was forfeited by the league's
    ruling: “no show”. The default bot plays the seat out; it is placed last." """
    why = FORFEIT_REASONS.get(event.get("reason") or "", "forfeited")
    note = f": “{event['note']}”" if event.get("note") else ""
    then = "The default bot plays the seat out; it is placed last" if playing else "Placed last"
    return f"{name} {why}{note}. {then}."


def _seat_cell(
    number: int,
    entrant: Entrant,
    result: MatchResult | None,
    viewer: int | None,
    to_act: set[int],
    logged_forfeit: bool = False,
) -> SeatCell:
    person = entrant.kind == "person"
    return SeatCell(
        number=number,
        name=entrant.name,
        kind=entrant.kind,
        url=player_url(entrant.name) if person else "",
        mine=person and entrant.user_id == viewer,
        to_act=number in to_act,
        place=result.places[number] if result is not None else None,
        score=result.scores[number] if result is not None else None,
        forfeited=logged_forfeit or (result is not None and number in result.forfeited),
    )


# --------------------------------------------------------------------------- the context


def season_tables_context(
    season: Season, user: Any, said: Mapping[str, Sequence[Any]] | None = None
) -> dict[str, Any]:
    """What `templates/leagues/_season_tables.html` needs, under one key, `season_tables`:

    - `season`, `started` (a draft lists its entrants, unranked), `closed` (the tables are the
      archived final ones), `can_rule` (the viewer is a club admin or staff and the season
      runs: each open fixture offers "Rule"), `tiebreaks` (the legend, in order),
      `note_length`;
    - `divisions`: one DivisionView per tier, top first: `division`, `rows` (TableRow: the
      StandingLine with the player page's URL, placements in figures and in words, whether
      H2H decided anything, the promotion or relegation mark shown: league/standings.py
      zone_marks), `marks_wait` (running, no result yet: nobody marked), `ties` (the shared
      places a zone's line runs through, in words) and `rounds` (RoundView: number, opens_at,
      the drawn deadline, `byes` by name, `fixtures` as FixtureView: status
      scheduled/playing/finished, seats in order with places and scores, overdue, retimed,
      your_turn, seated, the forfeits in words, the messages `said` of a ruling on it, the
      game's and the replay's URLs, the ruling forms' URLs).

    `user` is the viewer (request.user, anonymous or not); `said` the messages to show in a
    fixture's box, by its anchor (`fixture-<id>`). The season page merges the dict into its
    context: `context |= season_tables_context(season, request.user, said)`.
    """
    rule = season.status == Season.Status.RUNNING and seasons.can_rule(season, user)
    viewer = user.pk if user is not None and user.is_authenticated else None
    now = timezone.now()
    started = season.status != Season.Status.DRAFT
    closed = season.status == Season.Status.CLOSED
    divisions = []
    for division, lines in season_tables(season):
        zoned = bool(division.promote or division.relegate)
        marks = zone_marks(lines, final=closed) if started else {}
        running = zoned and started and not closed
        divisions.append(
            DivisionView(
                division=division,
                rows=table_rows(lines, marks, viewer),
                rounds=division_rounds(division, user, rule=rule, now=now, said=said),
                marks_wait=running and not marks,
                ties=tuple(
                    f"{' and '.join(line.name for line in tied)} ({ordinal(tied[0].rank)})"
                    for tied in tied_across(lines)
                )
                if running and marks
                else (),
            )
        )
    return {
        "season_tables": {
            "season": season,
            "started": started,
            "closed": closed,
            "can_rule": rule,
            "tiebreaks": tiebreaks(season),
            "note_length": NOTE_LENGTH,
            "divisions": divisions,
        }
    }


# --------------------------------------------------------------------------- rulings


class ForfeitForm(forms.Form):
    seat = forms.IntegerField(min_value=0, error_messages={"required": "choose the seat"})
    note = forms.CharField(max_length=NOTE_LENGTH, required=False)
    confirm = forms.BooleanField(error_messages={"required": "tick the box to confirm the forfeit"})


class RetimeForm(forms.Form):
    deadline = forms.DateTimeField(
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]
    )
    note = forms.CharField(max_length=NOTE_LENGTH, required=False)


def _fixture(slug: str, fixture_id: int) -> Fixture:
    fixture = (
        Fixture.objects.select_related("division__season__competition", "division__season__club")
        .filter(pk=fixture_id, division__season__competition__slug=slug)
        .first()
    )
    if fixture is None:
        raise Http404(f"season {slug!r} has no fixture {fixture_id}")
    return fixture


def _form_errors(form: forms.Form) -> str:
    return "; ".join(
        f"{field}: {message}" if field != "__all__" else str(message)
        for field, errors in form.errors.items()
        for message in errors
    )


def _ruling(
    request: HttpRequest, slug: str, fixture_id: int, form_class: type[forms.Form]
) -> tuple[Fixture, forms.Form | None, HttpResponse | None]:
    """The fixture, the valid form (None: refused, said in a message) and a 403 for a viewer
    who may not rule."""
    fixture = _fixture(slug, fixture_id)
    season = fixture.division.season
    if not seasons.can_rule(season, request.user):
        error = NotClubAdmin(
            f"only an admin of {season.club.name} (or staff) rules on its fixtures"
        )
        return fixture, None, refused(request, error, 403, fixture.game_id)
    form = form_class(request.POST)
    if not form.is_valid():
        said = f"Nothing was ruled: {_form_errors(form)}."
        messages.error(request, said, extra_tags=_anchor(fixture))
        return fixture, None, None
    return fixture, form, None


def _anchor(fixture: Fixture) -> str:
    """The fixture's id on the season page, and the tag of a ruling's messages: the page shows
    them in the fixture's box, where the redirect brings it (web/season_page.py)."""
    return f"fixture-{fixture.pk}"


def _back(fixture: Fixture) -> HttpResponseRedirect:
    return HttpResponseRedirect(f"{season_url(fixture.division.season)}#{_anchor(fixture)}")


@require_POST
def forfeit(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """Forfeit one seat of an open fixture (seat, note, confirm): league.seasons.fixture_forfeit;
    its refusals come back as messages on the season page."""
    fixture, form, denied = _ruling(request, slug, fixture_id, ForfeitForm)
    if denied is not None:
        return denied
    if form is not None:
        seat = form.cleaned_data["seat"]
        try:
            done = seasons.fixture_forfeit(
                fixture=fixture, actor=request.user, seat=seat, note=form.cleaned_data["note"]
            )
        except SeasonError as error:
            said = seats_counted(error.message)
            tags = f"{error.code} {_anchor(fixture)}"
            messages.error(request, f"Nothing was ruled: {said}.", extra_tags=tags)
        else:
            who = _seat_name(fixture, seat)
            if done:
                # One seat left playing: the forfeit ended the match (games/seat_facts.py), which
                # the forfeits say whatever the bots played since (in-process, on commit).
                game_id = fixture.game_id
                game = None if game_id is None else Game.objects.only("seat_count").get(pk=game_id)
                over = (
                    game is not None
                    and game.seat_count - len(seat_facts.facts_of(game.pk).forfeited) <= 1
                )
                then = (
                    "the match is over, won by the only seat left playing"
                    if over
                    else "the default bot plays the seat out"
                )
                messages.success(request, f"{who} forfeits: {then}.", extra_tags=_anchor(fixture))
            else:
                messages.info(request, f"{who} had forfeited already.", extra_tags=_anchor(fixture))
    return _back(fixture)


def _seat_name(fixture: Fixture, seat: int) -> str:
    taken = fixture.seats.select_related("entry__user", "entry__bot").filter(number=seat).first()
    return entrant_name(taken.entry) if taken else f"Seat {seat + 1}"


@require_POST
def retime(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    """Move an open fixture's deadline (new deadline, note): league.seasons.fixture_retime; its
    refusals come back as messages on the season page."""
    fixture, form, denied = _ruling(request, slug, fixture_id, RetimeForm)
    if denied is not None:
        return denied
    if form is not None:
        try:
            moved = seasons.fixture_retime(
                fixture=fixture,
                actor=request.user,
                deadline=form.cleaned_data["deadline"],
                note=form.cleaned_data["note"],
            )
        except SeasonError as error:
            said = seats_counted(error.message)
            tags = f"{error.code} {_anchor(fixture)}"
            messages.error(request, f"Nothing was ruled: {said}.", extra_tags=tags)
        else:
            said = f"The fixture's deadline is now {moment(moved.deadline)}."
            messages.success(request, said, extra_tags=_anchor(fixture))
    return _back(fixture)
