"""The lobby (/play/): a person's games, whose turn it is, the clock and the score; on the
Playing tab, after them, the practice matches of their bots they are watching (games/lobby.py
practice_rows), each with a link to watch it.

Scores come from the read models when they are up to date with the game (GameSummary while it
is played, MatchResult once it is over; games/game_projections.py folds them every few
seconds), else from game_view, which replays the log as the person may see it.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from frontdoor import boundary
from games import event_reads, rematch, reveal
from games.actors import Person
from games.errors import GameNotFound
from games.lobby import (
    GameRow,
    SeatInfo,
    finished_count,
    finished_page,
    games_of,
    match_result,
    practice_rows,
)
from games.models import Game, GameSummary, MatchResult
from games.placings import won_by_forfeit
from games.variant_text import time_left, variant_details, variant_title
from games.visibility import game_view
from league.models import Fixture
from social import notifications
from tournaments.models import Tournament, TournamentGame
from tournaments.services import upcoming
from web.accounts import SignedInRequest
from web.fixture_marks import FixtureMark, fixture_mark
from web.names import seat_names
from web.season_you import running_seasons
from web.tables import lobby_context

TABS = {"playing": "Playing", "my-turn": "My turn", "finished": "Finished"}


@dataclass(frozen=True, slots=True)
class SeatLine:
    info: SeatInfo
    # The seat's name as the play page gives it (web/names.py): "greedy (seat 1)" where a name
    # is held twice.
    name: str
    score: int | None
    mine: bool
    to_act: bool
    winner: bool


@dataclass(frozen=True, slots=True)
class TournamentMark:
    """The tournament round a game was drawn for: "Demo Open · round 1, table 2", and the
    round's deadline while it forfeits (an arena's forfeits nobody: None)."""

    name: str
    round: int
    table: int
    url: str  # the round on the tournament's page
    deadline: datetime.datetime | None


@dataclass(frozen=True, slots=True)
class LobbyGame:
    """One game as the lobby shows it."""

    game: Game
    title: str
    details: str
    my_turn: bool
    finished: bool
    waiting_for: list[str]
    deadline: datetime.datetime | None
    time_left: str
    seats: list[SeatLine]
    invited_by: str | None
    fixture: FixtureMark | None = None
    tournament: TournamentMark | None = None
    # The deadline shown is the tournament round's: the turn's clock stops there
    # (games/game_settings.py `turn_deadline`), or a game drawn before that ran past it.
    round_deadline: bool = False
    # Ended by the staff (a game-aborted event): over, with no winner and no result.
    aborted: bool = False
    # Over, won by forfeit (every other seat forfeited: games/placings.py `won_by_forfeit`): who
    # won it, as its seat is named ("you" for the person's own), else "".
    forfeit_winner: str = ""
    # A practice match the person watches from no seat: the names of their own bots in it, as
    # its seats give them (every registered bot in one is theirs: games/lobby.py _check_watch).
    practice_bots: tuple[str, ...] = ()
    # The default bot played a turn of the person's that ran out, and they have not opened the
    # game (nor read its notice) since (social/notifications.py `bot_played`).
    bot_played: bool = False

    @property
    def practice_said(self) -> str:
        """The practice match in words: "of your bot annabot: you watch it play"."""
        bots = self.practice_bots
        if len(bots) == 1:
            return f"of your bot {bots[0]}: you watch it play"
        listed = ", ".join(bots[:-1]) + f" and {bots[-1]}"
        return f"of your bots {listed}: you watch them play"

    @property
    def url(self) -> str:
        # The play page (web/play.py, "web:play").
        return f"/games/{self.game.pk}/"


@dataclass(frozen=True, slots=True)
class Standing:
    scores: list[int]
    winner: int | None
    # The seats forfeited, once over (the match won by forfeit when all but the winner's are).
    forfeited: tuple[int, ...] = ()


def standings(rows: Sequence[GameRow], person: Person) -> dict[int, Standing]:
    """Each game's scores (and winner, once over), from the read models when they are current."""
    ids = [row.game.pk for row in rows]
    summaries = {
        s.game_id: s for s in GameSummary.objects.filter(game_id__in=ids).only("scores", "version")
    }
    results = {r.game_id: r for r in MatchResult.objects.filter(game_id__in=ids)}
    found: dict[int, Standing] = {}
    for row in rows:
        game = row.game
        result = results.get(game.pk)
        summary = summaries.get(game.pk)
        if game.status == Game.Status.MATCH_OVER and result is not None:
            found[game.pk] = Standing(
                list(result.scores), result.winner, tuple(result.forfeited or ())
            )
        elif game.status != Game.Status.MATCH_OVER and summary and summary.version == game.version:
            found[game.pk] = Standing(list(summary.scores), None)
        else:
            view = game_view(game_id=game.pk, viewer=person)
            ended = match_result(game.pk, view)
            found[game.pk] = Standing(
                list(view.get("scores") or []),
                ended["winner"] if ended else view.get("winner"),
                tuple(ended["forfeited"]) if ended else (),
            )
    return found


