"""Duplicate deals: a ladder table of k plays k games of one seed, the seats rotated by one
each game, so each seat's cards reach every entrant once; the same cards reach each seat in
every rotation, reshuffles included (a reshuffle's order depends on which cards the pile
holds, never on the order they were played in)."""

from __future__ import annotations

import json
import random

import pytest
from django.db import transaction
from django.test import Client

from bots import turns
from bots.simulation import play_match
from bots.strategies import find_strategy
from engine import MATCH_OVER, Variant
from engine.events import HAND_STARTED, MATCH_STARTED, PILE_RESHUFFLED
from engine.rules.decision import Decision
from games import event_reads
from games.models import Game, GameEvent
from games.reveal import revealed
from league.ladders import ladder_matchmaking
from league.models import LadderSet
from tests.league.factories import enter_bots, make_competition

OFFICIAL = Variant.from_spec({"rules": "official"})


def first_reshuffle_state(seed):
    """The state just before the first reshuffle of a seeded bot match, and its events."""
    result = play_match(OFFICIAL, [find_strategy("random")] * 4, seed)
    events = result.events
    index = next(i for i, e in enumerate(events) if e["type"] == PILE_RESHUFFLED)
    return OFFICIAL.replay(events[:index]), events[index]


def test_a_reshuffle_draws_the_same_cards_in_the_same_order_whatever_order_they_were_played():
    state, reshuffled = first_reshuffle_state(seed=3)
    pile = state.discard[:-1]
    assert sorted(reshuffled["order"]) == sorted(pile)
    shuffled = state.copy()
    rest = list(pile)
    random.Random(1).shuffle(rest)
    shuffled.discard = rest + state.discard[-1:]
    assert shuffled.discard != state.discard

    again = Decision(state.copy())
    OFFICIAL.ruleset.reshuffle(again)
    other = Decision(shuffled)
    OFFICIAL.ruleset.reshuffle(other)

    assert again.events[-1]["order"] == other.events[-1]["order"] == reshuffled["order"]


def test_another_seed_or_the_next_reshuffle_orders_the_pile_otherwise():
    state, reshuffled = first_reshuffle_state(seed=3)
    later = state.copy()
    later.shuffles += 1
    reseeded = state.copy()
    reseeded.seed = "another"
    orders = []
    for changed in (later, reseeded):
        decision = Decision(changed)
        OFFICIAL.ruleset.reshuffle(decision)
        orders.append(decision.events[-1]["order"])
    assert all(sorted(order) == sorted(reshuffled["order"]) for order in orders)
    assert all(order != reshuffled["order"] for order in orders)


@pytest.mark.django_db(transaction=True)
def test_a_ladder_table_plays_one_seed_once_per_seat_rotation(eager_tasks):
    ladder = make_competition(seats_per_game=3, matchmaking=True)
    entries = enter_bots(ladder, 3)
    with transaction.atomic():
        ladder_matchmaking(ladder, rng=random.Random(5))

    [ladder_set] = LadderSet.objects.filter(competition=ladder)
    assert sorted(ladder_set.entries) == sorted(entry.pk for entry in entries)
    games = sorted(
        Game.objects.filter(context__ladder_set=ladder_set.pk),
        key=lambda game: game.context["rotation"],
    )
    assert [game.context["rotation"] for game in games] == [0, 1, 2]
    bot_of_entry = {entry.pk: entry.bot_id for entry in entries}
    for rotation, game in enumerate(games):
        # Entry i of the set sits at seat (i + rotation) % 3.
        seated = {seat.number: seat.registered_bot_id for seat in game.seats.all()}
        for index, entry in enumerate(ladder_set.entries):
            assert seated[(index + rotation) % 3] == bot_of_entry[entry]
    # One seed, so the same deck for every hand the games share, and every seat's cards reach
    # each entrant once: entry i holds seat (i + r)'s hand in rotation r.
    starts = [event_reads.load(game.pk, types={MATCH_STARTED, HAND_STARTED}) for game in games]
    assert len({start[0]["seed"] for start in starts}) == 1
    shared = min(len(start) for start in starts)
    for number in range(1, shared):
        decks = {tuple(start[number]["deck"]) for start in starts}
        dealers = {start[number]["dealer"] for start in starts if number == 1}
        assert len(decks) == 1
        assert len(dealers) <= 1


