"""Knockout cups, arenas and duplicate events with people at the tables, not only bots: each
person moves their own seat through games' command service (a move the greedy strategy picks
from their view), the bots through their driver, every format to its end; a person withdraws,
pauses and resumes; and the standings are those a rebuild of `tournament-results` gives
(tournaments/services.py, tournaments/standings.py). Matches to 50 points at tables of two."""

from __future__ import annotations

import datetime
import json

import pytest

from engine import MATCH_OVER
from games import projections
from games.models import Seat
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import (
    current_round,
    first_deal,
    make_tournament,
    play_out_with_people,
    play_round_with_people,
)
from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.rounds import tournament_advance
from tournaments.services import (
    tournament_enter,
    tournament_pause,
    tournament_resume,
    tournament_start,
    tournament_withdraw,
)
from tournaments.standings import live_standings, standings

pytestmark = pytest.mark.django_db


def field(cup: Tournament, organiser, people: int, bots: int) -> list:
    persons = [make_user() for _ in range(people)]
    for person in persons:
        tournament_enter(cup, actor=person, user=person)
    for _ in range(bots):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy="greedy"))
    return persons


def rebuilt_equals_live(cup: Tournament) -> list:
    """The read model's standings, projected and rebuilt from the log, are the live ones."""
    live = live_standings(cup)
    projections.run("tournament-results")
    read = json.dumps([line.as_dict() for line in standings(cup)])
    assert read == json.dumps([line.as_dict() for line in live])
    projections.rebuild("tournament-results")
    assert json.dumps([line.as_dict() for line in standings(cup)]) == read
    return live


def test_a_knockout_with_people_plays_to_its_final_and_a_person_withdraws():
    organiser = make_user()
    cup = make_tournament(organiser, format="knockout", table_size=2, seed_by="draw")
    people = field(cup, organiser, people=3, bots=1)
    tournament_start(cup, actor=organiser)
    first = current_round(cup)
    assert first.tables.count() == 2 and not first.byes
    seats = Seat.objects.filter(game__tournament_table__round=first)
    assert seats.filter(controller=Seat.Controller.PERSON).count() == 3

    # A person withdraws before moving: their seat is the default bot's, placed last.
    quitter = people[0]
    tournament_withdraw(cup, actor=quitter, user=quitter)
    assert play_round_with_people(cup) > 0
    assert tournament_advance(cup)
    final = current_round(cup)
    assert final.number == 2 and final.tables.count() == 1
    quitter_entry = Entry.objects.get(tournament=cup, user=quitter)
    assert quitter_entry.pk not in final.tables.get().entries
    play_round_with_people(cup)
    assert tournament_advance(cup)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED

    live = rebuilt_equals_live(cup)
    assert [line.rank for line in live] == [1, 2, 3, 3]
    assert sorted(line.is_bot for line in live) == [False, False, False, True]
    quitter_line = next(line for line in live if line.entry == quitter_entry.pk)
    assert quitter_line.withdrawn and quitter_line.forfeits == 1 and quitter_line.rank == 3


def test_an_arena_with_people_seats_whoever_waits_but_not_the_paused():
    organiser = make_user()
    cup = make_tournament(organiser, format="arena", table_size=2, round_seconds=3600)
    ana, ben, cy = field(cup, organiser, people=3, bots=1)
    tournament_start(cup, actor=organiser)
    arena = current_round(cup)
    ana_entry = Entry.objects.get(tournament=cup, user=ana)

    def playing() -> list[TournamentGame]:
        return list(
            TournamentGame.objects.filter(round=arena)
            .exclude(game__status=MATCH_OVER)
            .order_by("game_id")
        )

    # Four at tables of two: two tables. Ana pauses during her game: she plays it out.
    assert len(playing()) == 2
    tournament_pause(cup, actor=ana, user=ana)
    minute = 0
    # Ana's table ends first: her opponent then waits longest and is seated next, so the one
    # left waiting when she resumes is not whom she just played.
    for table in sorted(playing(), key=lambda t: ana_entry.pk not in t.entries):
        play_out_with_people(table.game_id, seed=table.game_id)
        minute += 1
        tournament_advance(cup, now=arena.started_at + datetime.timedelta(minutes=minute))
    # Both games over: three wait (Ana does not), so one table sits down and one waits.
    (seated,) = playing()
    assert ana_entry.pk not in seated.entries
    played_before = TournamentGame.objects.filter(round=arena).count()
    assert played_before == 3

    # Ana resumes: she and the one left waiting are seated at once.
    tournament_resume(
        cup, actor=ana, user=ana, now=arena.started_at + datetime.timedelta(minutes=3)
    )
    tables = playing()
    assert len(tables) == 2 and any(ana_entry.pk in table.entries for table in tables)

    # Past the deadline nobody is seated: the games in play end and the arena finishes.
    for table in playing():
        play_out_with_people(table.game_id, seed=table.game_id)
    assert tournament_advance(cup, now=arena.deadline + datetime.timedelta(seconds=1))
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert TournamentGame.objects.filter(round=arena).count() == 4

    live = rebuilt_equals_live(cup)
    assert sum(line.played for line in live) == 8
    assert next(line for line in live if line.entry == ana_entry.pk).played == 2
    assert live[0].rank == 1 and live[0].points >= live[-1].points > -1


def test_a_duplicate_event_with_people_plays_the_rounds_deal_at_every_table():
    organiser = make_user()
    cup = make_tournament(organiser, format="duplicate", table_size=2, rounds=1)
    field(cup, organiser, people=2, bots=3)
    tournament_start(cup, actor=organiser)
    played = current_round(cup)
    assert len(played.byes) == 1
    games = TournamentGame.objects.filter(round=played).order_by("table")
    # Two tables of the one deal, each played once, nobody at both.
    assert [(g.table, g.rotation) for g in games] == [(1, 0), (2, 0)]
    assert not set(games[0].entries) & set(games[1].entries)
    assert first_deal(games[0].game_id) == first_deal(games[1].game_id)
    assert play_round_with_people(cup) > 0
    assert tournament_advance(cup)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED

    live = rebuilt_equals_live(cup)
    # Duplicate scores are differences from the mean of the same cards: they add up to nothing.
    assert abs(sum(line.points for line in live)) < 1e-6
    assert sum(line.played for line in live) == 4 and sum(line.byes for line in live) == 1
    assert sorted(line.is_bot for line in live) == [False, False, True, True, True]
