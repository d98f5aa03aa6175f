"""A club's season from draft to the next season: entrants, the draw, rounds opening, rulings as
events, standings folded from the log, closing, promotion and relegation (league/seasons.py)."""

from __future__ import annotations

import datetime
import json
from collections import Counter
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from bots import turns
from engine import MATCH_OVER
from engine.events import FIXTURE_RETIMED, SEAT_FORFEITED
from games import event_reads, projections
from games.models import Game, MatchResult
from league.clubs import club_join
from league.errors import InvalidCompetition, NotClubAdmin, NotYourBot, SeasonError
from league.models import Bye, Division, Entry, Fixture, Season, Standing
from league.scheduling import default_points
from league.seasons import (
    DivisionSpec,
    fixture_forfeit,
    fixture_retime,
    open_due_rounds,
    season_close,
    season_enter,
    season_next,
    season_start,
    season_withdraw,
)
from league.standings import division_table
from tests.games.factories import make_user
from tests.league.factories import make_bot, make_club, make_season, promotion_and_relegation

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 1, 5, 9, 0, tzinfo=datetime.UTC)


def play_out(game_id: int) -> None:
    for _ in range(200):
        if Game.objects.get(pk=game_id).status == MATCH_OVER:
            return
        turns.advance_game(game_id=game_id)
    raise AssertionError(f"game {game_id} did not end")


def project() -> None:
    for name in projections.PROJECTIONS:
        projections.run(name)


def play_round(season: Season, number: int) -> None:
    for fixture in Fixture.objects.filter(division__season=season, round=number):
        assert fixture.game_id is not None, f"{fixture} has not opened"
        play_out(fixture.game_id)


def bot_season(bots: int = 5, seats: int = 2, divisions=None, **fields) -> tuple[Season, object]:
    club, admin, _ = make_club()
    season = make_season(club, admin, seats_per_game=seats, divisions=divisions, **fields)
    tiers = [d.tier for d in season.divisions.all()]
    for number in range(bots):
        season_enter(
            season=season, actor=admin, bot=make_bot(owner=admin), tier=tiers[number % len(tiers)]
        )
    return season, admin


def table_json(season: Season) -> str:
    return json.dumps(
        [[line.as_dict() for line in division_table(d)] for d in season.divisions.all()]
    )


def test_default_points_halve_down_to_zero_for_last():
    assert default_points(2) == [1, 0]
    assert default_points(4) == [4, 2, 1, 0]


def test_only_a_club_admin_creates_a_season_and_bad_settings_create_nothing():
    club, admin, (member,) = make_club(members=1)
    with pytest.raises(NotClubAdmin):
        make_season(club, member)
    with pytest.raises(SeasonError) as raised:
        make_season(club, admin, seats_per_game=4, placement_points=[1, 2, 0, 0])
    assert raised.value.code == "invalid-season"
    with pytest.raises(InvalidCompetition) as bad_rules:
        make_season(club, admin, variant={"rules": "chess"})
    assert bad_rules.value.code == "invalid-variant"
    # censorship needs three seats at a table: the engine's own check.
    with pytest.raises(InvalidCompetition):
        make_season(club, admin, variant={"rules": "censorship"}, seats_per_game=2)
    assert not Season.objects.exists()


def test_members_enter_themselves_admins_enter_anyone_of_the_club():
    club, admin, (member, other) = make_club(members=2)
    season = make_season(club, admin)
    season_enter(season=season, actor=member, user=member)
    with pytest.raises(NotClubAdmin):
        season_enter(season=season, actor=member, user=other)
    stranger = make_user()
    with pytest.raises(SeasonError) as raised:
        season_enter(season=season, actor=admin, user=stranger)
    assert raised.value.code == "not-a-member"
    season_enter(season=season, actor=admin, user=other)
    assert season.competition.entries.count() == 2


