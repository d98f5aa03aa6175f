"""A season's tables and fixtures (templates/leagues/_season_tables.html, rendered from
web/season_tables.season_tables_context as the season page includes it) and the rulings on a
fixture (POST …/forfeit and …/retime): events in the fixture's game, refused to non-admins,
their refusals said as messages."""

from __future__ import annotations

import datetime
import re
from html import unescape

import pytest
import time_machine
from django.contrib.messages import get_messages
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from engine.events import FIXTURE_RETIMED, SEAT_FORFEITED
from games import event_reads
from games.models import Game, MatchResult
from league.models import Bye, Entry, Fixture, Season, Standing
from league.seasons import (
    fixture_forfeit,
    open_due_rounds,
    season_close,
    season_enter,
    season_start,
)
from league.standings import division_table
from tests.games.factories import make_user
from tests.league.factories import make_club, make_season
from tests.web.clients import signed_in
from tests.web.league_pages import (
    ONE_HAND,
    autumn_season,
    days_later,
    division_html,
    open_fixture_of,
    play_season_out,
    project,
    referee,
    season_level_on_nothing,
    table_rows,
    text,
)
from web.season_tables import season_tables_context

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def started(eager_tasks):
    """The autumn season started: each division's first round is open and the bots have
    played theirs (on commit, through the eager workers)."""
    season, ada, ben = autumn_season()
    season = season_start(season=season, admin=ada)
    project()
    return season, ada, ben


def tables(season: Season, viewer) -> str:
    return render_to_string("leagues/_season_tables.html", season_tables_context(season, viewer))


def fixture_html(html: str, fixture: Fixture) -> str:
    """The fixture's <li>, which holds an <li> per seat: it ends at the first "</li>" back at
    its own depth."""
    start = html.rindex("<li", 0, html.index(f'id="fixture-{fixture.pk}"'))
    depth = 0
    for tag in re.finditer(r"<li\b|</li>", html[start:]):
        depth += -1 if tag.group() == "</li>" else 1
        if depth == 0:
            return html[start : start + tag.end()]
    raise AssertionError(f"fixture {fixture.pk} is not closed")


