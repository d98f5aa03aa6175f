"""competition_game: a game of the competition's entrants whose context carries the
competition's settings, and the workers then keep to them: people's turn clocks, webhook and
pull bots' time limits, the vacation budget. A game keeps its settings when the competition
changes."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine

from accounts.models import Profile
from bots import turns
from bots.remote import pull_turns
from clocks import deadlines, overdue
from clocks.deadlines import VacationExhausted
from games.errors import InvalidGame
from games.game_settings import GameSettings
from games.models import Bot, Game, Seat
from league.errors import EntryRefused
from league.models import Competition
from league.services import competition_game, competition_join, competition_leave
from tests.games.factories import make_user
from tests.league.factories import make_bot, make_competition

pytestmark = pytest.mark.django_db

START = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)
SETTINGS = {
    "turn_seconds": 600,
    "bot_timeout": 0.25,
    "pull_timeout": 7.0,
    "vacation_days": 2,
    "grace_seconds": 2.5,
}


def league(**fields) -> Competition:
    return make_competition(kind=Competition.Kind.LEAGUE, **{**SETTINGS, **fields})


def people(competition: Competition, count: int = 2):
    return [competition_join(competition, user=make_user()) for _ in range(count)]


def test_the_competitions_settings_land_in_the_games_context():
    competition = league()
    entries = people(competition, 3)
    game = competition_game(competition, [entries[2], entries[0], entries[1]], seed=5)
    assert game.context == {"kind": "league", "competition": competition.pk, **SETTINGS}
    assert game.variant == competition.variant
    seats = list(game.seats.order_by("number").values_list("user_id", flat=True))
    assert seats == [entries[2].user_id, entries[0].user_id, entries[1].user_id]


def test_a_persons_turn_clock_runs_for_the_competitions_turn_seconds(
    django_capture_on_commit_callbacks, eager_tasks
):
    competition = league()
    with time_machine.travel(START, tick=False), django_capture_on_commit_callbacks(execute=True):
        game = competition_game(competition, people(competition), seed=5)
    assert GameSettings.of(game.context).turn_limit == 600
    seat = Seat.objects.get(game=game, number=game.to_act[0])
    assert seat.deadline_at == START + timedelta(seconds=600)
    # Within the competition's 600 s the turn waits (the site's default is 3 days); past it
    # the default bot plays it.
    assert overdue.expire(now=START + timedelta(seconds=599)) == []
    assert overdue.expire(now=START + timedelta(seconds=601)) == [game.pk]


def test_changing_the_competition_leaves_its_running_games_alone(
    django_capture_on_commit_callbacks, eager_tasks
):
    competition = league()
    entries = people(competition)
    with time_machine.travel(START, tick=False), django_capture_on_commit_callbacks(execute=True):
        running = competition_game(competition, entries, seed=5)
    competition.turn_seconds = 60
    competition.bot_timeout = 3.0
    competition.save()
    running.refresh_from_db()
    assert running.context["turn_seconds"] == 600
    assert GameSettings.of(running.context).webhook_limit == 0.25
    assert overdue.expire(now=START + timedelta(seconds=120)) == []
    later = competition_game(competition, entries, seed=6)
    later_settings = GameSettings.of(later.context)
    assert (later_settings.turn_seconds, later_settings.webhook_limit) == (60, 3.0)


@pytest.mark.parametrize(("bot_timeout", "late"), [(0.2, True), (1.5, False)])
def test_a_webhook_bot_has_the_competitions_time_limit(fake, bot_timeout, late):
    competition = league(bot_timeout=bot_timeout)
    hook = make_bot(kind=Bot.Kind.WEBHOOK, url=fake.url, secret="s3cret")
    entries = [
        competition_join(competition, bot=hook),
        competition_join(competition, bot=make_bot()),
    ]
    game = competition_game(competition, entries, seed=4)
    assert GameSettings.of(game.context).webhook_limit == bot_timeout
    fake.mode, fake.delay = "slow", 0.6
    for _ in range(100):
        advance = turns.advance_game(game_id=game.pk)
        if fake.requests:
            break
    hook.refresh_from_db()
    assert hook.calls == 1
    assert (hook.timeouts, advance.strike.startswith("timeout")) == (
        (1, True) if late else (0, False)
    )


def test_a_pull_bots_decision_is_due_after_the_competitions_pull_timeout():
    competition = league()
    pull = make_bot(kind=Bot.Kind.PULL)
    entries = [
        competition_join(competition, bot=make_bot()),
        competition_join(competition, bot=pull),
    ]
    game = competition_game(competition, entries, seed=4)
    turns.advance_game(game_id=game.pk)
    game.refresh_from_db()
    assert game.to_act == [1]
    moved = game.last_activity + timedelta(seconds=7)
    assert pull_turns.pull_deadline(game) == moved
    assert overdue.expire(now=moved - timedelta(seconds=1)) == []
    assert overdue.expire(now=moved + timedelta(seconds=1)) == [game.pk]


def test_a_person_has_the_competitions_vacation_budget_in_each_game():
    competition = league()
    entries = people(competition)
    game = competition_game(competition, entries, seed=5)
    user = entries[0].user
    assert deadlines.seat_vacation(game_id=game.pk, actor=user, days=2).days_used == 2
    with pytest.raises(VacationExhausted):
        deadlines.seat_vacation(game_id=game.pk, actor=user, days=1)
    other = competition_game(competition, entries, seed=6)
    assert deadlines.seat_vacation(game_id=other.pk, actor=user, days=1).days_used == 1


def test_a_newno_competitions_games_rank_their_seats_by_age():
    competition = league(variant={"rules": "newno"}, seats_per_game=3)
    born = [date(1990, 1, 1), date(2001, 6, 1), date(1990, 1, 1)]
    entries = []
    for birth_date in born:
        user = make_user()
        Profile.objects.create(user=user, birth_date=birth_date)
        entries.append(competition_join(competition, user=user))
    game = competition_game(competition, entries, seed=5)
    assert game.status == Game.Status.PLAYING
    # Ranks, 0 the youngest: the log keeps no birth date.
    assert list(game.seats.order_by("number").values_list("age", flat=True)) == [1, 0, 1]


def test_a_newno_competition_refuses_a_person_without_a_birth_date():
    competition = league(variant={"rules": "newno"}, seats_per_game=3)
    with pytest.raises(EntryRefused) as raised:
        competition_join(competition, user=make_user())
    assert raised.value.code == "birth-date-missing"
    assert not competition.entries.exists()


def test_entries_of_another_competition_left_or_repeated_are_refused():
    competition, other = league(), league()
    mine, theirs = people(competition), people(other)
    competition_leave(competition, user=mine[1].user)
    mine[1].refresh_from_db()
    for entries in ([mine[0], theirs[0]], [mine[0], mine[1]], [mine[0], mine[0]]):
        with pytest.raises(InvalidGame) as raised:
            competition_game(competition, entries)
        assert raised.value.code == "invalid-entry"
    assert not Game.objects.exists()