def inviters(rows: Sequence[GameRow], person: Person) -> dict[int, str]:
    """Who started each game someone else started: the actor of its first event."""
    started = {
        game_id: actor
        for game_id, actor in event_reads.first_actors([row.game.pk for row in rows]).items()
        if actor.startswith("user:") and actor != f"user:{person.pk}"
    }
    names = dict(
        User.objects.filter(
            pk__in={int(actor.removeprefix("user:")) for actor in started.values()}
        ).values_list("pk", "username")
    )
    return {
        game_id: names.get(int(actor.removeprefix("user:")), "someone")
        for game_id, actor in started.items()
    }


def fixtures_of(rows: Sequence[GameRow]) -> dict[int, FixtureMark]:
    """The league fixture each game was made for, if any."""
    found = Fixture.objects.filter(game_id__in=[row.game.pk for row in rows]).select_related(
        "division__season__competition"
    )
    marks: dict[int, FixtureMark] = {}
    for fixture in found:
        if fixture.game_id is None:
            continue
        marks[fixture.game_id] = fixture_mark(fixture)
    return marks


def tournaments_of(rows: Sequence[GameRow]) -> dict[int, TournamentMark]:
    """The tournament table each game was drawn for, if any."""
    found = TournamentGame.objects.filter(game_id__in=[row.game.pk for row in rows]).select_related(
        "round__tournament"
    )
    marks: dict[int, TournamentMark] = {}
    for table in found:
        round_ = table.round
        tournament = round_.tournament
        forfeits = tournament.format != Tournament.Format.ARENA and round_.finished_at is None
        marks[table.game_id] = TournamentMark(
            name=tournament.name,
            round=round_.number,
            table=table.table,
            url=reverse("web:tournament", args=[tournament.slug]) + f"#round-{round_.number}",
            deadline=round_.deadline if forfeits else None,
        )
    return marks


def shown_deadline(
    turn: datetime.datetime | None, mark: TournamentMark | None
) -> tuple[datetime.datetime | None, bool]:
    """The deadline a game's card shows, and whether it is its tournament round's: a turn's
    clock never runs past the round's deadline, when the seat is forfeited."""
    if turn is not None and mark is not None and mark.deadline is not None:
        if turn >= mark.deadline:
            return mark.deadline, True
    return turn, False


def aborted_of(rows: Sequence[GameRow]) -> set[int]:
    """The games the staff aborted."""
    return reveal.aborted_of(
        (row.game.pk, row.game.version) for row in rows if row.game.status == Game.Status.MATCH_OVER
    )