def messages_of(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


# --------------------------------------------------------------------------- the tables


def test_each_division_lists_its_entrants_in_rank_order_with_shared_places_and_zones(started):
    season, ada, ben = started
    premier, challenger = season.divisions.order_by("tier")
    html = tables(season, ben)

    lower = table_rows(division_html(html, 2))
    assert [cells[1].split()[0] for _, cells in lower] == [
        line.name for line in division_table(challenger)
    ]
    # Round 1 of the Challenger: one bot won, one lost (scoring nothing in a one-hand match)
    # and one sat out: the last two share second place.
    (winner_class, winner), *rest = lower
    assert winner[0] == "1" and winner[1].endswith("bot ↑ promoted")
    assert "standing--up" in winner_class.split()
    assert [cells[0] for _, cells in rest] == ["2=", "2="]
    # League points (first after the name: on a phone the columns after it need a swipe),
    # played, wins, places: the winner's and the others'.
    assert winner[2:6] == ["1", "1", "1", "1 · 0"]
    assert sorted(cells[3] for _, cells in rest) == ["0", "1"]

    upper = table_rows(division_html(html, 1))
    # The Premier has no result yet (ada's game is open, Rex sat out): everyone is level on
    # nothing, and nobody is called relegated for coming last in entry order.
    assert [cells[0] for _, cells in upper] == ["1=", "1=", "1="]
    assert not any("↓" in cells[1] or "standing--down" in cls.split() for cls, cells in upper)
    assert "Nobody is marked until a result is in" in text(division_html(html, 1))
    marks = {cells[1].split()[0]: cells[1].split()[1] for _, cells in upper}
    assert marks == {"ada": "person", "Greta": "bot", "Rex": "bot"}
    # People link to their player page; bots have none.
    assert f'<a href="{reverse("web:player", args=["ada"])}">ada</a>' in html
    assert ">Greta</a>" not in html
    assert "How the tables are ordered" in html and "Head-to-head (H2H)" in html


def test_the_zones_note_says_how_many_go_up_and_down_in_words(started):
    """One goes up (not "the best 1 go up"); two go down."""
    season, _, ben = started
    premier, challenger = season.divisions.order_by("tier")

    lower = text(division_html(tables(season, ben), 2))
    assert "the best one goes up a division next season (as things stand)." in lower

    premier.relegate = 2
    premier.save(update_fields=["relegate"])
    upper = text(division_html(tables(season, ben), 1))
    assert "the last two go down a division (as things stand)." in upper


def test_no_one_goes_up_or_down_before_a_result_and_a_tie_on_the_line_is_said(eager_tasks):
    """A season started before its first round's day: every table is level on nothing, and
    neither the season page nor a player's page calls anyone promoted or relegated. Once a
    result is in, the zones show as things stand, and a shared place the line runs through
    says how it is drawn."""
    club, ada, (ben,) = make_club(admin=make_user("ada"), members=1)
    day = timezone.localdate() + datetime.timedelta(days=3)
    season = season_level_on_nothing(
        club, ada, ben, name="Winter League", slug="winter", start_date=day
    )

    html = signed_in(ben).get(reverse("web:season", args=["winter"])).content.decode()
    for tier, names in (
        (1, ["Greta bot", "Rex bot", "ada person"]),
        (2, [f"{ben} (you) person", "Cole bot", "Vera bot"]),
    ):
        rows = table_rows(division_html(html, tier))
        # ben's own line is marked as his (bold, "(you)"), and only his.
        assert [(cls, cells[:2]) for cls, cells in rows] == [
            ("standing standing--mine" if "(you)" in name else "standing", ["1=", name])
            for name in names
        ]
    assert text(html).count("Nobody is marked until a result is in") == 2
    for person in (ada, ben):
        seasons = text(Client().get(reverse("web:player", args=[person])).content.decode())
        assert "Winter League (running)" in seasons
        assert "promoted" not in seasons and "relegated" not in seasons

    # A result is in (the projection's rows, as a finished Greta-Rex match leaves them): Greta
    # first; Rex, beaten, and ada, yet to play, share second place on nothing, and the line
    # (one goes down) runs through it: entry order draws it, and the page says so.
    premier = season.divisions.get(tier=1)
    entries = {
        entry.bot.name if entry.bot else "ada": entry
        for entry in Entry.objects.filter(division_entry__division=premier).select_related("bot")
    }
    Standing.objects.create(
        division=premier,
        entry=entries["Greta"],
        played=1,
        wins=1,
        placements=[1, 0],
        league_points=2,
    )
    Standing.objects.create(division=premier, entry=entries["Rex"], played=1, placements=[0, 1])
    html = division_html(tables(season, ben), 1)
    rows = table_rows(html)
    assert [(cells[0], cells[1]) for _, cells in rows] == [
        ("1", "Greta bot"),
        ("2=", "Rex bot"),
        ("2=", "ada person ↓ relegated"),
    ]
    assert "Level across the line: Rex and ada (2nd)." in text(html)
    assert "Nobody is marked" not in text(html)


def test_fixtures_are_listed_by_round_with_results_links_and_byes(started):
    season, _, ben = started
    challenger = season.divisions.get(tier=2)
    html = tables(season, ben)
    lower = division_html(html, 2)

    played = Fixture.objects.get(division=challenger, round=1)
    result = MatchResult.objects.get(game_id=played.game_id)
    shown = fixture_html(lower, played)
    assert "Finished" in shown
    assert f'href="/games/{played.game_id}/"' in shown
    assert f'href="/games/{played.game_id}/replay/"' in shown
    for seat in played.seats.all():
        place = result.places[seat.number]
        assert f'{"1st" if place == 1 else "2nd"}</span> · <span class="score">' in shown
    (bye,) = Bye.objects.filter(division=challenger, round=1).select_related("entry__bot")
    round_one = lower[lower.index("Round 1") : lower.index("Round 2")]
    assert f"Sitting out: {bye.entry.bot.name}" in round_one
    # Round 1 is being played: it opened (never "opens" a day that has come); round 2 opens.
    assert "opened <time" in round_one and "deadline <time" in round_one
    assert "opens <time" not in round_one
    round_two = lower[lower.index("Round 2") : lower.index("Round 3")]
    assert "opens <time" in round_two

    later = Fixture.objects.get(division=challenger, round=2)
    assert "Scheduled" in fixture_html(lower, later)
    assert "/replay/" not in fixture_html(lower, later)
    assert lower.index("Round 1") < lower.index("Round 2") < lower.index("Round 3")


def test_a_round_opened_early_says_when_it_opened_on_the_page_and_in_the_api(started):
    """Round 1 of Challenger finished at once, so round 2 opens now, a week before its drawn
    day: its line says "opened" today, never the drawn day, played or finished."""
    season, _, ben = started
    challenger = season.divisions.get(tier=2)
    drawn = Fixture.objects.get(division=challenger, round=2).opens_at
    now = timezone.now()
    assert drawn > now + datetime.timedelta(days=6)
    open_due_rounds(season=season, now=now)
    early = Fixture.objects.get(division=challenger, round=2)
    assert early.game_id is not None
    lower = division_html(tables(season, ben), 2)
    round_two = text(lower[lower.index("Round 2") : lower.index("Round 3")])
    assert f"opened {now:%a} {now.day} {now:%b}" in round_two
    assert f"{drawn:%a} {drawn.day} {drawn:%b}" not in round_two.split("deadline")[0]
    assert "opens" not in round_two.split("deadline")[0]
    body = Client().get(f"/api/seasons/{season.competition.slug}/fixtures?round=2&division=2")
    (row,) = body.json()["rounds"][0]["fixtures"]
    assert row["status"] != "scheduled"  # the bots play it out at once
    assert row["opened_at"] == now.isoformat().replace("+00:00", "Z")
    assert row["opens_at"] == drawn.isoformat().replace("+00:00", "Z")


def test_a_seated_person_sees_their_turn_and_a_late_fixture_is_overdue(started):
    season, ada, ben = started
    fixture = open_fixture_of(season, ada)

    mine = fixture_html(tables(season, ada), fixture)
    assert "fixture--your-turn" in mine and "Your turn" in mine
    assert "ada (you)" in text(mine)
    assert "overdue" not in mine
    theirs = fixture_html(tables(season, ben), fixture)
    assert "Your turn" not in theirs and "Watch" in theirs

    with time_machine.travel(fixture.deadline + datetime.timedelta(hours=1), tick=False):
        late = fixture_html(tables(season, ben), fixture)
    assert "fixture--overdue" in late and ">overdue<" in late


def test_a_seated_person_plays_their_game_whoever_is_to_act(eager_tasks):
    """A person's own running game is theirs to play, not to watch, while another seat is to
    act; anyone else watches it."""
    club, ada, (ben, cy) = make_club(admin=make_user("ada"), members=2)
    season = make_season(club, ada, slug="two", variant=ONE_HAND, start_date=timezone.localdate())
    for person in (ada, ben):
        season_enter(season=season, actor=ada, user=person, tier=1)
    season_start(season=season, admin=ada)
    (fixture,) = Fixture.objects.filter(division__season=season).exclude(game=None)
    game = Game.objects.get(pk=fixture.game_id)
    (acting,) = game.seats.filter(number__in=game.to_act)
    waiting = ben if acting.user == ada else ada

    def link(person) -> str:
        return re.findall(
            r'<a href="/games/\d+/">(\w+)<', fixture_html(tables(season, person), fixture)
        )[0]

    assert (link(acting.user), link(waiting), link(cy)) == ("Play", "Play", "Watch")
    assert "Your turn" not in fixture_html(tables(season, waiting), fixture)


def test_admins_may_rule_on_open_fixtures_and_nobody_else_sees_how(started):
    season, ada, ben = started
    fixture = open_fixture_of(season, ada)
    finished = Fixture.objects.filter(division__season=season, game__status="match-over").first()
    forfeit = reverse("web:fixture-forfeit", args=["autumn", fixture.pk])

    as_admin = tables(season, ada)
    # ada plays in it: she may move its deadline, not forfeit a seat of it (staff or another
    # admin does, league.seasons.fixture_forfeit `own-fixture`).
    assert forfeit not in fixture_html(as_admin, fixture)
    assert "You play in this fixture, so you cannot forfeit a seat of it" in text(
        fixture_html(as_admin, fixture)
    )
    assert '<details class="rule">' in fixture_html(as_admin, fixture)
    assert '<details class="rule">' not in fixture_html(as_admin, finished)
    assert '<details class="rule">' not in tables(season, ben)
    staff = make_user()
    staff.is_staff = True
    staff.save()
    assert forfeit in tables(season, staff)


def test_a_draft_lists_its_entrants_unranked_and_no_fixtures():
    season, ada, _ = autumn_season()
    html = tables(season, ada)
    assert '<h2 id="season-tables-heading">Entrants</h2>' in html
    upper = table_rows(division_html(html, 1))
    assert [(cls, cells[:2]) for cls, cells in upper] == [
        ("standing standing--mine", ["–", "ada (you) person"]),
        ("standing", ["–", "Greta bot"]),
        ("standing", ["–", "Rex bot"]),
    ]
    assert "No fixtures yet: they are drawn when the season starts." in html
    assert "<details" not in html


# --------------------------------------------------------------------------- rulings


def test_a_forfeit_is_an_event_in_the_games_log_and_the_seat_is_played_out(started):
    season, ada, _ = started
    fixture = open_fixture_of(season, ada)
    seat = fixture.seats.get(entry__user=ada).number
    url = reverse("web:fixture-forfeit", args=["autumn", fixture.pk])

    response = signed_in(referee()).post(
        url, {"seat": seat, "note": "away all week", "confirm": "1"}
    )

    assert response.status_code == 302
    assert response["Location"] == f"/seasons/autumn/#fixture-{fixture.pk}"
    # A fixture of two: one seat left playing, the forfeit ends the match.
    assert messages_of(response) == [
        "ada forfeits: the match is over, won by the only seat left playing."
    ]
    (event,) = event_reads.load(fixture.game_id, types={SEAT_FORFEITED})
    assert (event["seat"], event["reason"], event["note"]) == (seat, "awarded", "away all week")
    # The default bot played the seat out on commit: the fixture is finished, ada last. The
    # fixture says so from the log while the result is not counted yet (as if the projection
    # had not run), and after.
    assert Game.objects.get(pk=fixture.game_id).status == Game.Status.MATCH_OVER
    result = MatchResult.objects.get(game_id=fixture.game_id)
    MatchResult.objects.filter(game_id=fixture.game_id).delete()
    ruled = "ada was forfeited by the league's ruling: “away all week”. Placed last."
    shown = fixture_html(tables(season, ada), fixture)
    assert "being counted" in shown and ">forfeited<" in shown and ruled in unescape(text(shown))
    result.save()
    project()
    shown = fixture_html(tables(season, ada), fixture)
    assert "Finished" in shown and ">forfeited<" in shown and ruled in unescape(text(shown))
    assert Standing.objects.get(entry__user=ada).forfeits == 1


def test_a_forfeit_needs_its_confirmation(started):
    season, ada, _ = started
    fixture = open_fixture_of(season, ada)
    version = Game.objects.get(pk=fixture.game_id).version
    url = reverse("web:fixture-forfeit", args=["autumn", fixture.pk])

    response = signed_in(ada).post(url, {"seat": 0, "note": ""})

    assert response.status_code == 302
    assert messages_of(response) == [
        "Nothing was ruled: confirm: tick the box to confirm the forfeit."
    ]
    assert Game.objects.get(pk=fixture.game_id).version == version


def test_a_new_deadline_is_an_event_and_moves_the_fixtures_deadline(started):
    season, ada, _ = started
    fixture = open_fixture_of(season, ada)
    new = days_later(10).replace(second=0, microsecond=0)
    url = reverse("web:fixture-retime", args=["autumn", fixture.pk])

    response = signed_in(ada).post(
        url, {"deadline": new.strftime("%Y-%m-%dT%H:%M"), "note": "ada is snowed in"}
    )

    assert response.status_code == 302
    (event,) = event_reads.load(fixture.game_id, types={FIXTURE_RETIMED})
    assert (event["deadline"], event["note"]) == (new.isoformat(), "ada is snowed in")
    assert Fixture.objects.get(pk=fixture.pk).deadline == new
    assert messages_of(response) == [
        f"The fixture's deadline is now {new.strftime('%a %-d %b %Y, %H:%M UTC')}."
    ]
    shown = fixture_html(tables(season, ada), fixture)
    assert f'Deadline moved to <time datetime="{new.isoformat(timespec="seconds")}">' in shown


def test_a_rulings_message_is_shown_in_its_fixture_and_else_at_the_top(started):
    """The season page shows a ruling's message in the fixture's box, where the redirect brings
    it, not at the top; a page without that fixture (another season's, opened first) shows it
    at the top rather than not at all."""
    season, ada, _ = started
    fixture = open_fixture_of(season, ada)
    client = signed_in(ada)
    url = reverse("web:fixture-retime", args=["autumn", fixture.pk])
    later = {"deadline": days_later(9).strftime("%Y-%m-%dT%H:%M")}

    page = client.get(client.post(url, later)["Location"]).content.decode()
    said = "The fixture&#x27;s deadline is now"
    assert said in fixture_html(page, fixture)
    assert page.count(said) == 1

    other = make_season(season.club, ada, slug="spring")
    client.post(url, later)
    page = client.get(reverse("web:season", args=[other.slug])).content.decode()
    top = page[page.index('<main id="main">') : page.index("<h1>")]
    assert said in top


def test_a_refused_ruling_is_said_and_changes_nothing(started):
    season, ada, _ = started
    fixture = open_fixture_of(season, ada)
    finished = Fixture.objects.filter(division__season=season, game__status="match-over").first()
    deadline = Fixture.objects.get(pk=fixture.pk).deadline

    # A client each: a message is shown once, on the page after the ruling.
    past = signed_in(ada).post(
        reverse("web:fixture-retime", args=["autumn", fixture.pk]),
        {"deadline": days_later(-1).strftime("%Y-%m-%dT%H:%M")},
    )
    over = signed_in(ada).post(
        reverse("web:fixture-forfeit", args=["autumn", finished.pk]), {"seat": 0, "confirm": "1"}
    )
    no_seat = signed_in(referee()).post(
        reverse("web:fixture-forfeit", args=["autumn", fixture.pk]), {"seat": 7, "confirm": "1"}
    )

    assert messages_of(past) == ["Nothing was ruled: the new deadline must be a future time."]
    assert messages_of(over) == [f"Nothing was ruled: {finished} is over."]
    # The form's value 7 is the log's index: said as a person counts seats, from 1.
    assert messages_of(no_seat) == [f"Nothing was ruled: game {fixture.game_id} has no seat 8."]
    assert Fixture.objects.get(pk=fixture.pk).deadline == deadline
    assert event_reads.load(fixture.game_id, types={FIXTURE_RETIMED, SEAT_FORFEITED}) == []


def test_only_the_clubs_admins_and_staff_may_rule(started):
    season, ada, ben = started
    fixture = open_fixture_of(season, ada)
    version = Game.objects.get(pk=fixture.game_id).version
    forfeit = reverse("web:fixture-forfeit", args=["autumn", fixture.pk])
    retime = reverse("web:fixture-retime", args=["autumn", fixture.pk])
    later = {"deadline": days_later(9).strftime("%Y-%m-%dT%H:%M")}

    for client in (signed_in(ben), Client()):
        refused = client.post(forfeit, {"seat": 0, "confirm": "1"})
        assert refused.status_code == 403
        assert "not-club-admin" in refused.content.decode()
        assert client.post(retime, later).status_code == 403
    assert Game.objects.get(pk=fixture.game_id).version == version

    staff = make_user()
    staff.is_staff = True
    staff.save()
    assert signed_in(staff).post(retime, later).status_code == 302
    assert len(event_reads.load(fixture.game_id, types={FIXTURE_RETIMED})) == 1


def test_a_fixture_of_another_season_or_none_is_not_found(started):
    season, ada, _ = started
    fixture = open_fixture_of(season, ada)
    client = signed_in(ada)

    def retime(slug: str, fixture_id: int) -> str:
        return reverse("web:fixture-retime", args=[slug, fixture_id])

    assert client.post(retime("spring", fixture.pk)).status_code == 404
    assert client.post(retime("autumn", 99999)).status_code == 404
    assert client.get(retime("autumn", fixture.pk)).status_code == 405


# --------------------------------------------------------------------------- the archive


def test_a_closed_season_shows_its_archived_final_tables(started):
    season, ada, ben = started
    play_season_out(season, ada)
    season_close(season=season, admin=ada)
    season.refresh_from_db()
    premier = season.divisions.get(tier=1)

    html = tables(season, ada)
    assert "Final tables" in html
    upper = table_rows(division_html(html, 1))
    assert [cells[1].split()[0] for _, cells in upper] == [
        line["name"] for line in premier.final_table
    ]
    # Every fixture finished: nothing left to rule, every table has its replay.
    assert '<details class="rule">' not in html
    assert html.count("/replay/") == Fixture.objects.filter(division__season=season).count()
    # The archive, not the projection: emptying the read model leaves the page as it was.
    Standing.objects.all().delete()
    assert tables(season, ada) == html


def test_the_season_pages_forfeits_come_from_the_results_and_its_queries_stay_flat(started):
    """Once a match is counted, its forfeits (who, why, the note) come from its result
    (MatchResult.forfeits): the season page reads no event of any game, and its queries do not
    grow with the games played and forfeited. Only a game not counted yet is read from the log
    (the test above), and a result folded before `forfeits` was kept (NULL) is too, to the same
    words."""
    season, ada, _ = started
    client = Client()

    def page() -> tuple[str, list[str]]:
        with CaptureQueriesContext(connection) as queries:
            response = client.get("/seasons/autumn/")
        assert response.status_code == 200
        return response.content.decode(), [query["sql"] for query in queries]

    fixture = open_fixture_of(season, ada)
    seat = fixture.seats.get(entry__user=ada).number
    fixture_forfeit(fixture=fixture, actor=referee(), seat=seat, note="no show")
    project()
    html, few = page()
    ruled = "ada was forfeited by the league's ruling: “no show”. Placed last."
    assert unescape(text(html)).count(ruled) == 1

    play_season_out(season, ada)
    html, more = page()

    forfeited = MatchResult.objects.exclude(forfeited=[])
    assert forfeited.count() == unescape(text(html)).count(ruled) > 1
    assert len(more) <= len(few), "\n".join(more)
    assert not [sql for sql in more if "games_gameevent" in sql or "games_archivedstream" in sql]
    # Results folded before they kept their forfeits: read from the log, the same page.
    forfeited.update(forfeits=None)
    legacy, _ = page()
    assert legacy == html
