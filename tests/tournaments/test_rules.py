"""A tournament's rules around the rounds: people only means no bot enters and none is seated;
the round deadline forfeits whoever still plays; a round's last game ending opens the next
through the dispatcher; entry closing starts it; a round start tells the people seated
(tournaments/services.py, tournaments/dispatch.py)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from engine import MATCH_OVER
from engine.events import SEAT_FORFEITED
from games import event_reads
from games.models import Game, Seat
from league.clubs import club_create
from league.models import Membership
from social.models import Notification
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import current_round, make_tournament
from tournaments import tasks
from tournaments.errors import NotOrganiser, TournamentEntryRefused
from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.rounds import forfeit_overdue, start_due, tournament_advance
from tournaments.services import tournament_enter, tournament_start
from tournaments.standings import live_standings

pytestmark = pytest.mark.django_db


def people_cup(count: int, **fields):
    organiser = make_user()
    cup = make_tournament(organiser, bots_allowed=False, table_size=2, rounds=1, **fields)
    people = [make_user() for _ in range(count)]
    for person in people:
        tournament_enter(cup, actor=person, user=person)
    return cup, organiser, people


def test_people_only_refuses_bots_and_seats_no_bot_with_a_person():
    cup, organiser, people = people_cup(4)
    with pytest.raises(TournamentEntryRefused) as refused:
        tournament_enter(cup, actor=organiser, bot=make_bot())
    assert refused.value.code == "bots-not-allowed"
    tournament_start(cup, actor=organiser)
    seats = Seat.objects.filter(game__tournament_table__round__tournament=cup)
    assert seats.count() == 4
    assert sorted(seats.values_list("user_id", flat=True)) == sorted(p.pk for p in people)
    assert not seats.filter(registered_bot__isnull=False).exists()
    assert set(seats.values_list("bot", flat=True)) == {""}
    # Each person hears their table waits, with a link to its game.
    for person in people:
        (notice,) = Notification.objects.filter(user=person, kind="tournament")
        game = seats.get(user=person).game_id
        assert notice.url == f"/games/{game}/" and "round 1 started" in notice.text


def test_the_round_deadline_forfeits_the_people_still_playing_and_the_round_ends():
    cup, organiser, people = people_cup(2, round_seconds=3600)
    tournament_start(cup, actor=organiser)
    round_ = current_round(cup)
    (table,) = TournamentGame.objects.filter(round=round_)
    assert forfeit_overdue(now=round_.deadline - datetime.timedelta(seconds=1)) == 0
    assert forfeit_overdue(now=round_.deadline + datetime.timedelta(seconds=1)) == 2
    forfeits = event_reads.load(table.game_id, types={SEAT_FORFEITED})
    assert sorted(e["seat"] for e in forfeits) == [0, 1]
    # Each person is told under the bell, by what and what happens now.
    for person in people:
        (notice,) = Notification.objects.filter(user=person, key__startswith="forfeit:")
        assert notice.text == (
            f"Your seat in game {table.game_id} was forfeited by the round's deadline in "
            f"{cup.name}. The match ended with it, and your seat is placed last."
        )
        assert notice.kind == "tournament"
    # Forfeited together, in one append: the match ends with nobody playing on, neither seat
    # wins; the round, the tournament's last, ends.
    (ended,) = event_reads.load(table.game_id, types={"match-ended"})
    assert (ended["winner"], ended["places"]) == (None, [1, 1])
    assert tournament_advance(cup)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert [line.forfeits for line in live_standings(cup)] == [1, 1]


def test_a_rounds_last_game_ending_opens_the_next_through_the_dispatcher(
    django_capture_on_commit_callbacks, eager_tasks
):
    organiser = make_user()
    cup = make_tournament(organiser, table_size=3, rounds=2)
    for _ in range(3):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy="greedy"))
    # The eager workers play the bots' games as they are made; each match's end asks the
    # tournament to advance (tournaments/dispatch.py), which draws the next round.
    with django_capture_on_commit_callbacks(execute=True):
        tournament_start(cup, actor=organiser)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    games = Game.objects.filter(tournament_table__round__tournament=cup)
    assert games.count() == 2 and set(games.values_list("status", flat=True)) == {MATCH_OVER}


def test_entry_closing_starts_it_or_finishes_one_too_few_entered():
    cup, _, _ = people_cup(2)
    lonely, _, _ = people_cup(1)
    assert start_due(now=timezone.now()) == 0
    assert start_due(now=timezone.now() + datetime.timedelta(days=2)) == 1
    cup.refresh_from_db()
    lonely.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING and current_round(cup).number == 1
    assert lonely.status == Tournament.Status.FINISHED and not lonely.round_set.exists()


def test_a_clubs_tournament_is_run_by_its_admins_and_entered_by_its_members():
    admin, member, stranger = make_user(), make_user(), make_user()
    club = club_create(name="Riverside", creator=admin)
    Membership.objects.create(club=club, user=member)
    with pytest.raises(NotOrganiser) as refused:
        make_tournament(member, club=club)
    assert refused.value.code == "not-club-admin"
    with pytest.raises(NotOrganiser) as refused:
        make_tournament(member, site_wide=True)
    assert refused.value.code == "not-staff"
    cup = make_tournament(admin, club=club)
    assert tournament_enter(cup, actor=member, user=member).user == member
    with pytest.raises(TournamentEntryRefused) as refused:
        tournament_enter(cup, actor=stranger, user=stranger)
    assert refused.value.code == "not-a-member"
    # Someone else's bot is entered by its owner or the organiser, nobody else.
    with pytest.raises(NotOrganiser) as refused:
        tournament_enter(cup, actor=member, bot=make_bot())
    assert refused.value.code == "not-your-bot"
    assert not Entry.objects.filter(tournament=cup, bot__isnull=False).exists()
    # A stranger's own bot is no member's either; a member's is, and the organiser may enter any.
    with pytest.raises(TournamentEntryRefused) as refused:
        tournament_enter(cup, actor=stranger, bot=make_bot(owner=stranger))
    assert refused.value.code == "not-a-member"
    assert tournament_enter(cup, actor=member, bot=make_bot(owner=member)).bot is not None
    assert tournament_enter(cup, actor=admin, bot=make_bot(owner=stranger)).bot is not None


def test_beats_sweep_starts_a_tournament_whose_entry_closed():
    organiser = make_user()
    now = timezone.now()
    cup = make_tournament(
        organiser,
        table_size=2,
        entry_opens=now - datetime.timedelta(hours=2),
        entry_closes=now - datetime.timedelta(hours=1),
    )
    for _ in range(2):
        Entry.objects.create(tournament=cup, bot=make_bot())
    tasks.sweep()
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING
    assert TournamentGame.objects.filter(round__tournament=cup).count() == 1
