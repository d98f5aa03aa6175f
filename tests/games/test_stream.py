"""A stream describes itself: its first event names the variant and the rules version, so a log
exported alone replays to the same result, and a stream of other rules is refused, never re-read
under today's rules. Projections rebuilt from the log need no Seat column."""

from __future__ import annotations

import pytest

from bots import turns
from engine import MATCH_OVER, RULES_VERSION, RulesVersionMismatch, Variant
from games import appends, event_reads, projections, seat_facts
from games.errors import InvalidGame
from games.models import Game, GameEvent, MatchResult, Seat
from games.visibility import game_events, game_view
from tests.games.factories import make_game, make_user, play_to_end

pytestmark = pytest.mark.django_db


def test_a_log_exported_alone_replays_to_the_same_result():
    game = make_game(players=0, bots=["greedy", "random", "greedy"])
    play_to_end(game.pk)
    exported = [dict(event) for event in event_reads.load(game.pk)]
    # Nothing but the log: no Game row, no spec from elsewhere.
    started = exported[0]
    assert started["variant"] == Game.objects.get(pk=game.pk).variant
    assert started["rules_version"] == RULES_VERSION
    state = Variant.from_stream(started).replay(exported)
    view = game_view(game_id=game.pk, viewer=None)
    assert (state.status, state.places, state.scores) == (
        view["status"],
        view["places"],
        view["scores"],
    )


def test_a_stream_of_other_rules_is_refused():
    started = Variant.from_spec({"rules": "official"}).start(2, seed=1)[0]
    with pytest.raises(RulesVersionMismatch):
        Variant.from_stream({**started, "rules_version": RULES_VERSION + 1})


def test_a_game_recorded_under_other_rules_is_not_shown_or_played():
    game = make_game(players=2)
    # A game as a future engine would have written it (the store keeps facts as given).
    other = event_reads.load(game.pk)
    other[0] = {**other[0], "rules_version": RULES_VERSION + 1}
    stream = Game.objects.create(variant=game.variant, seat_count=2)
    Seat.objects.bulk_create(
        Seat(game=stream, number=n, user=make_user(), controller=Seat.Controller.PERSON)
        for n in range(2)
    )
    appends.append(game_id=stream.pk, events=other, expected_version=0)
    with pytest.raises(InvalidGame) as refused:
        game_view(game_id=stream.pk, viewer=None)
    assert refused.value.code == "rules-version"
    with pytest.raises(InvalidGame) as refused:
        game_events(game_id=stream.pk, viewer=None)
    assert refused.value.code == "rules-version"


def test_results_rebuilt_with_the_seat_rows_reset_are_the_same():
    """Forfeits are seat-forfeited events: a rebuild reads the log, not today's Seat rows."""
    game = make_game(players=1, bots=["greedy", "random"], seed=5)
    user = game.seats.get(number=0).user
    seat_facts.game_resign(game_id=game.pk, actor=user)
    # The default bot moves the resigned seat with the others: a worker's run, in-process.
    for _ in range(200):
        if not turns.advance_game(game_id=game.pk).commands:
            break
    assert Game.objects.get(pk=game.pk).status == MATCH_OVER
    projections.run("game-results")
    before = list(MatchResult.objects.filter(game=game).values())
    assert before[0]["forfeited"] == [0] and before[0]["places"][0] == 3

    Seat.objects.filter(game=game).update(
        controller=Seat.Controller.PERSON, deadline_at=None, vacation_until=None
    )
    projections.rebuild("game-results")

    assert list(MatchResult.objects.filter(game=game).values()) == before
    forfeit = GameEvent.objects.get(game=game, type="seat-forfeited")
    assert forfeit.data == {"seat": 0, "reason": "resigned"}
    assert forfeit.actor == f"user:{user.pk}"
