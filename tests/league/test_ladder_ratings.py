"""Ladder ratings: openskill's Plackett-Luce against an update computed by hand, the
`ladder-ratings` projection over sets played by the workers (one rating event per set of
rotations), a rebuild that reproduces every number, and the decay for time away."""

from __future__ import annotations

import datetime
import math
import random

import pytest
import time_machine
from django.db import transaction

from games import projections
from games.models import MatchResult
from league import ratings
from league.ladders import ladder_matchmaking
from league.models import LadderMeeting, LadderSet, Rating, RatingChange
from tests.league.factories import enter_bots, make_competition

pytestmark = pytest.mark.django_db


def plackett_luce_by_hand(skills, places):
    """Weng and Lin (2011), algorithm 4, one player a team, written out from the paper:
    sigma^2 gets tau^2 first; c^2 = sum(sigma^2 + beta^2); ties share a rank."""
    tau, beta, kappa = ratings.TAU, ratings.BETA, 0.0001
    var = [s.sigma**2 + tau**2 for s in skills]
    c = math.sqrt(sum(v + beta**2 for v in var))
    exp = [math.exp(s.mu / c) for s in skills]
    # sum over everyone placed no better than q, for each q; a: how many share q's place.
    sum_q = [sum(exp[i] for i in range(len(skills)) if places[i] >= places[q]) for q in
             range(len(skills))]  # fmt: skip
    a = [sum(1 for p in places if p == places[q]) for q in range(len(skills))]
    after = []
    for i, skill in enumerate(skills):
        omega = delta = 0.0
        for q in range(len(skills)):
            if places[q] <= places[i]:
                share = exp[i] / sum_q[q]
                delta += share * (1 - share) / a[q]
                omega += ((1 - share) if q == i else -share) / a[q]
        omega *= var[i] / c
        delta *= var[i] / c**2
        gamma = math.sqrt(var[i]) / c
        delta *= gamma
        mu = skill.mu + omega
        sigma = math.sqrt(var[i] * max(1 - delta, kappa))
        after.append(ratings.Skill(mu, sigma))
    return after


@pytest.mark.parametrize(
    "places", [[1, 2, 3, 4], [2, 1, 2, 4], [1, 1, 3, 3], [4, 3, 2, 1]], ids=str
)
def test_an_update_is_the_one_computed_by_hand(places):
    skills = [ratings.Skill(25, 8.333), ratings.Skill(30, 4), ratings.Skill(20, 6), ratings.Skill()]
    expected = plackett_luce_by_hand(skills, places)
    got = ratings.rate(skills, places)
    for mine, theirs in zip(got, expected, strict=True):
        assert mine.mu == pytest.approx(theirs.mu, abs=1e-9)
        assert mine.sigma == pytest.approx(theirs.sigma, abs=1e-9)


def test_a_win_raises_mu_and_a_loss_lowers_it_and_every_sigma_shrinks():
    before = [ratings.Skill(), ratings.Skill(), ratings.Skill()]
    first, second, third = ratings.rate(before, [1, 2, 3])
    assert first.mu > ratings.MU > third.mu
    assert first.mu > second.mu > third.mu
    assert all(after.sigma < ratings.SIGMA for after in (first, second, third))


def test_a_set_is_placed_by_the_sum_of_its_games_places_ties_shared():
    # Entrant by entrant, its place in each of the four rotations.
    assert ratings.set_places([[1, 2, 1, 1], [2, 1, 3, 4], [3, 3, 2, 2], [4, 4, 4, 3]]) == [
        1,
        2,
        2,
        4,
    ]
    assert ratings.set_places([[2], [1]]) == [2, 1]


