"""ladder_matchmaking: idle entrants of a ladder seated in new games of `seats_per_game`, each at
most once; bots that are not active, entrants who left and entrants still playing wait; the
games are played to the end by the bots, and two runs at once seat nobody twice."""

from __future__ import annotations

import random
import time
from contextlib import suppress

import pytest
from django.db import transaction

from bots import turns
from engine import MATCH_OVER
from games.models import Bot, Game, MatchResult, Seat
from league import ladders
from league.errors import CompetitionError
from league.ladders import idle_entries, ladder_matchmaking
from league.models import Competition
from league.services import competition_game, competition_join, competition_leave
from tests.games.conftest import needs_postgresql, run_in_threads
from tests.games.factories import make_user
from tests.games.workers import assert_finished_whole
from tests.league.factories import (
    enter_bots,
    entrant_of,
    make_bot,
    make_competition,
    seated_entrants,
)

pytestmark = pytest.mark.django_db


def play_out(game: Game) -> None:
    for _ in range(50):
        if Game.objects.get(pk=game.pk).status == MATCH_OVER:
            return
        turns.advance_game(game_id=game.pk)
    raise AssertionError("the match did not end")


def test_it_seats_each_idle_entrant_once_and_leaves_the_rest_waiting():
    ladder = make_competition(seats_per_game=3)
    enter_bots(ladder, 6)
    competition_join(ladder, user=make_user())

    games = ladder_matchmaking(ladder, rng=random.Random(1))

    assert len(games) == 2
    assert all(game.seat_count == 3 for game in games)
    assert all(game.context["competition"] == ladder.pk for game in games)
    seated = seated_entrants(ladder)
    assert len(seated) == len(set(seated)) == 6
    # The seventh waits: the one entrant not seated.
    [waiting] = idle_entries(ladder)
    assert entrant_of(waiting) not in seated
    # Everybody else is playing, and one entrant alone fills no table.
    assert ladder_matchmaking(ladder) == []
    assert len(seated_entrants(ladder)) == 6


def test_the_groups_are_random():
    ladder = make_competition(seats_per_game=2)
    enter_bots(ladder, 4)

    class Undo(Exception):
        pass

    def tables(seed: int) -> frozenset[frozenset[int]]:
        with suppress(Undo), transaction.atomic():
            games = ladder_matchmaking(ladder, rng=random.Random(seed))
            found = frozenset(
                frozenset(game.seats.values_list("registered_bot_id", flat=True)) for game in games
            )
            raise Undo
        return found

    assert len({tables(seed) for seed in range(12)}) > 1


@pytest.mark.parametrize("status", [Bot.Status.SUSPENDED, Bot.Status.FAILED, Bot.Status.VALIDATING])
def test_a_bot_that_is_not_active_waits(status):
    ladder = make_competition(seats_per_game=2)
    entries = enter_bots(ladder, 3)
    Bot.objects.filter(pk=entries[0].bot_id).update(status=status)

    [game] = ladder_matchmaking(ladder)

    assert set(game.seats.values_list("registered_bot_id", flat=True)) == {
        entries[1].bot_id,
        entries[2].bot_id,
    }
    assert list(idle_entries(ladder)) == []


def test_an_entrant_who_left_waits():
    ladder = make_competition(seats_per_game=2)
    entries = enter_bots(ladder, 3)
    competition_leave(ladder, bot=entries[1].bot)

    [game] = ladder_matchmaking(ladder)

    assert set(game.seats.values_list("registered_bot_id", flat=True)) == {
        entries[0].bot_id,
        entries[2].bot_id,
    }


def test_entrants_playing_in_the_ladder_wait_until_their_game_is_over():
    ladder = make_competition(seats_per_game=2)
    entries = enter_bots(ladder, 4)
    playing = competition_game(ladder, entries[:2])

    [game] = ladder_matchmaking(ladder)

    assert set(game.seats.values_list("registered_bot_id", flat=True)) == {
        entries[2].bot_id,
        entries[3].bot_id,
    }
    assert ladder_matchmaking(ladder) == []
    play_out(playing)
    [again] = ladder_matchmaking(ladder)
    assert set(again.seats.values_list("registered_bot_id", flat=True)) == {
        entries[0].bot_id,
        entries[1].bot_id,
    }


def test_a_game_in_another_competition_keeps_nobody_waiting():
    ladder, other = make_competition(seats_per_game=2), make_competition(seats_per_game=2)
    bots = [make_bot(), make_bot()]
    competition_game(other, [competition_join(other, bot=bot) for bot in bots])
    for bot in bots:
        competition_join(ladder, bot=bot)

    assert len(ladder_matchmaking(ladder)) == 1


def test_a_league_has_no_matchmaking():
    league = make_competition(kind=Competition.Kind.LEAGUE)
    enter_bots(league, 2)
    with pytest.raises(CompetitionError) as raised:
        ladder_matchmaking(league)
    assert raised.value.code == "not-a-ladder"
    assert not Game.objects.exists()


def test_the_bots_play_its_games_to_the_end_and_the_results_are_projected(
    django_capture_on_commit_callbacks, eager_tasks
):
    ladder = make_competition(seats_per_game=3)
    entries = enter_bots(ladder, 7)

    # Tasks run in-process on commit: each game is played by its bots before this returns.
    with django_capture_on_commit_callbacks(execute=True):
        games = ladder_matchmaking(ladder)

    assert len(games) == 2
    for game in games:
        assert_finished_whole(game.pk)
    assert MatchResult.objects.filter(game__in=games).count() == 2
    # Their games are over, so all seven are idle again, the one left over included, and the
    # next run seats six of them once each.
    assert {entry.bot_id for entry in idle_entries(ladder)} == {e.bot_id for e in entries}
    with django_capture_on_commit_callbacks(execute=True):
        again = ladder_matchmaking(ladder)
    assert len(again) == 2
    seated = Seat.objects.filter(game__in=again).values_list("registered_bot_id", flat=True)
    assert len(set(seated)) == len(seated) == 6


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_runs_at_once_seat_nobody_twice(monkeypatch, eager_tasks):
    ladder = make_competition(seats_per_game=2)
    for _ in range(8):
        competition_join(ladder, user=make_user())
    read_idle = ladders.idle_entries

    def slow_idle_entries(competition: Competition) -> list:
        found = list(read_idle(competition))
        # Without the competition's lock, the other run reads the same idle entrants meanwhile.
        time.sleep(0.5)
        return found

    monkeypatch.setattr(ladders, "idle_entries", slow_idle_entries)

    made = run_in_threads(2, lambda _: len(ladder_matchmaking(ladder)))

    assert sorted(made) == [0, 4]
    seated = seated_entrants(ladder)
    assert len(seated) == len(set(seated)) == 8


def test_a_paused_ladder_seats_nobody_even_in_a_run_that_looked_before_the_pause():
    ladder = make_competition(seats_per_game=2)
    enter_bots(ladder, 4)
    # The beat task read the ladder while its matchmaking was on; staff paused it since.
    Competition.objects.filter(pk=ladder.pk).update(matchmaking=False)
    assert ladder.matchmaking
    assert ladder_matchmaking(ladder) == []
    assert ladders.ladder_continue(ladder) == []
    assert not Game.objects.exists()