def test_an_admin_enters_only_their_own_bots():
    """Another owner's bot is theirs to enter where they choose: refused `not-your-bot`,
    nothing entered."""
    club, admin, (ben,) = make_club(members=1)
    season = make_season(club, admin)
    bens = make_bot(owner=ben)
    with pytest.raises(NotYourBot) as raised:
        season_enter(season=season, actor=admin, bot=bens, tier=1)
    assert raised.value.code == "not-your-bot"
    assert raised.value.message == (
        f"{bens.name} is another owner's bot: an admin of {club.name} enters only their own bots"
    )
    assert not season.competition.entries.exists()
    mine = make_bot(owner=admin)
    assert season_enter(season=season, actor=admin, bot=mine).bot == mine


def tier_of(season: Season, person) -> int | None:
    entry = season.competition.entries.filter(user=person, active=True).first()
    return entry.division_entry.division.tier if entry else None


def test_a_member_entering_themselves_goes_where_the_rules_put_them_not_where_they_ask():
    season, admin, up, down = promotion_and_relegation()
    assert (tier_of(season, up), tier_of(season, down)) == (1, 2)
    season_withdraw(season=season, actor=down, user=down)
    season_withdraw(season=season, actor=up, user=up)

    # The relegated member cannot undo his relegation by asking for the top division.
    with pytest.raises(NotClubAdmin) as raised:
        season_enter(season=season, actor=down, user=down, tier=1)
    assert raised.value.code == "not-club-admin"
    assert "chooses a division" in raised.value.message
    assert tier_of(season, down) is None
    season_enter(season=season, actor=down, user=down)
    # The promoted member goes back up; a newcomer to the club goes to the lowest division.
    season_enter(season=season, actor=up, user=up)
    newcomer = make_user()
    club_join(club=season.club, user=newcomer, code=season.club.invite_code)
    season_enter(season=season, actor=newcomer, user=newcomer)
    assert [tier_of(season, p) for p in (up, down, newcomer)] == [1, 2, 2]

    # An admin places anyone anywhere.
    season_withdraw(season=season, actor=admin, user=down)
    season_enter(season=season, actor=admin, user=down, tier=1)
    assert tier_of(season, down) == 1


def test_starting_draws_every_division_and_opens_the_first_round_only():
    season, admin = bot_season(bots=5)
    season_start(season=season, admin=admin, now=NOW)
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    fixtures = Fixture.objects.filter(division__season=season)
    # Five entrants, tables of two: a round robin of five rounds, one bye each round.
    assert sorted(set(fixtures.values_list("round", flat=True))) == [1, 2, 3, 4, 5]
    assert Bye.objects.filter(division__season=season).count() == 5
    played = Counter(entry for f in fixtures for entry in f.seats.values_list("entry", flat=True))
    assert set(played.values()) == {4}
    opened = fixtures.exclude(game=None)
    assert set(opened.values_list("round", flat=True)) == {1}
    assert opened.count() == 2
    game = opened.first().game
    assert game.context["fixture"] == opened.first().pk
    with pytest.raises(SeasonError) as raised:
        season_enter(season=season, actor=admin, bot=make_bot(owner=admin))
    assert raised.value.code == "not-draft"


@pytest.mark.parametrize(("bots", "seats"), [(4, 3), (5, 3), (6, 3), (6, 4), (7, 4), (9, 5)])
def test_rounds_left_blank_seat_every_pair_together_at_least_once(bots, seats):
    """The season page promises "Rounds: enough for every pair to meet": 4 entrants at tables
    of 3 once drew 2 rounds, and the two who sat out one each never met."""
    season, admin = bot_season(bots=bots, seats=seats)
    assert season.rounds is None
    season_start(season=season, admin=admin, now=NOW)
    tables = [
        set(fixture.seats.values_list("entry", flat=True))
        for fixture in Fixture.objects.filter(division__season=season)
    ]
    entries = Entry.objects.filter(competition=season.competition).values_list("pk", flat=True)
    never = [
        (a, b) for a in entries for b in entries if a < b and not any({a, b} <= t for t in tables)
    ]
    assert never == []


def test_a_division_too_small_for_a_table_is_refused():
    season, admin = bot_season(bots=3, seats=4)
    with pytest.raises(SeasonError) as raised:
        season_start(season=season, admin=admin, now=NOW)
    assert raised.value.code == "too-few-entrants"
    assert not Fixture.objects.exists()
    assert Season.objects.get(pk=season.pk).status == Season.Status.DRAFT


