"""games.commands.game_command: who may act, conflicts, illegal moves, repeats, the next hand."""

from __future__ import annotations

import random
import threading

import pytest

from engine import Variant
from games import event_reads
from games.actors import SYSTEM, BotActor
from games.commands import game_command
from games.errors import Conflict, Forbidden, GameNotFound, GameOver, IllegalMove
from games.models import Game, GameEvent
from staff.actions import game_abort
from tests.games.conftest import needs_postgresql, run_in_threads
from tests.games.factories import bot_move, make_game, make_user, owner, play_to_end, play_turn

pytestmark = pytest.mark.django_db


def event_count(game: Game) -> int:
    return GameEvent.objects.filter(game=game).count()


def other_seat(game: Game) -> int:
    return 1 - game.to_act[0]


def test_a_legal_move_appends_its_events_and_moves_the_version():
    game = make_game()
    actor, command, version = bot_move(game.pk, random.Random(1))

    result = game_command(game_id=game.pk, actor=actor, command=command, expected_version=version)

    game.refresh_from_db()
    assert result.version == game.version == event_count(game)
    assert result.version > version
    assert [e["version"] for e in result.events] == list(range(version + 1, result.version + 1))
    assert not result.repeated
    assert set(
        GameEvent.objects.filter(game=game, version__gt=version).values_list("actor", flat=True)
    ) == {f"user:{actor.pk}"}


def test_the_game_row_follows_the_replayed_state():
    game = make_game(spec={"rules": "official"})
    rng = random.Random(2)

    for _ in range(60):
        play_turn(game.pk, rng)

    game.refresh_from_db()
    state = Variant.from_spec(game.variant).replay(event_reads.load(game.pk))
    assert (game.status, game.hand_number, game.to_act) == (
        state.status,
        state.hand_number,
        list(state.to_act),
    )


def test_a_command_for_a_missing_game_is_not_found():
    with pytest.raises(GameNotFound) as raised:
        game_command(
            game_id=123_456,
            actor=make_user(),
            command={"type": "draw", "seat": 0},
            expected_version=1,
        )

    assert raised.value.code == "game-not-found"
    assert not GameEvent.objects.exists()


def test_a_user_without_a_seat_is_forbidden_and_nothing_is_written():
    game = make_game()
    before = event_count(game)
    _, command, version = bot_move(game.pk, random.Random(1))

    with pytest.raises(Forbidden) as raised:
        game_command(game_id=game.pk, actor=make_user(), command=command, expected_version=version)

    assert raised.value.code == "not-seated"
    assert event_count(game) == before


def test_a_user_cannot_act_for_a_seat_someone_else_holds():
    game = make_game()
    before = event_count(game)
    _, command, version = bot_move(game.pk, random.Random(1))
    intruder = owner(game, other_seat(game))

    with pytest.raises(Forbidden) as raised:
        game_command(game_id=game.pk, actor=intruder, command=command, expected_version=version)

    assert raised.value.code == "not-your-seat"
    assert event_count(game) == before


def test_only_the_system_may_send_a_system_command():
    game = make_game()
    player = owner(game, 0)

    with pytest.raises(Forbidden) as raised:
        game_command(
            game_id=game.pk,
            actor=player,
            command={"type": "next-hand"},
            expected_version=game.version,
        )

    assert raised.value.code == "system-command"


def test_a_stale_version_is_a_conflict_that_names_the_current_version():
    game = make_game()
    rng = random.Random(3)
    actor, command, version = bot_move(game.pk, rng)
    play_turn(game.pk, rng)
    game.refresh_from_db()
    before = event_count(game)

    with pytest.raises(Conflict) as raised:
        game_command(game_id=game.pk, actor=actor, command=command, expected_version=version)

    assert raised.value.code == "version-conflict"
    assert raised.value.current_version == game.version
    assert event_count(game) == before


def test_an_illegal_move_carries_the_engine_reason_and_writes_nothing():
    game = make_game()
    waiting = other_seat(game)
    before = event_count(game)

    with pytest.raises(IllegalMove) as raised:
        game_command(
            game_id=game.pk,
            actor=owner(game, waiting),
            command={"type": "draw", "seat": waiting},
            expected_version=game.version,
        )

    assert raised.value.code == "not-your-turn"
    assert raised.value.message
    assert event_count(game) == before
    game.refresh_from_db()
    assert game.version == before


def test_a_malformed_command_is_an_illegal_move():
    game = make_game()

    with pytest.raises(IllegalMove) as raised:
        game_command(
            game_id=game.pk,
            actor=owner(game, 0),
            command={"type": "draw"},
            expected_version=game.version,
        )

    assert raised.value.code == "malformed-command"


def test_a_repeated_command_id_returns_the_original_result_and_writes_nothing():
    game = make_game()
    rng = random.Random(4)
    actor, command, version = bot_move(game.pk, rng)
    first = game_command(
        game_id=game.pk, actor=actor, command=command, expected_version=version, command_id="c-1"
    )
    play_turn(game.pk, rng)
    before = event_count(game)

    again = game_command(
        game_id=game.pk, actor=actor, command=command, expected_version=version, command_id="c-1"
    )

    assert again.repeated
    assert (again.version, again.events) == (first.version, first.events)
    assert event_count(game) == before


