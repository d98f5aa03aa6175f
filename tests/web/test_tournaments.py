"""The tournament pages (web/tournaments.py): the list by status, a tournament's page with its
entry, rounds, tables linked to their games and standings marking each entrant person or bot,
entering and withdrawing with refusals in words, the new-tournament form, and the links from
the lobby and a club's page."""

from __future__ import annotations

import datetime
import re
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone

from games import projections
from games.models import Game, Seat
from league.clubs import club_create
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import make_tournament, play_out, play_round
from tests.web.clients import signed_in
from tests.web.league_pages import table_rows, text
from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.rounds import tournament_advance
from tournaments.services import tournament_enter, tournament_start
from tournaments.standings import standings

pytestmark = pytest.mark.django_db


def test_a_person_enters_from_the_page_and_the_page_shows_the_round_and_standings():
    ana = make_user("ana")
    organiser = make_user("olga")
    cup = make_tournament(organiser, name="Winter Swiss", slug="winter", table_size=3, rounds=2)
    client = signed_in(ana)
    page = client.get("/tournaments/winter/")
    assert "Enter yourself" in text(page.content.decode())

    entered = client.post("/tournaments/winter/enter", {"bot": ""}, follow=True)
    assert "You are entered in Winter Swiss." in text(entered.content.decode())
    again = client.post("/tournaments/winter/enter", {"bot": ""}, follow=True)
    assert "ana is already entered in Winter Swiss." in text(again.content.decode())
    for _ in range(2):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=organiser)

    html = client.get("/tournaments/winter/").content.decode()
    (table,) = TournamentGame.objects.filter(round__tournament=cup)
    assert f'href="/games/{table.game_id}/"' in html
    assert "Round 1" in text(html)
    rows = table_rows(html, "standing")
    kinds = sorted(cells[1].split()[-1] for _, cells in rows)
    assert kinds == ["bot", "bot", "person"]

    # Withdrawing mid-round forfeits ana's seat: the default bot plays it out.
    left = client.post("/tournaments/winter/withdraw", {"bot": ""}, follow=True)
    assert "You have withdrawn from Winter Swiss." in text(left.content.decode())
    assert Entry.objects.get(user=ana).withdrawn
    play_round(cup)
    tournament_advance(cup)
    projections.run("tournament-results")
    rows = table_rows(client.get("/tournaments/winter/").content.decode(), "standing")
    assert sum(int(cells[3]) for _, cells in rows) == 3  # three seats played one table
    (mine,) = [cells for _, cells in rows if "ana" in cells[1]]
    assert "withdrew" in mine[1] and mine[6] == "1"  # one forfeit


def test_a_bot_in_a_people_only_tournament_is_refused_in_words():
    ana = make_user()
    make_tournament(slug="people", bots_allowed=False)
    bot = make_bot()
    bot.owner = ana
    bot.save()
    client = signed_in(ana)
    page = client.get("/tournaments/people/").content.decode()
    assert f"Enter {bot.name}" not in page and "people only" in text(page)
    refused = client.post("/tournaments/people/enter", {"bot": bot.pk}, follow=True)
    assert "is for people only" in text(refused.content.decode())
    assert not Entry.objects.exists()


def test_the_list_the_lobby_and_a_club_page_show_the_tournaments():
    ana = make_user()
    club = club_create(name="Riverside", creator=ana)
    make_tournament(ana, name="Club Cup", slug="club-cup", club=club)
    done = make_tournament(name="Old Cup", slug="old-cup")
    Tournament.objects.filter(pk=done.pk).update(status="finished")
    listing = text(Client().get("/tournaments/").content.decode())
    assert listing.index("Taking entries") < listing.index("Club Cup")
    assert listing.index("Finished") < listing.index("Old Cup")
    client = signed_in(ana)
    lobby = client.get("/play/").content.decode()
    assert 'href="/tournaments/club-cup/"' in lobby and "Old Cup" not in lobby
    club_page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert 'href="/tournaments/club-cup/"' in club_page
    assert f'href="/tournaments/new/?club={club.slug}"' in club_page


