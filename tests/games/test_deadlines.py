"""People's turns: deadlines, the overdue-turn sweep and its timeout policy, resigning, vacations
and turn notices (clocks/deadlines.py, clocks/overdue.py, games/seat_facts.py), with time-machine
for the clock. Tasks run eagerly and the append listeners run through
django_capture_on_commit_callbacks."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import transaction

from clocks import deadlines, overdue
from engine import MATCH_OVER, PLAYING
from games import outbox, projections, seat_facts, tasks
from games.actors import SYSTEM
from games.commands import game_command
from games.creation import SeatSpec, game_create
from games.errors import Forbidden, InvalidGame
from games.game_settings import GameSettings
from games.models import Game, GameEvent, MatchResult, NotificationPreference, Seat, TurnNotice
from games.placings import places_with_forfeits
from games.visibility import game_events, game_view
from social.models import Notification
from tests.games.factories import make_user, play_turn

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

START = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)
HOUR = 3600
LONG = {"rules": "official", "options": {"target": 500}}


@pytest.fixture
def run_listeners(django_capture_on_commit_callbacks):
    """Run the code with the append listeners (and what they dispatch) executed on commit."""

    def run(work, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return work(*args, **kwargs)

    return run


def people_game(
    people: int = 2, bots: tuple[str, ...] = (), context=None, spec=None, emails=True, **kw
):
    """A game of new people (with emails, unless `emails` is false) and then the named built-in
    bots; `context` holds GameSettings fields besides the hour-long turns."""
    users = [make_user() for _ in range(people)]
    for user in users if emails else ():
        user.email = f"{user.username}@example.com"
        user.save()
    seats = [SeatSpec(user=user) for user in users] + [SeatSpec(bot=name) for name in bots]
    return game_create(
        variant_spec=spec or LONG,
        seats=seats,
        seed=kw.get("seed", 3),
        dealer=kw.get("dealer", people + len(bots) - 1),
        settings=GameSettings(turn_seconds=HOUR, **(context or {})),
    )


def seat(game: Game, number: int) -> Seat:
    return Seat.objects.get(game=game, number=number)


def test_a_persons_turn_gets_a_deadline_when_it_starts_and_loses_it_when_it_ends(run_listeners):
    with time_machine.travel(START, tick=False):
        game = run_listeners(people_game)
        assert Game.objects.get(pk=game.pk).to_act == [0]
        assert seat(game, 0).deadline_at == START + timedelta(seconds=HOUR)
        assert seat(game, 1).deadline_at is None
    with time_machine.travel(START + timedelta(minutes=5), tick=False):
        view = game_view(game_id=game.pk, viewer=SYSTEM_VIEW, seat=0)
        user = seat(game, 0).user
        command = next(c for c in view["legal"] if c["type"] in ("play", "draw"))
        run_listeners(
            game_command,
            game_id=game.pk,
            actor=user,
            command=command,
            expected_version=view["version"],
        )
        to_act = Game.objects.get(pk=game.pk).to_act
        if to_act == [1]:
            assert seat(game, 0).deadline_at is None
            assert seat(game, 1).deadline_at == START + timedelta(minutes=5, seconds=HOUR)
        else:
            # Drew a card and still to act: the same turn, the same deadline.
            assert seat(game, 0).deadline_at == START + timedelta(seconds=HOUR)


@pytest.mark.django_db(transaction=True)
def test_in_process_a_persons_next_turn_after_the_bots_gets_a_new_deadline(mailoutbox):
    # Autocommit and eager tasks, as in `make run`: the bots' run is appended inside the
    # dispatch of the person's move, before that dispatch has stopped the person's clock.
    with time_machine.travel(START, tick=False):
        game = people_game(people=1, bots=("greedy",))
    with time_machine.travel(START + timedelta(minutes=5), tick=False):
        view = game_view(game_id=game.pk, viewer=SYSTEM_VIEW, seat=0)
        command = next(c for c in view["legal"] if c["type"] == "play")
        game_command(
            game_id=game.pk,
            actor=seat(game, 0).user,
            command=command,
            expected_version=view["version"],
        )
    assert Game.objects.get(pk=game.pk).to_act == [0]
    assert seat(game, 0).deadline_at == START + timedelta(minutes=5, seconds=HOUR)
    # Both turns started with the person away (no page, no front door): the first is emailed,
    # the second is the same absence, kept for the digest (clocks/presence.py).
    assert len(mailoutbox) == 1
    assert TurnNotice.objects.filter(seat=seat(game, 0), held=True, sent_at=None).count() == 1


def test_the_game_default_turn_length_is_the_setting(settings, run_listeners):
    settings.GAMES_TURN_SECONDS = 123
    with time_machine.travel(START, tick=False):
        users = [make_user(), make_user()]
        game = run_listeners(
            game_create,
            variant_spec=LONG,
            seats=[SeatSpec(user=u) for u in users],
            seed=1,
            dealer=1,
        )
        assert seat(game, 0).deadline_at == START + timedelta(seconds=123)


def test_the_sweep_plays_the_default_bot_for_an_overdue_turn_once(run_listeners):
    with time_machine.travel(START, tick=False):
        game = run_listeners(people_game)
        version = Game.objects.get(pk=game.pk).version
    with time_machine.travel(START + timedelta(seconds=HOUR - 1), tick=False):
        assert run_listeners(overdue.expire) == []
    with time_machine.travel(START + timedelta(seconds=HOUR + 1), tick=False):
        assert run_listeners(overdue.expire) == [game.pk]
        # Run twice: nothing more is written or counted.
        assert run_listeners(overdue.expire) == []
    first = GameEvent.objects.get(game=game, version=version + 1)
    assert first.command_id == f"system/fallback:0:{version}"
    assert first.actor == "system"
    assert (first.type, first.data) == ("fallback-played", {"seat": 0, "reason": "turn-timeout"})
    timed_out = seat(game, 0)
    assert seat_facts.facts_of(game.pk).timeouts[0] == 1
    assert timed_out.controller == Seat.Controller.PERSON
    assert 0 not in Game.objects.get(pk=game.pk).to_act
    assert timed_out.deadline_at is None
    # The next seat's clock started when the timeout ended seat 0's turn.
    assert seat(game, 1).deadline_at == START + timedelta(seconds=2 * HOUR + 1)


def test_three_timeouts_hand_the_seat_to_the_default_bot_and_place_it_last(run_listeners):
    now = START
    with time_machine.travel(now, tick=False):
        game = run_listeners(people_game, people=1, bots=("greedy", "greedy"))
    for timeout in range(1, 4):
        deadline = seat(game, 0).deadline_at
        assert deadline is not None
        now = deadline + timedelta(seconds=1)
        with time_machine.travel(now, tick=False):
            run_listeners(tasks.expire_turns)
        assert seat_facts.facts_of(game.pk).timeouts[0] == timeout
    assert seat(game, 0).controller == Seat.Controller.FALLBACK
    assert seat_facts.facts_of(game.pk).forfeited == {0: "timed-out"}
    # The person is told under the bell, by what and what happens now.
    (notice,) = Notification.objects.filter(user=seat(game, 0).user, key__startswith="forfeit:")
    assert notice.text == (
        f"Your seat in game {game.pk} was forfeited by the turn clock: 3 of your turns ran out. "
        "The default bot plays the seat out as your stand-in, and it is placed last."
    )
    # The default bot played the seat, with the others, to the end of the match.
    assert Game.objects.get(pk=game.pk).status == MATCH_OVER
    projections.run("game-results")
    result = MatchResult.objects.get(game=game)
    assert result.forfeited == [0]
    assert result.places[0] == 3
    assert sorted(result.places[1:]) in ([1, 2], [1, 1])
    assert result.winner in (1, 2, None)


def test_three_timeouts_in_a_two_seat_game_end_the_match_and_the_other_seat_wins(run_listeners):
    now = START
    with time_machine.travel(now, tick=False):
        game = run_listeners(people_game, people=2)
    absent, present = seat(game, 0).user, seat(game, 1).user
    rng = random.Random(2)
    for _ in range(60):
        if seat_facts.facts_of(game.pk).forfeited or Game.objects.get(pk=game.pk).status != PLAYING:
            break
        if Game.objects.get(pk=game.pk).to_act == [1]:
            # The present person moves at once.
            with time_machine.travel(now, tick=False):
                run_listeners(play_turn, game.pk, rng)
            continue
        now = seat(game, 0).deadline_at + timedelta(seconds=1)
        with time_machine.travel(now, tick=False):
            run_listeners(tasks.expire_turns)
    assert seat_facts.facts_of(game.pk).forfeited == {0: "timed-out"}
    # The forfeit ended the match: nobody plays on against the default bot.
    ended = Game.objects.get(pk=game.pk)
    assert (ended.status, ended.to_act) == (MATCH_OVER, [])
    assert seat(game, 0).deadline_at is None and seat(game, 1).deadline_at is None
    (notice,) = Notification.objects.filter(user=absent, key__startswith="forfeit:")
    assert notice.text.endswith("The match ended with it, and your seat is placed last.")
    assert not Notification.objects.filter(user=present, kind="turn").exists()
    projections.run("game-results")
    result = MatchResult.objects.get(game=game)
    assert (result.winner, result.places, result.forfeited) == (1, [2, 1], [0])


def test_a_resigned_seat_is_played_by_the_default_bot_and_placed_last(run_listeners):
    game = run_listeners(people_game, people=1, bots=("greedy", "random"))
    user = seat(game, 0).user
    with pytest.raises(Forbidden):
        seat_facts.game_resign(game_id=game.pk, actor=make_user())
    assert run_listeners(seat_facts.game_resign, game_id=game.pk, actor=user) == [0]
    resigned = seat(game, 0)
    assert seat_facts.facts_of(game.pk).forfeited == {0: "resigned"}
    assert resigned.controller == Seat.Controller.FALLBACK
    assert resigned.deadline_at is None
    assert Game.objects.get(pk=game.pk).status == MATCH_OVER
    projections.run("game-results")
    result = MatchResult.objects.get(game=game)
    assert result.places[0] == 3
    assert result.forfeited == [0]
    assert result.winner != 0
    with pytest.raises(InvalidGame) as over:
        seat_facts.game_resign(game_id=game.pk, actor=user)
    assert over.value.code == "match-over"


def test_places_with_forfeits():
    assert places_with_forfeits([1, 2, 3, 4], [0]) == [4, 1, 2, 3]
    assert places_with_forfeits([1, 2, 2, 4], [1, 3]) == [1, 3, 2, 3]
    assert places_with_forfeits([2, 1, 3], []) == [2, 1, 3]


def test_vacation_pauses_the_clock_within_the_budget(run_listeners):
    with time_machine.travel(START, tick=False):
        game = run_listeners(people_game, context={"vacation_days": 3})
        first, second = seat(game, 0), seat(game, 1)
        deadlines.seat_vacation(game_id=game.pk, actor=first.user, days=2)
        assert seat(game, 0).deadline_at == START + timedelta(days=2, seconds=HOUR)
        with pytest.raises(deadlines.VacationExhausted):
            deadlines.seat_vacation(game_id=game.pk, actor=first.user, days=2)
        deadlines.seat_vacation(game_id=game.pk, actor=first.user, days=1)
        assert seat_facts.facts_of(game.pk).vacation_days[0] == 3
        # Not to act: its next turn's clock starts when the pause ends.
        deadlines.seat_vacation(game_id=game.pk, actor=second.user, days=1)
        assert seat(game, 1).vacation_until == START + timedelta(days=1)
    with time_machine.travel(START + timedelta(seconds=HOUR + 1), tick=False):
        assert run_listeners(overdue.expire) == []
        # Seat 0 plays (draws) during seat 1's pause: seat 1's clock starts when it ends.
        view = game_view(game_id=game.pk, viewer=first.user)
        draw = next(c for c in view["legal"] if c["type"] == "draw")
        run_listeners(
            game_command,
            game_id=game.pk,
            actor=first.user,
            command=draw,
            expected_version=view["version"],
        )
        if Game.objects.get(pk=game.pk).to_act == [1]:
            assert seat(game, 1).deadline_at == START + timedelta(days=1, seconds=HOUR)


def test_vacation_needs_a_budget_and_whole_days(run_listeners):
    game = run_listeners(people_game)
    user = seat(game, 0).user
    with pytest.raises(deadlines.VacationExhausted):
        deadlines.seat_vacation(game_id=game.pk, actor=user, days=1)
    with pytest.raises(deadlines.GameError) as bad:
        deadlines.seat_vacation(game_id=game.pk, actor=user, days=0)
    assert bad.value.code == "invalid-days"


def test_a_person_is_emailed_when_their_turn_starts(run_listeners, mailoutbox, settings):
    settings.SITE_URL = "https://uno.example.org/"
    game = run_listeners(people_game)
    user = seat(game, 0).user
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == [user.email]
    assert f"game {game.pk}" in mailoutbox[0].subject
    assert f"https://uno.example.org/games/{game.pk}/\n" in mailoutbox[0].body
    # Run again: the notice was sent once.
    run_listeners(deadlines.sync_deadlines, game.pk)
    assert len(mailoutbox) == 1


def test_a_person_with_no_address_gets_a_notice_and_no_task(run_listeners, mailoutbox, monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr(tasks.send_turn_email, "delay", sent.append)
    game = run_listeners(people_game, emails=False)
    notice = TurnNotice.objects.get(seat=seat(game, 0))
    # The notice is kept (the person's notifications list it), already claimed: nothing to send.
    assert notice.deadline_at == seat(game, 0).deadline_at and notice.sent_at is not None
    assert sent == [] and mailoutbox == []
    assert deadlines.unsent_notices(older_than=timedelta(0)) == []


def test_a_digest_user_gets_one_daily_email(run_listeners, mailoutbox, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    users = [make_user(), make_user()]
    for user in users:
        user.email = f"{user.username}@example.com"
        user.save()
        NotificationPreference.objects.create(
            user=user, turn_emails=NotificationPreference.TurnEmails.DIGEST
        )
    games = [
        run_listeners(
            game_create,
            variant_spec=LONG,
            seats=[SeatSpec(user=users[0]), SeatSpec(user=users[1])],
            seed=seed,
            dealer=1,
        )
        for seed in (1, 2)
    ]
    assert mailoutbox == []
    notices = list(TurnNotice.objects.filter(sent_at=None).select_related("seat__game"))
    assert len(notices) == 2
    waiting = {n.seat.user_id for n in notices}
    assert deadlines.send_turn_digests() == len(waiting)
    assert len(mailoutbox) == len(waiting)
    bodies = "".join(mail.body for mail in mailoutbox)
    # Two games against the same person, told apart by their numbers; each line names who else
    # sits at the game and its rules.
    for n in notices:
        other = users[1 - n.seat.number].username
        family = n.seat.game.variant["rules"]
        assert (
            f"- against {other} ({family}, game {n.seat.game_id}, seat {n.seat.number + 1}): "
            in bodies
        )
    assert all(f" at http://127.0.0.1:8000/games/{g.pk}/\n" in bodies for g in games)
    assert deadlines.send_turn_digests() == 0


SYSTEM_VIEW = SYSTEM


def test_a_vacation_neither_conflicts_with_a_move_nor_shows_its_dates_to_others():
    game = people_game(context={"vacation_days": 3})
    first, second = seat(game, 0).user, seat(game, 1).user
    view = game_view(game_id=game.pk, viewer=first)
    deadlines.seat_vacation(game_id=game.pk, actor=second, days=1)
    # Seat 0 decided before the vacation was appended: a seat fact moves no card.
    command = next(c for c in view["legal"] if c["type"] in ("play", "draw"))
    result = game_command(
        game_id=game.pk, actor=first, command=command, expected_version=view["version"]
    )
    assert result.version > view["version"] + 1
    seen = game_events(game_id=game.pk, viewer=first, after=view["version"])[0]
    assert seen["event"] == {"type": "vacation-taken", "seat": 1, "days": None, "until": None}
    own = game_events(game_id=game.pk, viewer=second, after=view["version"])[0]
    assert own["event"]["days"] == 1 and own["event"]["until"]


def test_a_command_sent_again_after_its_seat_was_handed_over_keeps_its_first_result():
    game = people_game()
    acting = game.to_act[0]
    user = seat(game, acting).user
    view = game_view(game_id=game.pk, viewer=user)
    command = next(c for c in view["legal"] if c["type"] in ("play", "draw"))
    first = game_command(
        game_id=game.pk, actor=user, command=command, expected_version=view["version"],
        command_id="c-1",
    )  # fmt: skip
    seat_facts.game_resign(game_id=game.pk, actor=user)

    again = game_command(
        game_id=game.pk, actor=user, command=command, expected_version=view["version"],
        command_id="c-1",
    )  # fmt: skip

    assert again.repeated
    assert (again.version, again.events) == (first.version, first.events)
    with pytest.raises(Forbidden) as refused:
        game_command(
            game_id=game.pk, actor=user, command=command, expected_version=first.version,
            command_id="c-2",
        )  # fmt: skip
    assert refused.value.code == "seat-handed-over"


def test_a_resigned_person_no_longer_moves_their_seat():
    # Three seats: two play on after the resignation (with two, it ends the match).
    game = people_game(people=3)
    acting = game.to_act[0]
    user = seat(game, acting).user
    seat_facts.game_resign(game_id=game.pk, actor=user)
    view = game_view(game_id=game.pk, viewer=SYSTEM_VIEW, seat=acting)
    assert view["legal"]
    with pytest.raises(Forbidden) as refused:
        game_command(
            game_id=game.pk, actor=user, command=view["legal"][0], expected_version=view["version"]
        )
    assert refused.value.code == "seat-handed-over"
    assert Game.objects.get(pk=game.pk).version == view["version"]


@pytest.mark.django_db(transaction=True)
def test_a_failing_outcome_subscriber_is_logged_and_the_commit_stands(caplog):
    def broken(outcome):
        raise RuntimeError("subscriber down")

    unsubscribe = outbox.subscribe(broken)
    try:
        with transaction.atomic():
            game = people_game()
            outbox.publish(outbox.TurnStarted(notice_id=0))
    finally:
        unsubscribe()

    assert Game.objects.filter(pk=game.pk).exists()
    assert "subscriber down" in caplog.text


def test_a_turn_email_names_the_others_not_the_persons_own_seats():
    """`whose_game`, the words of a turn email's subject: the names at the other seats (a name
    held twice with its seat, counted from 1), never the person's own other seat."""
    ana = make_user("ana")
    twice = game_create(
        variant_spec={"rules": "newno"},
        seats=[SeatSpec(user=ana), SeatSpec(bot="greedy"), SeatSpec(bot="greedy")],
        seed=1,
    )
    assert deadlines.whose_game(twice, 0) == (
        f"against greedy (seat 2) and greedy (seat 3) (newno, game {twice.pk})"
    )
    both = game_create(
        variant_spec=LONG,
        seats=[SeatSpec(user=ana), SeatSpec(bot="random"), SeatSpec(user=ana)],
        seed=1,
    )
    assert deadlines.whose_game(both, 2) == f"against random (official, game {both.pk})"
