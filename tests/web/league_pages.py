"""Set-up for the league pages' tests: a small season whose bots play their fixtures through the
eager workers (transactional tests with `eager_tasks`), and the rows of a page's tables as a
reader sees them."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

from django.test import TestCase
from django.utils import timezone

from games import projections
from games.models import Bot, Game
from league.models import Fixture, Season
from league.seasons import (
    DivisionSpec,
    fixture_forfeit,
    open_due_rounds,
    season_enter,
    season_start,
)
from tests.games.factories import make_user
from tests.league.factories import make_club, make_season

# One hand a match: the loser scores nothing, so a loser and the entrant who sat the round out
# share a place until they meet.
ONE_HAND = {"rules": "official", "options": {"scoring": "single-hand"}}


def named_bot(name: str, strategy: str = "greedy", owner: Any = None) -> Bot:
    return Bot.objects.create(
        owner=owner or make_user(),
        name=name,
        kind=Bot.Kind.BUILTIN,
        status=Bot.Status.ACTIVE,
        strategy=strategy,
    )


def autumn_season(admin_name: str = "ada", seed: int = 3) -> tuple[Season, Any, Any]:
    """A draft season of tables of two in two divisions: Premier (ada, the club's admin, and
    the bots Greta and Rex; the last goes down) and Challenger (Cole, Stacy and Vera; the
    first goes up). Three entrants to a division: one sits out each round. Returns the
    season, ada and ben (a member who entered nothing)."""
    club, ada, (ben,) = make_club(admin=make_user(admin_name), members=1)
    season = make_season(
        club,
        ada,
        name="Autumn League",
        slug="autumn",
        variant=ONE_HAND,
        seed=seed,
        start_date=timezone.localdate(),
        divisions=[DivisionSpec("Premier", relegate=1), DivisionSpec("Challenger", promote=1)],
    )
    season_enter(season=season, actor=ada, user=ada, tier=1)
    for name, strategy in (("Greta", "greedy"), ("Rex", "random")):
        season_enter(season=season, actor=ada, bot=named_bot(name, strategy, ada), tier=1)
    for name, strategy in (("Cole", "colour-control"), ("Stacy", "stacker"), ("Vera", "greedy")):
        season_enter(season=season, actor=ada, bot=named_bot(name, strategy, ada), tier=2)
    return season, ada, ben


def season_level_on_nothing(
    club: Any, ada: Any, ben: Any, *, name: str, slug: str, start_date: datetime.date
) -> Season:
    """A season of `club` started (its first round due on `start_date`) with nobody having
    played: Premier in entry order Greta, Rex (bots) then ada; Challenger ben, then the bots
    Cole and Vera. The last of the Premier goes down, the first of the Challenger up: the
    places entry order alone would put in the zones."""
    season = make_season(
        club,
        ada,
        name=name,
        slug=slug,
        variant={"rules": "official", "options": {"scoring": "single-hand"}},
        start_date=start_date,
        divisions=[DivisionSpec("Premier", relegate=1), DivisionSpec("Challenger", promote=1)],
    )
    for bot in ("Greta", "Rex"):
        season_enter(season=season, actor=ada, bot=named_bot(bot, owner=ada), tier=1)
    season_enter(season=season, actor=ada, user=ada, tier=1)
    season_enter(season=season, actor=ada, user=ben, tier=2)
    for bot in ("Cole", "Vera"):
        season_enter(season=season, actor=ada, bot=named_bot(bot, owner=ada), tier=2)
    return season_start(season=season, admin=ada)


def referee(username: str = "referee") -> Any:
    """A staff member, who rules on a fixture its club's admin plays in (the one of that name,
    made once)."""
    from django.contrib.auth import get_user_model

    staff = get_user_model().objects.filter(username=username).first() or make_user(username)
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    return staff


def open_fixture_of(season: Season, user: Any) -> Fixture:
    """The person's first open fixture, opening rounds (the bots play theirs) until there is
    one."""
    for _ in range(5):
        fixture = (
            Fixture.objects.filter(division__season=season, seats__entry__user=user)
            .exclude(game=None)
            .exclude(game__status=Game.Status.MATCH_OVER)
            .first()
        )
        if fixture is not None:
            return fixture
        open_due_rounds(season=season)
    raise AssertionError(f"{user} has no open fixture")


def run(call: Callable[[], Any]) -> Any:
    return call()


def with_on_commit(call: Callable[[], Any]) -> Any:
    """`call()`, then the on-commit callbacks it left (and theirs), as a commit would run them:
    for set-up made once inside a class's transaction (tests/conftest.py, class_transaction)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return call()


def project() -> None:
    projections.run("game-results")
    projections.run("league-standings")
    projections.run("player-families")


