"""competition_join and competition_leave: people and registered bots enter and withdraw; a
ladder takes active bots only; refusals are typed and change nothing."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from games.models import Bot
from league.errors import EntryRefused
from league.models import Competition, Entry
from league.services import competition_join, competition_leave
from tests.games.factories import make_user
from tests.league.factories import make_bot, make_competition

pytestmark = pytest.mark.django_db


def test_a_person_and_an_active_bot_join_a_ladder():
    ladder = make_competition()
    user, bot = make_user(), make_bot()
    person = competition_join(ladder, user=user)
    machine = competition_join(ladder, bot=bot)
    assert (person.user, person.bot, person.active) == (user, None, True)
    assert (machine.user, machine.bot, machine.active) == (None, bot, True)
    assert list(ladder.entries.all()) == [person, machine]


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (Bot.Status.VALIDATING, "bot-validating"),
        (Bot.Status.SUSPENDED, "bot-suspended"),
        (Bot.Status.FAILED, "bot-failed"),
    ],
)
def test_a_ladder_refuses_a_bot_that_is_not_active(status, code):
    ladder = make_competition()
    with pytest.raises(EntryRefused) as raised:
        competition_join(ladder, bot=make_bot(status=status))
    assert raised.value.code == code
    assert not Entry.objects.exists()


def test_a_ladder_refuses_a_bot_the_staff_suspended_and_says_so():
    bot = make_bot(status=Bot.Status.SUSPENDED, suspended_by_staff=True)
    with pytest.raises(EntryRefused) as refused:
        competition_join(make_competition(), bot=bot)
    assert refused.value.code == "bot-suspended-by-staff"
    assert "strikes" not in refused.value.message
    assert not Entry.objects.exists()


def test_the_bots_status_is_read_from_the_database():
    ladder = make_competition()
    bot = make_bot()
    Bot.objects.filter(pk=bot.pk).update(status=Bot.Status.SUSPENDED)
    with pytest.raises(EntryRefused):
        competition_join(ladder, bot=bot)


def test_a_league_takes_a_validating_bot_but_not_a_failed_one():
    league = make_competition(kind=Competition.Kind.LEAGUE)
    assert competition_join(league, bot=make_bot(status=Bot.Status.VALIDATING)).active
    with pytest.raises(EntryRefused) as raised:
        competition_join(league, bot=make_bot(status=Bot.Status.FAILED))
    assert raised.value.code == "bot-failed"
    assert Entry.objects.count() == 1


def test_joining_twice_is_refused():
    ladder = make_competition()
    user = make_user()
    competition_join(ladder, user=user)
    with pytest.raises(EntryRefused) as raised:
        competition_join(ladder, user=user)
    assert raised.value.code == "already-entered"
    assert Entry.objects.count() == 1


def test_the_same_entrant_may_enter_two_competitions():
    user = make_user()
    competition_join(make_competition(), user=user)
    competition_join(make_competition(), user=user)
    assert Entry.objects.filter(user=user).count() == 2


@pytest.mark.parametrize("both", [True, False])
def test_an_entrant_is_a_user_or_a_bot(both):
    ladder = make_competition()
    entrant = {"user": make_user(), "bot": make_bot()} if both else {}
    with pytest.raises(EntryRefused) as raised:
        competition_join(ladder, **entrant)
    assert raised.value.code == "invalid-entrant"
    assert not Entry.objects.exists()


def test_leaving_withdraws_the_entry_and_joining_again_restores_it():
    ladder = make_competition()
    bot = make_bot()
    entry = competition_join(ladder, bot=bot)
    left = competition_leave(ladder, bot=bot)
    assert (left.pk, left.active) == (entry.pk, False)
    back = competition_join(ladder, bot=bot)
    assert (back.pk, back.active) == (entry.pk, True)


def test_leaving_what_one_has_not_entered_is_refused():
    ladder = make_competition()
    user = make_user()
    with pytest.raises(EntryRefused) as raised:
        competition_leave(ladder, user=user)
    assert raised.value.code == "not-entered"
    competition_join(ladder, user=user)
    competition_leave(ladder, user=user)
    with pytest.raises(EntryRefused):
        competition_leave(ladder, user=user)


def test_the_database_refuses_a_second_entry_of_one_entrant():
    ladder = make_competition()
    bot = make_bot()
    Entry.objects.create(competition=ladder, bot=bot)
    with pytest.raises(IntegrityError):
        Entry.objects.create(competition=ladder, bot=bot)


@pytest.mark.parametrize("both", [True, False])
def test_the_database_refuses_an_entry_of_both_a_user_and_a_bot_or_of_neither(both):
    entrant = {"user": make_user(), "bot": make_bot()} if both else {}
    with pytest.raises(IntegrityError):
        Entry.objects.create(competition=make_competition(), **entrant)