def test_a_bot_acts_for_the_seats_it_holds():
    game = make_game(players=0, bots=["greedy", "random"])
    seat = game.to_act[0]
    _, command, version = bot_move(game.pk, random.Random(5))

    with pytest.raises(Forbidden):
        game_command(
            game_id=game.pk,
            actor=BotActor("random" if seat == 0 else "greedy"),
            command=command,
            expected_version=version,
        )
    result = game_command(
        game_id=game.pk, actor=owner(game, seat), command=command, expected_version=version
    )

    assert GameEvent.objects.get(game=game, version=result.version).actor.startswith("bot:")


def test_the_system_may_act_for_any_seat():
    game = make_game()
    _, command, version = bot_move(game.pk, random.Random(6))

    result = game_command(game_id=game.pk, actor=SYSTEM, command=command, expected_version=version)

    assert GameEvent.objects.get(game=game, version=result.version).actor == "system"


def test_the_next_hand_starts_by_itself_in_the_same_append_that_ends_a_hand():
    # To 500 points: the first hand cannot end the match.
    game = make_game(spec={"rules": "official"}, seed=11)
    rng = random.Random(11)

    while True:
        result = play_turn(game.pk, rng)
        types = [e["event"]["type"] for e in result.events]
        if "hand-ended" in types:
            break

    game.refresh_from_db()
    assert "match-ended" not in types
    assert "hand-started" in types[types.index("hand-ended") :]
    assert (game.status, game.hand_number) == (Game.Status.PLAYING, 2)
    assert game.to_act
    # One command, one append: only its first event carries a command id.
    command_ids = GameEvent.objects.filter(
        game=game, version__in=[e["version"] for e in result.events]
    ).values_list("command_id", flat=True)
    assert len([i for i in command_ids if i is not None]) == 1


def test_a_match_played_through_the_service_ends_with_places_and_stops_taking_moves():
    game = make_game(seed=21)

    play_to_end(game.pk, seed=21)

    game.refresh_from_db()
    state = Variant.from_spec(game.variant).replay(event_reads.load(game.pk))
    assert game.status == state.status == Game.Status.MATCH_OVER
    assert game.to_act == []
    assert sorted(state.places) in ([1, 2], [1, 1])
    with pytest.raises(IllegalMove) as raised:
        game_command(
            game_id=game.pk,
            actor=owner(game, 0),
            command={"type": "draw", "seat": 0},
            expected_version=game.version,
        )
    assert raised.value.code == "game-over"


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_eight_writers_racing_on_one_game_get_one_move_per_version_and_conflicts():
    game = make_game(seed=31)
    writers, rounds = 8, 12
    barrier = threading.Barrier(writers)

    def write(i: int) -> list[tuple[str, int]]:
        rng = random.Random(i)
        outcomes = []
        for _ in range(rounds):
            actor, command, version = bot_move(game.pk, rng)
            barrier.wait(timeout=30)
            try:
                result = game_command(
                    game_id=game.pk,
                    actor=actor,
                    command=command,
                    expected_version=version,
                    command_id=f"writer-{i}-at-{version}",
                )
                outcomes.append(("applied", result.version))
            except Conflict as conflict:
                outcomes.append(("conflict", conflict.current_version))
            # Everyone sees the round's winner before the next round begins.
            barrier.wait(timeout=30)
        return outcomes

    outcomes = run_in_threads(writers, write)

    game.refresh_from_db()
    for round_ in zip(*outcomes, strict=True):
        kinds = sorted(kind for kind, _ in round_)
        assert kinds == ["applied"] + ["conflict"] * (writers - 1)
        # Every loser was told the version the winner moved the game to.
        assert len({version for _, version in round_}) == 1
    versions = list(
        GameEvent.objects.filter(game=game).order_by("version").values_list("version", flat=True)
    )
    assert versions == list(range(1, game.version + 1))
    appends = GameEvent.objects.filter(game=game, command_id__contains="/writer-").count()
    assert appends == rounds
    state = Variant.from_spec(game.variant).replay(event_reads.load(game.pk))
    assert game.to_act == list(state.to_act)


def test_a_command_that_races_the_match_end_is_told_the_game_is_over():
    """The command read the game while it was playing; the match ended (here the staff's
    abort) before its write: the append finds the version moved and the game over, and says
    `game-over`, not `version-conflict` (which asks to read again and decide again)."""
    game = make_game(seed=21)
    game.refresh_from_db()
    stale = Game.objects.get(pk=game.pk)  # as the command's request read it
    actor, command, version = bot_move(game.pk, random.Random(1))
    staff = make_user()
    staff.is_staff = True
    staff.save()
    game_abort(game_id=game.pk, user=staff, reason="test")
    with pytest.raises(Conflict) as raised:
        game_command(
            game_id=game.pk, actor=actor, command=command, expected_version=version, game=stale
        )
    assert isinstance(raised.value, GameOver) and raised.value.code == "game-over"
    assert f"game {game.pk} is over" in raised.value.message
    # Nothing was written after the end.
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER and raised.value.current_version == game.version