def play_season_out(
    season: Season, admin: Any, committed: Callable[[Callable[[], Any]], Any] = run
) -> None:
    """Every round, in turn: the bots play on commit; a person's seat is ruled forfeit (the
    default bot then plays it out) by `admin`, or by a staff referee in a fixture `admin` plays
    in (nobody rules on their own fixture). Stops when every fixture has finished. `committed`
    runs each step (inside a test's transaction: with its on-commit callbacks run, see
    `with_on_commit`)."""
    staff = None
    for _ in range(20):
        committed(lambda: open_due_rounds(season=season))
        waiting = Fixture.objects.filter(division__season=season).exclude(
            game__status=Game.Status.MATCH_OVER
        )
        if not waiting.exists():
            project()
            return
        for fixture in waiting.exclude(game=None):
            ruler = admin
            if fixture.seats.filter(entry__user=admin).exists():
                staff = staff or referee()
                ruler = staff
            for seat in fixture.seats.filter(entry__user__isnull=False):
                committed(
                    lambda fixture=fixture, seat=seat, ruler=ruler: fixture_forfeit(
                        fixture=fixture, actor=ruler, seat=seat.number, note="no show"
                    )
                )
    raise AssertionError("the season did not finish")


def table_of_four() -> tuple[Any, Any, Fixture, Any, Any]:
    """A club's season of one table of four, started: the people ben and cal and the bots Greta
    and Rex, entered by the club's admin ada. Returns the club, ada, the fixture, ben and cal."""
    club, ada, _ = make_club(admin=make_user("ada"))
    ben, cal = make_user("ben"), make_user("cal")
    for person in (ben, cal):
        club.memberships.create(user=person)
    season = make_season(
        club,
        ada,
        seats_per_game=4,
        name="Spring",
        slug="spring",
        variant={"rules": "official", "options": {"scoring": "winner-takes", "target": 100}},
        start_date=timezone.localdate(),
        divisions=[DivisionSpec("Premier")],
    )
    for person in (ben, cal):
        season_enter(season=season, actor=ada, user=person, tier=1)
    for name in ("Greta", "Rex"):
        season_enter(season=season, actor=ada, bot=named_bot(name, owner=ada), tier=1)
    season_start(season=season, admin=ada)
    return club, ada, Fixture.objects.get(division__season=season, round=1), ben, cal


def two_seats_forfeited() -> tuple[Any, Fixture, Any, Any]:
    """`table_of_four`, where the admin rules ben's and cal's seats forfeited as the fixture
    opens, so the default bot plays both seats the whole match (the bots play on commit) and the
    match ends. Returns the club, the fixture, ben and cal."""
    club, ada, fixture, ben, cal = table_of_four()
    for person in (ben, cal):
        seat = fixture.seats.get(entry__user=person).number
        assert fixture_forfeit(fixture=fixture, actor=ada, seat=seat, note="no show")
    assert Game.objects.get(pk=fixture.game_id).status == Game.Status.MATCH_OVER
    project()
    return club, fixture, ben, cal


def fixture_of_two(**fields: Any) -> tuple[Any, Fixture, Game, Any, Any]:
    """A club season's open fixture of two seats, "Season 1" of its club (the season's
    `fields` as given): wes and fiona, both members, with email addresses. Returns the admin,
    the fixture, its game, the person whose turn it is, and the other."""
    club, ada, _ = make_club(admin=make_user("ada"))
    wes, fiona = make_user("wes"), make_user("fiona")
    for person in (wes, fiona):
        person.email = f"{person.username}@example.com"
        person.save()
        club.memberships.create(user=person)
    season = make_season(
        club,
        ada,
        name="Season 1",
        slug="s1",
        start_date=timezone.localdate(),
        divisions=[DivisionSpec("Premier")],
    )
    for person in (wes, fiona):
        season_enter(season=season, actor=ada, user=person, tier=1)
    season_start(season=season, admin=ada)
    fixture = Fixture.objects.get(division__season=season, round=1)
    game = Game.objects.get(pk=fixture.game_id)
    to_act = fixture.seats.get(number=game.to_act[0]).entry.user
    return ada, fixture, game, to_act, fiona if to_act == wes else wes


def days_later(days: float) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(days=days)


class _Rows(HTMLParser):
    """Each `<tr>` of the page: its class and its cells' text, spaces collapsed."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, list[str]]] = []
        self._cell: list[str] | None = None
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        if tag == "tr":
            self.rows.append((classes, []))
        elif tag in ("td", "th") and self.rows:
            self._cell = []
        elif tag == "span" and self._cell is not None:
            # Text for screen readers only repeats what the cell shows.
            self._hidden += 1 if "visually-hidden" in classes or self._hidden else 0

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1][1].append(re.sub(r"\s+", " ", "".join(self._cell)).strip())
            self._cell = None
        elif tag == "span" and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if self._cell is not None and not self._hidden:
            self._cell.append(data)


def table_rows(html: str, row_class: str = "standing") -> list[tuple[str, list[str]]]:
    """The rows whose class includes `row_class`: (class, cell texts)."""
    parser = _Rows()
    parser.feed(html)
    return [(cls, cells) for cls, cells in parser.rows if row_class in cls.split()]


def text(html: str) -> str:
    """What a reader sees of `html`: the text without its tags, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def division_html(html: str, tier: int) -> str:
    """The part of a season's tables that shows division `tier`."""
    start = html.index(f'id="division-{tier}"')
    end = html.find('<section class="division"', start + 1)
    return html[start : end if end != -1 else len(html)]