def test_a_clubs_page_lists_its_finished_tournaments_with_their_winner():
    """A finished club tournament left the club's page ("No tournament is taking entries or
    running."), its results only at /tournaments/: the page lists the last finished, linked,
    each with who won it."""
    ana = make_user("ana")
    club = club_create(name="Office", creator=ana)
    cup = make_tournament(
        ana, name="Office Cup", slug="office-cup", club=club, table_size=2, rounds=1
    )
    for _ in range(2):
        tournament_enter(cup, actor=ana, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=ana)
    play_round(cup)
    tournament_advance(cup)
    projections.run("tournament-results")
    cup.refresh_from_db()
    assert cup.status == "finished"
    (winner,) = [line.name for line in standings(cup) if line.rank == 1]
    other = make_tournament(ana, name="Elsewhere Cup", slug="elsewhere")
    Tournament.objects.filter(pk=other.pk).update(status="finished")
    html = signed_in(ana).get(f"/clubs/{club.slug}/").content.decode()
    words = unescape(text(html))
    assert "No tournament is taking entries or running." in words
    assert 'href="/tournaments/office-cup/"' in html
    assert (
        f"Finished Office Cup Swiss · finished {cup.finished_at:%-d %b %Y} · won by {winner}"
        in (words)
    )
    assert "Elsewhere Cup" not in words  # another club's (or none): not this page's


def test_the_new_tournament_form_makes_one_and_refuses_in_words():
    ana = make_user()
    client = signed_in(ana)
    assert client.get("/tournaments/new/").status_code == 200
    form = _new_form(name="Spring Swiss", seed_by="draw")
    made = client.post("/tournaments/new/", form)
    assert made.status_code == 302 and made["Location"] == "/tournaments/spring-swiss/"
    cup = Tournament.objects.get(slug="spring-swiss")
    assert (cup.organiser, cup.round_seconds, cup.bots_allowed) == (ana, 86400, True)
    assert cup.seed_by == "draw"
    taken = client.post("/tournaments/new/", form)
    assert "The address 'spring-swiss' is taken." in unescape(text(taken.content.decode()))
    assert Tournament.objects.filter(slug="spring-swiss").count() == 1


def test_an_arena_entrant_pauses_and_resumes_from_its_page():
    ana = make_user("ana")
    organiser = make_user("olga")
    cup = make_tournament(organiser, name="Night Arena", slug="night", format="arena", table_size=2)
    client = signed_in(ana)
    client.post("/tournaments/night/enter", {"bot": ""})
    for _ in range(2):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=organiser)
    page = text(client.get("/tournaments/night/").content.decode())
    assert "Pause" in page and "Withdraw yourself" in page

    paused = text(
        client.post("/tournaments/night/pause", {"bot": ""}, follow=True).content.decode()
    )
    assert "You are paused in Night Arena: not seated again until resumed." in paused
    assert "Resume" in paused
    rows = table_rows(client.get("/tournaments/night/").content.decode(), "standing")
    (ana_row,) = [cells for _, cells in rows if cells[1].startswith("ana")]
    assert "paused" in ana_row[1]

    back = client.post("/tournaments/night/pause", {"bot": "", "resume": "1"}, follow=True)
    assert "You are back in Night Arena: seated when a table fills." in text(back.content.decode())
    assert not Entry.objects.get(tournament=cup, user=ana).paused
    twice = client.post("/tournaments/night/pause", {"bot": "", "resume": "1"}, follow=True)
    assert "ana is not paused" in text(twice.content.decode())


def test_a_tournament_games_play_page_tags_each_seat_and_links_back():
    ana = make_user("ana")
    cup = make_tournament(ana, slug="tags", table_size=3, rounds=1)
    tournament_enter(cup, actor=ana, user=ana)
    for _ in range(2):
        tournament_enter(cup, actor=ana, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=ana)
    (table,) = TournamentGame.objects.filter(round__tournament=cup)
    for viewer in (signed_in(ana), Client()):
        html = viewer.get(f"/games/{table.game_id}/").content.decode()
        kinds = sorted(
            re.findall(r'<span class="tag" title="a (?:bot|person)" data-kind="(\w+)"', html)
        )
        assert kinds == ["bot", "bot", "person"]
        # The table links back to its tournament.
        assert 'href="/tournaments/tags/"' in html and "round 1, table 1" in text(html)