def test_time_away_grows_sigma_up_to_a_newcomers():
    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    settled = ratings.Skill(30.0, 1.5)
    month = ratings.decayed(settled, start, start + datetime.timedelta(days=30))
    assert month.mu == 30.0
    assert month.sigma == pytest.approx(math.sqrt(1.5**2 + ratings.DECAY_PER_DAY**2 * 30))
    assert month.ordinal < settled.ordinal
    years = ratings.decayed(settled, start, start + datetime.timedelta(days=3650))
    assert years.sigma == ratings.SIGMA
    assert ratings.decayed(settled, None, start) == settled


def play_set(ladder, seed=7):
    """A matchmaking run whose sets the bots play to the end, in-process."""
    with transaction.atomic():
        games = ladder_matchmaking(ladder, rng=random.Random(seed))
    return games


@pytest.fixture
def ladder(eager_tasks):
    ladder = make_competition(seats_per_game=3, matchmaking=True)
    enter_bots(ladder, 3)
    return ladder


def ratings_table(ladder):
    return sorted(
        Rating.objects.filter(competition=ladder).values_list(
            "entry", "mu", "sigma", "events", "games", "wins", "last_played", "rated_at"
        )
    )


@pytest.mark.django_db(transaction=True)
def test_a_set_of_rotations_is_one_rating_event_computed_from_its_games(ladder):
    play_set(ladder)
    [ladder_set] = LadderSet.objects.filter(competition=ladder)
    assert (ladder_set.size, ladder_set.made) == (3, 3)
    projections.run("game-results")
    projections.run("ladder-ratings")

    # Each entrant's place in each rotation, read from the match results and the rotation.
    results = {
        r.game.context["rotation"]: r.places
        for r in MatchResult.objects.filter(game__context__ladder_set=ladder_set.pk)
    }
    assert sorted(results) == [0, 1, 2]
    game_places = [
        [results[rot][ladder_set.seat_of(entry, rot)] for rot in range(3)]
        for entry in ladder_set.entries
    ]
    expected = ratings.rate([ratings.Skill()] * 3, ratings.set_places(game_places))
    for entry, skill in zip(ladder_set.entries, expected, strict=True):
        row = Rating.objects.get(entry_id=entry)
        assert (row.events, row.games) == (1, 3)
        assert row.mu == pytest.approx(skill.mu)
        assert row.sigma == pytest.approx(skill.sigma)
        [change] = RatingChange.objects.filter(entry_id=entry)
        assert change.places == game_places[ladder_set.entries.index(entry)]
        assert (change.mu_before, change.sigma_before) == (ratings.MU, ratings.SIGMA)
    # Three games, each pair at one table in each: both directions stored.
    assert LadderMeeting.objects.filter(competition=ladder).count() == 6
    assert {m.games for m in LadderMeeting.objects.all()} == {3}


@pytest.mark.django_db(transaction=True)
def test_a_rebuild_reproduces_every_rating_exactly(ladder):
    play_set(ladder, seed=1)
    play_set(ladder, seed=2)
    projections.run("ladder-ratings")
    before = ratings_table(ladder)
    history = sorted(RatingChange.objects.values_list("entry", "position", "mu", "sigma"))
    assert len(history) == 6

    projections.rebuild("ladder-ratings")

    assert ratings_table(ladder) == before
    assert sorted(RatingChange.objects.values_list("entry", "position", "mu", "sigma")) == history


@pytest.mark.django_db(transaction=True)
def test_time_away_is_decayed_before_the_next_set_is_rated(ladder):
    start = datetime.datetime(2026, 3, 1, 12, tzinfo=datetime.UTC)
    with time_machine.travel(start, tick=False):
        play_set(ladder, seed=1)
    with time_machine.travel(start + datetime.timedelta(days=40), tick=False):
        play_set(ladder, seed=2)
    projections.run("ladder-ratings")
    for rating in Rating.objects.filter(competition=ladder):
        first, second = RatingChange.objects.filter(entry=rating.entry).order_by("position")
        assert second.mu_before == first.mu
        assert second.sigma_before == pytest.approx(
            min(math.sqrt(first.sigma**2 + ratings.DECAY_PER_DAY**2 * 40), ratings.SIGMA)
        )