@pytest.mark.django_db
def test_nobody_plays_two_games_of_a_ladder_at_once_while_a_set_waits(broker_tasks):
    # Tasks go to a broker nobody consumes here: the first rotation stays unplayed.
    ladder = make_competition(seats_per_game=2, matchmaking=True)
    enter_bots(ladder, 5)
    first = ladder_matchmaking(ladder, rng=random.Random(1))
    assert len(first) == 2
    assert ladder_matchmaking(ladder, rng=random.Random(2)) == []
    # The first rotation is played to its end by the worker's own service: the next run makes
    # the next rotation of that set only, for the same two entrants, seats swapped.
    game = first[0]
    for _ in range(50):
        if Game.objects.get(pk=game.pk).status == MATCH_OVER:
            break
        turns.advance_game(game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == MATCH_OVER
    [second] = ladder_matchmaking(ladder, rng=random.Random(3))
    assert second.context["ladder_set"] == game.context["ladder_set"]
    assert second.context["rotation"] == 1
    seats = lambda g: [s.registered_bot_id for s in g.seats.order_by("number")]  # noqa: E731
    assert seats(second) == seats(game)[::-1]


@pytest.mark.django_db
def test_a_rotations_cards_stay_hidden_until_its_whole_set_is_over(broker_tasks):
    # The rotations share one seed: a finished rotation's log, shown whole, would deal the
    # next rotation's cards to anyone who read it.
    ladder = make_competition(seats_per_game=2, matchmaking=True)
    enter_bots(ladder, 2)
    [first] = ladder_matchmaking(ladder, rng=random.Random(1))
    play_to_the_end(first)
    first.refresh_from_db()
    assert first.status == MATCH_OVER and not revealed(first)
    replay = Client().get(f"/api/games/{first.pk}/replay").json()
    assert "seed" not in json.dumps(replay) and "deck" not in json.dumps(replay)

    [second] = ladder_matchmaking(ladder, rng=random.Random(2))
    assert not revealed(first)
    play_to_the_end(second)
    first.refresh_from_db()
    second.refresh_from_db()
    assert revealed(first) and revealed(second)
    replay = Client().get(f"/api/games/{first.pk}/replay").json()
    assert first.context["ladder_set"] and '"seed"' in json.dumps(replay)


def play_to_the_end(game):
    for _ in range(80):
        if Game.objects.get(pk=game.pk).status == MATCH_OVER:
            return
        turns.advance_game(game_id=game.pk)
    raise AssertionError("the match did not end")


@pytest.mark.django_db
def test_the_admin_shows_a_rotations_cards_and_the_sets_seed_only_once_the_set_is_over(
    broker_tasks, django_user_model
):
    # Issue 28, item 6 (the admin's path): a finished rotation's events and its set's seed gave
    # every hand of the rotation still being played, to any superuser, unaudited.
    admin_user = django_user_model.objects.create_superuser("root", password="pw")
    client = Client()
    client.force_login(admin_user)
    ladder = make_competition(seats_per_game=2, matchmaking=True)
    enter_bots(ladder, 2)
    [first] = ladder_matchmaking(ladder, rng=random.Random(1))
    play_to_the_end(first)
    dealt = GameEvent.objects.filter(game=first, type=HAND_STARTED).order_by("version").first()
    seed = LadderSet.objects.get(pk=first.context["ladder_set"]).seed
    deck = ", ".join(f"&#x27;{card}&#x27;" for card in dealt.data["deck"][:3])
    event_page = f"/admin/games/gameevent/{dealt.pk}/change/"
    set_page = f"/admin/league/ladderset/{first.context['ladder_set']}/change/"

    before = client.get(event_page).content.decode()
    seed_before = client.get(set_page).content.decode()
    [second] = ladder_matchmaking(ladder, rng=random.Random(2))
    play_to_the_end(second)
    after = client.get(event_page).content.decode()
    seed_after = client.get(set_page).content.decode()

    assert deck not in before and "hidden until the game&#x27;s log is public" in before
    assert seed not in seed_before and "hidden until every game of the set is over" in seed_before
    assert deck in after
    assert seed in seed_after