def test_a_person_enters_a_running_swiss_late_from_its_page():
    organiser = make_user("oscar")
    bea = make_user("bea")
    cup = make_tournament(organiser, name="Late Swiss", slug="late", table_size=2, rounds=2)
    for _ in range(2):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=organiser)
    client = signed_in(bea)
    page = text(client.get("/tournaments/late/").content.decode())
    assert "Enter yourself late" in page
    assert "drawn from the next round, with no points for the rounds you missed" in page

    entered = client.post("/tournaments/late/enter", {"bot": ""}, follow=True)
    assert "You are entered in Late Swiss." in text(entered.content.decode())
    assert Entry.objects.filter(tournament=cup, user=bea, withdrawn=False).exists()
    # In now: the page no longer tells her what entering late would mean for her, under her
    # "Withdraw yourself"; her bot, not entered, may still enter late: it is told of the bot.
    page = text(client.get("/tournaments/late/").content.decode())
    assert "Withdraw yourself" in page and "Entering late" not in page
    assert "rounds you missed" not in page
    make_bot(owner=bea, strategy="greedy")
    page = text(client.get("/tournaments/late/").content.decode())
    assert "Withdraw yourself" in page and "Entering late" not in page
    assert (
        "A bot entered late is drawn from the next round, with no points for the rounds it missed."
    ) in page

    # Round 2 of 2 drawn: nobody may enter any more, and the page offers no entry.
    play_round(cup)
    assert tournament_advance(cup)
    carl = signed_in(make_user("carl"))
    assert "Enter yourself late" not in text(carl.get("/tournaments/late/").content.decode())
    refused = carl.post("/tournaments/late/enter", {"bot": ""}, follow=True)
    assert "entry to Late Swiss is closed" in text(refused.content.decode())