def lobby_games(
    rows: Sequence[GameRow], person: Person, *, practice: bool = False
) -> list[LobbyGame]:
    """The games as the lobby shows them; `practice`: the rows are the person's practice
    matches (games/lobby.py practice_rows)."""
    now = timezone.now()
    scores = standings(rows, person)
    invited = inviters(rows, person)
    fixtures = fixtures_of(rows)
    tournaments = tournaments_of(rows)
    aborted = aborted_of(rows)
    played_for = notifications.bot_played_games(
        person.pk, [row.game.pk for row in rows if row.game.status != Game.Status.MATCH_OVER]
    )
    shown = []
    for row in rows:
        game = row.game
        standing = scores[game.pk]
        finished = game.status == Game.Status.MATCH_OVER
        to_act = set(game.to_act or []) if not finished else set()
        names = seat_names(row.seats)
        seats = [
            SeatLine(
                info=info,
                name=names[info.seat] if info.seat < len(names) else info.name,
                score=standing.scores[info.seat] if info.seat < len(standing.scores) else None,
                mine=info.seat in row.my_seats,
                to_act=info.seat in to_act,
                winner=standing.winner == info.seat and game.pk not in aborted,
            )
            for info in row.seats
        ]
        mark = tournaments.get(game.pk)
        deadline, round_deadline = shown_deadline(row.deadline, mark)
        forfeit_winner = ""
        if finished and won_by_forfeit(standing.winner, standing.forfeited, len(seats)):
            won = next((line for line in seats if line.info.seat == standing.winner), None)
            forfeit_winner = "" if won is None else "you" if won.mine else won.name
        shown.append(
            LobbyGame(
                game=game,
                title=variant_title(game.variant),
                details=variant_details(game.variant),
                my_turn=row.my_turn,
                finished=finished,
                waiting_for=[line.name for line in seats if line.to_act and not line.mine],
                deadline=deadline,
                time_left=time_left(deadline, now) if deadline else "",
                seats=seats,
                invited_by=invited.get(game.pk),
                fixture=fixtures.get(game.pk),
                tournament=mark,
                round_deadline=round_deadline,
                aborted=game.pk in aborted,
                bot_played=game.pk in played_for,
                forfeit_winner="" if game.pk in aborted else forfeit_winner,
                practice_bots=tuple(
                    names[seat.number]
                    for seat in sorted(game.seats.all(), key=lambda seat: seat.number)
                    if seat.registered_bot_id is not None and seat.number < len(names)
                )
                if practice
                else (),
            )
        )
    return shown


def _urgency(row: GameRow) -> tuple[bool, bool, datetime.datetime]:
    """The lobby's order of running games: those waiting for the person first, the turn that
    ends soonest first (a turn of 4 minutes before one of 59), then those with no clock; newest
    activity first among equals (the order the rows come in: sorted() keeps it)."""
    return (not row.my_turn, row.deadline is None, row.deadline or _NO_DEADLINE)


_NO_DEADLINE = datetime.datetime.max.replace(tzinfo=datetime.UTC)


@login_required
@require_GET
def lobby(request: SignedInRequest) -> HttpResponse:
    """List the person's games: playing (their turn first), their turn only, or finished."""
    person = request.user
    tab = request.GET.get("show", "playing")
    if tab not in TABS:
        tab = "playing"
    older = None
    practice: list[GameRow] = []
    if tab == "finished":
        # A page at a time, the next after the last game shown (`before`, games/lobby.py).
        try:
            page = finished_page(person=person, before=boundary.integer(request.GET, "before"))
        except GameNotFound as error:
            raise Http404(error.message) from error
        rows, older = page.rows, page.before
        waiting = sum(row.my_turn for row in games_of(person=person, status="playing"))
    else:
        playing = games_of(person=person, status="playing")
        waiting = sum(row.my_turn for row in playing)
        rows = sorted(playing, key=_urgency)
        if tab == "my-turn":
            rows = [row for row in rows if row.my_turn]
        else:
            # Games of their bots they watch from no seat, after the games they play.
            practice = practice_rows(person)
    context = {
        "tab": tab,
        "tabs": TABS,
        "waiting": waiting,
        "games": lobby_games(rows, person) + lobby_games(practice, person, practice=True),
        # With no game running, how many are over: the empty Playing tab points to them rather
        # than say the person never played (counted only then).
        "finished": (
            finished_count(person=person) if tab == "playing" and not rows and not practice else 0
        ),
        # The finished tab's next page: the id of its last game, or None on the last page.
        "older": older,
        # Rematches others offered that wait for the person's answer (games/rematch.py).
        "rematch_offers": rematch.open_offers_for(person),
        # Open tables to join, the person's own, challenges for them (web/tables.py).
        **lobby_context(request),
        # Tournaments taking entries or running (web/tournaments.py has their pages).
        "tournaments": upcoming(),
        # The running seasons the person plays in, with their place and fixture now or next
        # (web/season_you.py): said even when they sit a round out or wait for the next.
        "your_seasons": running_seasons(person),
    }
    return render(request, "play/lobby.html", context)