def test_a_round_opens_when_the_round_before_is_done_or_on_its_date():
    season, admin = bot_season(bots=4)
    season_start(season=season, admin=admin, now=NOW)
    assert open_due_rounds(season=season, now=NOW) == 0
    # Round 2 opens on its date even though round 1 is still playing...
    week = NOW + datetime.timedelta(days=7, minutes=1)
    assert open_due_rounds(season=season, now=week) == 2
    # ...and round 3 as soon as rounds 1 and 2 have finished.
    play_round(season, 1)
    play_round(season, 2)
    assert open_due_rounds(season=season, now=week) == 2
    assert not Fixture.objects.filter(division__season=season, game=None).exists()


def test_standings_fold_the_finished_fixtures_and_a_rebuild_gives_the_same_bytes(eager_tasks):
    season, admin = bot_season(bots=4, seats=2)
    season_start(season=season, admin=admin, now=NOW)
    for number in (1, 2, 3):
        play_round(season, number)
        open_due_rounds(season=season, now=NOW)
    project()
    (division,) = season.divisions.all()
    table = division_table(division)
    # Every entrant met the three others once: the table agrees with the match results.
    assert [line.played for line in table] == [3, 3, 3, 3]
    expected_points: Counter[int] = Counter()
    for fixture in Fixture.objects.filter(division=division):
        result = MatchResult.objects.get(game_id=fixture.game_id)
        for seat in fixture.seats.all():
            expected_points[seat.entry_id] += [1, 0][result.places[seat.number] - 1]
    assert {line.entry: line.league_points for line in table} == dict(expected_points)
    assert sum(line.wins for line in table) == 6
    assert [line.league_points for line in table] == sorted(
        (line.league_points for line in table), reverse=True
    )
    before = table_json(season)
    Standing.objects.all().delete()
    # `manage.py projections rebuild` with no name rebuilds every projection (in-process here).
    out = StringIO()
    call_command("projections", "rebuild", stdout=out)
    assert "league-standings: rebuilt" in out.getvalue()
    assert table_json(season) == before


def test_a_ruled_forfeit_is_an_event_and_scores_nothing():
    season, admin = bot_season(bots=2, seats=2)
    season_start(season=season, admin=admin, now=NOW)
    fixture = Fixture.objects.get(division__season=season, round=1)
    assert fixture_forfeit(fixture=fixture, actor=admin, seat=0, note="did not show")
    (event,) = event_reads.load(fixture.game_id, types={SEAT_FORFEITED})
    assert event["reason"] == "awarded" and event["note"] == "did not show"
    play_out(fixture.game_id)
    project()
    forfeiter = fixture.seats.get(number=0).entry_id
    row = Standing.objects.get(entry_id=forfeiter)
    assert (row.forfeits, row.league_points, row.wins, row.placements) == (1, 0, 0, [0, 1])
    other = Standing.objects.exclude(entry_id=forfeiter).get()
    assert (other.league_points, other.wins) == (1, 1)


def test_a_ruled_forfeit_of_a_two_seat_fixture_ends_it_at_once_and_the_table_counts_it():
    season, admin = bot_season(bots=2, seats=2)
    season_start(season=season, admin=admin, now=NOW)
    fixture = Fixture.objects.get(division__season=season, round=1)
    version = Game.objects.get(pk=fixture.game_id).version

    assert fixture_forfeit(fixture=fixture, actor=admin, seat=1, note="did not show")

    # Nobody plays the match out: the ruling ends it, the other seat wins.
    game = Game.objects.get(pk=fixture.game_id)
    assert (game.status, game.version) == (MATCH_OVER, version + 2)
    (ended,) = event_reads.load(game.pk, types={"match-ended"})
    assert (ended["winner"], ended["places"]) == (0, [1, 2])
    with pytest.raises(SeasonError) as raised:
        fixture_forfeit(fixture=fixture, actor=admin, seat=0)
    assert raised.value.code == "fixture-over"
    assert Game.objects.get(pk=game.pk).version == version + 2
    project()
    forfeiter = fixture.seats.get(number=1).entry_id
    row = Standing.objects.get(entry_id=forfeiter)
    assert (row.played, row.forfeits, row.league_points, row.wins) == (1, 1, 0, 0)
    other = Standing.objects.exclude(entry_id=forfeiter).get()
    assert (other.played, other.league_points, other.wins) == (1, 1, 1)