def _new_form(**changes: str) -> dict[str, str]:
    closes = (timezone.now() + datetime.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    return {
        "name": "Autumn Swiss",
        "slug": "",
        "rules": "official",
        "format": "swiss",
        "table_size": "4",
        "rounds": "3",
        "round_hours": "24",
        "turn_seconds": "300",
        "entry_closes": closes,
        "max_entrants": "16",
        "bots_allowed": "on",
        "club": "",
        "seed_by": "rating",
        **changes,
    }


def _field_errors(html: str, field: str) -> str:
    """The words of a field's own error list, by the field (Django's field group)."""
    found = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', html, re.S)
    return unescape(text(found.group(1))) if found else ""


def test_the_new_tournament_forms_defaults_fit_and_a_turn_longer_than_a_round_is_refused():
    client = signed_in(make_user())
    html = client.get("/tournaments/new/").content.decode()
    # The defaults: a day's rounds, 5-minute turns, matches to 100 (web/tournaments.py).
    assert re.search(r'name="round_hours" value="24"', html)
    assert re.search(r'<option value="300" selected>5 minutes</option>', html)
    assert re.search(r'name="target" value="100"', html)
    assert "the site&#x27;s default" not in html  # no blank turn of days
    refused = client.post("/tournaments/new/", _new_form(turn_seconds=str(3 * 86400)))
    words = _field_errors(refused.content.decode(), "turn_seconds")
    assert "3 days is longer than a round (1 day)" in words
    assert not Tournament.objects.exists()
    # An arena's length forfeits nobody: its turns may be longer.
    made = client.post("/tournaments/new/", _new_form(format="arena", turn_seconds="86400"))
    assert made.status_code == 302


def test_the_forms_errors_name_their_field_in_its_words_and_sit_by_it():
    client = signed_in(make_user())
    past = (timezone.now() - datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    html = client.post("/tournaments/new/", _new_form(entry_closes=past)).content.decode()
    assert "has passed: entry must close, and the tournament start, at a later time." in (
        _field_errors(html, "entry_closes")
    )
    assert "entry closes after it opens" not in html
    # The summary above the form names the field and links to it.
    assert 'href="#id_entry_closes">Entry closes (UTC):' in html
    bad = client.post("/tournaments/new/", _new_form(slug="my cup!")).content.decode()
    assert "An address takes only letters, digits and hyphens" in _field_errors(bad, "slug")
    assert "slug" not in unescape(text(bad)).replace("/tournaments/", "")
    assert not Tournament.objects.exists()


def test_a_tournament_games_lobby_card_names_its_tournament_and_the_rounds_deadline():
    ana = make_user("ana")
    cup = make_tournament(
        ana, name="Demo Open", slug="demo-open", table_size=2, rounds=1, turn_seconds=86400
    )
    tournament_enter(cup, actor=ana, user=ana)
    tournament_enter(cup, actor=ana, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=ana)
    (table,) = TournamentGame.objects.filter(round__tournament=cup)
    # Three-day turns under a day's round, as a game drawn before the cap was made: the card
    # shows the round's deadline all the same.
    deadline = table.round.deadline
    Seat.objects.filter(game_id=table.game_id, user=ana).update(
        deadline_at=deadline + datetime.timedelta(days=2)
    )
    Game.objects.filter(pk=table.game_id).update(to_act=[0, 1])
    html = signed_in(ana).get("/play/").content.decode()
    words = text(html)
    assert 'href="/tournaments/demo-open/#round-1"' in html
    assert "Tournament Demo Open · round 1, table 1" in words
    shown = f"(until {deadline:%a} {deadline.day} {deadline:%b}, {deadline:%H:%M} UTC"
    assert shown + " , the round deadline)" in words, words
    # The round is on the tournament's page under that anchor.
    assert 'id="round-1"' in signed_in(ana).get("/tournaments/demo-open/").content.decode()


def test_the_page_says_how_points_are_given_and_when_entries_closed():
    ana = make_user("ana")
    cup = make_tournament(ana, name="Points Cup", slug="points", table_size=3, rounds=1)
    page = text(Client().get("/tournaments/points/").content.decode())
    assert "entry " in page and "Entries closed" not in page
    for _ in range(4):
        tournament_enter(cup, actor=ana, bot=make_bot(strategy="greedy"))
    tournament_start(cup, actor=ana)
    cup.refresh_from_db()
    html = Client().get("/tournaments/points/").content.decode()
    words = unescape(text(html))
    assert (
        "Points by place at each table: 2/1/0 at a table of 3; a table a seat short spreads them"
    ) in words
    assert 'href="/guides/playing-tournaments/#swiss-rounds"' in html
    started = cup.started_at
    assert f"entries closed {started.day} {started:%b %H:%M} UTC" in words
    assert cup.entry_closes.strftime("%H:%M") not in words.split("entries closed")[0][-40:]
    # Two tables of two under tables of three: 5/3 and 1/3, shown to two places (not 1.7, 0.3).
    for table in TournamentGame.objects.filter(round__tournament=cup):
        play_out(table.game_id)
    projections.run("tournament-results")
    words = text(Client().get("/tournaments/points/").content.decode())
    assert "place 1, 1.67 points" in words and "place 2, 0.33 points" in words
    knockout = make_tournament(ana, slug="ko", format="knockout", table_size=2)
    words = text(Client().get(f"/tournaments/{knockout.slug}/").content.decode())
    assert "then the place at that table; the winner of each table goes through" in words
    guide = Client().get("/guides/playing-tournaments/")
    assert guide.status_code == 200 and 'id="swiss-rounds"' in guide.content.decode()
    moved = Client().get("/guides/tournaments/")
    assert (moved.status_code, moved["Location"]) == (301, "/guides/playing-tournaments/")


def test_the_standings_show_no_place_before_the_start_and_shared_places_with_equals():
    """Before the start every entrant showed "1", and a tie "5" and "5", where a season's table
    says "–" and "3=": the same words here."""
    organiser = make_user("olga")
    cup = make_tournament(organiser, name="Tie Swiss", slug="ties", table_size=2, rounds=2)
    for _ in range(4):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy="greedy"))

    def places() -> list[str]:
        rows = table_rows(Client().get("/tournaments/ties/").content.decode(), "standing")
        return [cells[0] for _, cells in rows]

    assert places() == ["–"] * 4
    tournament_start(cup, actor=organiser)
    assert places() == ["1="] * 4  # nobody has played: all level
    play_round(cup)
    tournament_advance(cup)
    projections.run("tournament-results")
    ranks = [line.rank for line in standings(Tournament.objects.get(pk=cup.pk))]
    assert places() == [f"{r}=" if ranks.count(r) > 1 else str(r) for r in ranks]


def test_start_now_asks_first_and_a_post_without_the_confirmation_starts_nothing():
    """ "Start now" acted at once; like "Close the season…" it asks first, on a page."""
    organiser = make_user("olga")
    cup = make_tournament(organiser, name="Ask Cup", slug="ask", table_size=2, rounds=2)
    for _ in range(2):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy="greedy"))
    client = signed_in(organiser)

    page = text(client.get("/tournaments/ask/").content.decode())
    assert "Start now…" in page
    question = client.get("/tournaments/ask/start")
    shown = unescape(text(question.content.decode()))
    assert "Start Ask Cup now?" in shown and "2 entrants so far" in shown
    assert "This cannot be undone." in shown and 'name="confirm"' in question.content.decode()

    unconfirmed = client.post("/tournaments/ask/start")
    assert unconfirmed.status_code == 302 and unconfirmed["Location"] == "/tournaments/ask/start"
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.OPEN

    started = client.post("/tournaments/ask/start", {"confirm": "1"}, follow=True)
    assert "Ask Cup has started: round 1 is drawn." in text(started.content.decode())
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.RUNNING
    assert signed_in(make_user("nosy")).get("/tournaments/ask/start").status_code == 404
