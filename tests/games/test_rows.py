"""games/rows.py: the hot reads written in SQL once build the same instances the ORM builds
(every field, the joined rows, a LEFT JOIN that found nothing), on the database the suite runs
on (PostgreSQL in CI, SQLite under `make test` without DATABASE_URL)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.models import Count, Model
from psycopg.pq import Format

from accounts.models import PersonalToken
from accounts.services import token_issue, user_for_token
from bots import turns
from bots.remote import tokens
from bots.remote.pull_turns import pull_decisions
from games import prepared, reads, seats
from games.creation import SeatSpec, game_create
from games.errors import GameNotFound
from games.models import Bot, Game, Seat
from tests.games.factories import SHORT, make_user

pytestmark = pytest.mark.django_db


def fields(instance: Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def mixed_game() -> Game:
    """A person, a pull bot and a built-in bot: every kind of seat, JSON columns filled."""
    owner = make_user()
    bot = Bot.objects.create(owner=owner, name="puller", kind=Bot.Kind.PULL, status="active")
    return game_create(
        variant_spec=SHORT,
        seats=[SeatSpec(user=make_user()), SeatSpec(registered=bot), SeatSpec(bot="greedy")],
        seed=5,
    )


@pytest.mark.parametrize("names", [False, True])
def test_game_for_builds_the_orm_s_game_and_seats(names: bool) -> None:
    game = mixed_game()

    read = reads.game_for(game.pk, names=names)

    assert fields(read) == fields(Game.objects.get(pk=game.pk))
    assert isinstance(read.to_act, list) and isinstance(read.variant, dict)
    expected = Seat.objects.filter(game=game).select_related("user", "registered_bot")
    seats = list(read.seats.all())
    assert [fields(seat) for seat in seats] == [fields(seat) for seat in expected]
    assert all(seat.game is read for seat in seats)
    if names:
        # Joined in the same query; a seat with no person or no bot holds None, not an empty row.
        assert [seat.user and seat.user.username for seat in seats] == [
            seat.user and seat.user.username for seat in expected
        ]
        assert [seat.registered_bot and seat.registered_bot.name for seat in seats] == [
            None,
            "puller",
            None,
        ]


def test_times_come_back_as_the_orm_s_to_the_microsecond_and_in_its_time_zone() -> None:
    """On PostgreSQL the reads load timestamptz with psycopg's own C loader, not Django's
    (games/prepared.py): the same instant, with the very tzinfo Django gives."""
    game = mixed_game()
    moment = datetime.datetime(2026, 3, 29, 1, 30, 0, 123456, tzinfo=datetime.UTC)
    Game.objects.filter(pk=game.pk).update(last_activity=moment)

    read, orm = reads.game_for(game.pk), Game.objects.get(pk=game.pk)
    if connection.vendor == "postgresql":
        # Read through psycopg's own loader, not Django's Python one.
        loader = prepared._cursors.cursor.adapters.get_loader(prepared._TIMESTAMPTZ, Format.TEXT)
        assert loader is prepared._FAST_TIMESTAMPTZ

    for name in ("created_at", "last_activity"):
        ours, theirs = getattr(read, name), getattr(orm, name)
        assert ours == theirs and ours.tzinfo is theirs.tzinfo is datetime.UTC
        assert ours.isoformat() == theirs.isoformat()
    assert read.last_activity.isoformat() == "2026-03-29T01:30:00.123456+00:00"


# Both reads leave the seats on the game through reads.seated, which sets Django's private
# prefetch attributes (_result_cache, _prefetch_done, _prefetched_objects_cache, and the deferred
# filter): this pins what Django does with them.
@pytest.mark.parametrize(
    "read_game",
    [reads.game_for, lambda game_id: turns.game_and_seats(game_id)[0]],
    ids=["reads.game_for", "turns.game_and_seats"],
)
def test_a_game_s_seats_answer_without_a_query_and_a_filter_stays_in_the_game(
    django_assert_num_queries: Any, read_game: Callable[[int], Game]
) -> None:
    game, other = mixed_game(), mixed_game()
    read = read_game(game.pk)

    with django_assert_num_queries(0):
        numbers = [seat.number for seat in read.seats.all()]
        count, first = read.seats.count(), read.seats.all()[0]
    assert (numbers, count, first.number) == ([0, 1, 2], 3, 0)
    # A new query from the seats read with the game: this game's seats only, never the other's.
    with django_assert_num_queries(1):
        bots = list(read.seats.filter(bot="greedy"))
    assert [(seat.game_id, seat.number) for seat in bots] == [(game.pk, 2)]
    assert read.seats.get(number=1).game_id == game.pk != other.pk
    assert [s.number for s in read.seats.order_by("-number")] == [2, 1, 0]
    # What uses the query itself, not a copy of it, is held to the game too.
    assert read.seats.aggregate(n=Count("id"))["n"] == 3
    assert read.seats.update(deadline_at=None) == 3


def test_game_for_a_game_that_is_not_there() -> None:
    with pytest.raises(GameNotFound):
        reads.game_for(10**6)
    with pytest.raises(GameNotFound):
        reads.game_for("twelve")  # type: ignore[arg-type]


def test_a_token_reads_its_person_and_a_revoked_or_inactive_one_none() -> None:
    person = make_user()
    key = token_issue(user=person)

    found = user_for_token(key)

    assert found is not None and fields(found) == fields(type(person).objects.get(pk=person.pk))
    assert user_for_token(key + "x") is None
    person.is_active = False
    person.save()
    assert user_for_token(key) is None
    assert PersonalToken.objects.filter(user=person).exists()


def test_a_bot_token_reads_the_bot_with_its_owner() -> None:
    game = mixed_game()
    bot = Bot.objects.get(name="puller")
    token = tokens.issue_token(bot)

    found = tokens.bot_for_token(token)

    assert found is not None and fields(found) == fields(Bot.objects.get(pk=bot.pk))
    assert found._state.fields_cache["owner"].pk == bot.owner_id
    assert tokens.bot_for_token("nope") is None
    # The pull bot's decisions list its seat in that game, from the same kind of read.
    assert [(d["game"], d["seat"]) for d in pull_decisions(found) if not d["optional"]] == (
        [(game.pk, 1)] if 1 in game.to_act else []
    )


def test_a_fetch_builds_each_joined_row_once_and_none_for_a_missing_one() -> None:
    game = mixed_game()

    seated = reads.seats_of(game.pk, names=True)

    assert len({id(seat.game) for seat in seated}) == 1 and seated[0].game.pk == game.pk
    assert [seat.registered_bot and seat.registered_bot.name for seat in seated] == [
        None,
        "puller",
        None,
    ]
    assert [seat.user is None for seat in seated] == [False, True, True]


def test_the_dispatcher_s_seat_rows_match_the_orm_s_values() -> None:
    game = mixed_game()

    expected = Seat.objects.filter(game=game).order_by("number")
    # Both reads: the dispatcher's (with the seats' people) and the plain one.
    for rows in (turns.rows_of(reads.seats_of(game.pk, names=True)), turns.seat_rows(game.pk)):
        assert sorted(rows) == sorted(expected.values_list(*seats.SEAT_ROW, named=False))
        assert [row.registered_bot__status for row in sorted(rows)] == [None, "active", None]