def test_only_admins_rule_and_a_deadline_moves_by_an_event():
    season, admin = bot_season(bots=2, seats=2)
    club_member = make_user()
    season.club.memberships.create(user=club_member)
    season_start(season=season, admin=admin, now=NOW)
    fixture = Fixture.objects.get(division__season=season, round=1)
    later = timezone.now() + datetime.timedelta(days=3)
    for ruling in (
        lambda: fixture_retime(fixture=fixture, actor=club_member, deadline=later),
        lambda: fixture_forfeit(fixture=fixture, actor=club_member, seat=1),
    ):
        with pytest.raises(NotClubAdmin):
            ruling()
    with pytest.raises(SeasonError) as raised:
        fixture_retime(fixture=fixture, actor=admin, deadline=timezone.now())
    assert raised.value.code == "invalid-deadline"
    fixture_retime(fixture=fixture, actor=admin, deadline=later, note="snowed in")
    (event,) = event_reads.load(fixture.game_id, types={FIXTURE_RETIMED})
    assert event["note"] == "snowed in"
    assert Fixture.objects.get(pk=fixture.pk).deadline == later.replace(microsecond=0)
    # The game plays on after the ruling: a bot's next move is not a version conflict.
    play_out(fixture.game_id)


def test_closing_waits_for_every_fixture_then_archives_the_final_tables():
    season, admin = bot_season(bots=3, seats=2)
    season_start(season=season, admin=admin, now=NOW)
    with pytest.raises(SeasonError) as raised:
        season_close(season=season, admin=admin)
    assert raised.value.code == "fixtures-unfinished"
    for number in (1, 2, 3):
        play_round(season, number)
        open_due_rounds(season=season, now=NOW)
    project()
    season_close(season=season, admin=admin)
    (division,) = Division.objects.filter(season=season)
    assert [line["entry"] for line in division.final_table] == [
        line.entry for line in division_table(division)
    ]
    assert Season.objects.get(pk=season.pk).status == Season.Status.CLOSED


def test_the_next_season_promotes_and_relegates_by_the_final_tables():
    divisions = [DivisionSpec("Premier", relegate=1), DivisionSpec("First", promote=1)]
    season, admin = bot_season(bots=6, seats=2, divisions=divisions)
    season_start(season=season, admin=admin, now=NOW)
    for number in (1, 2, 3):
        play_round(season, number)
        open_due_rounds(season=season, now=NOW)
    project()
    top, second = season.divisions.order_by("tier")
    relegated = division_table(top)[-1]
    promoted = division_table(second)[0]
    assert (relegated.zone, promoted.zone) == ("down", "up")
    season_close(season=season, admin=admin)
    following = season_next(
        season=season, admin=admin, name="Spring", slug="spring", start_date=NOW.date()
    )
    new_top, new_second = following.divisions.order_by("tier")
    assert new_top.name == "Premier" and (new_top.relegate, new_second.promote) == (1, 1)
    tiers = {
        member.entry.bot_id: division.tier
        for division in (new_top, new_second)
        for member in division.members.select_related("entry")
    }
    old_entries = [line.entry for line in division_table(top) + division_table(second)]
    bot_of = dict(Entry.objects.filter(pk__in=old_entries).values_list("pk", "bot_id"))
    assert tiers[bot_of[relegated.entry]] == 2
    assert tiers[bot_of[promoted.entry]] == 1
    assert Counter(tiers.values()) == {1: 3, 2: 3}
    with pytest.raises(SeasonError) as raised:
        season_next(season=season, admin=admin, name="Again", slug="again", start_date=NOW.date())
    assert raised.value.code == "has-next"
