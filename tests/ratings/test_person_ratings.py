"""The `person-ratings` projection: a rated game moves its people's ratings in its pool with the
ladders' model, a casual one moves nothing, bots are never rated and never change a person's
place among people, and a rebuild from the log gives every figure again, to the last digit."""

from __future__ import annotations

import datetime

import pytest
import time_machine

from games import projections
from games.models import MatchResult
from games.tasks import run_projections
from league import ratings
from ratings.models import PersonRating, PersonRatingChange
from ratings.pools import people_places, pool_name, pool_of
from staff import actions, rebuilds
from tests.games.factories import make_user
from tests.ratings.games import ONE_CARD, one_card_game, run_ratings

pytestmark = pytest.mark.django_db


def rating(user, family="official") -> PersonRating:
    return PersonRating.objects.get(user=user, family=family)


def test_a_rated_game_moves_both_ratings_the_winner_up_the_loser_down():
    ana, ben = make_user("ana"), make_user("ben")
    game = one_card_game([ana, ben], winner=1)
    run_ratings()
    assert MatchResult.objects.get(game=game).places == [2, 1]

    after = ratings.rate([ratings.Skill(), ratings.Skill()], [2, 1])
    for person, expected in ((ana, after[0]), (ben, after[1])):
        row = rating(person)
        assert (row.mu, row.sigma) == (expected.mu, expected.sigma)
        assert row.games == 1
    assert rating(ben).mu > ratings.MU > rating(ana).mu
    assert rating(ben).wins == 1.0 and rating(ana).wins == 0.0
    changes = {c.user_id: c for c in PersonRatingChange.objects.filter(game=game)}
    assert changes[ben.pk].place == 1 and changes[ana.pk].place == 2
    assert changes[ben.pk].mu_before == ratings.MU and changes[ben.pk].sigma_before == ratings.SIGMA
    assert changes[ben.pk].people == 2
    assert changes[ben.pk].recorded_at == rating(ben).rated_at


def test_a_casual_game_moves_nothing():
    ana, ben = make_user(), make_user()
    one_card_game([ana, ben], rated=False)
    run_ratings()
    assert not PersonRating.objects.exists()
    assert not PersonRatingChange.objects.exists()


def test_a_practice_deal_is_never_rated_even_if_marked_rated():
    ana, ben = make_user(), make_user()
    one_card_game([ana, ben], seed_chosen_by=ana.pk)
    run_ratings()
    assert not PersonRating.objects.exists()


def test_bots_at_a_rated_table_are_left_out_and_the_people_placed_among_themselves():
    ana, ben = make_user(), make_user()
    # The bot wins; ana (seat 1, 2 points left) is ahead of ben (seat 2, 3 points left).
    game = one_card_game(["greedy", ana, ben], winner=0)
    run_ratings()
    assert MatchResult.objects.get(game=game).places == [1, 2, 3]
    changes = {c.user_id: c for c in PersonRatingChange.objects.filter(game=game)}
    assert set(changes) == {ana.pk, ben.pk}
    assert (changes[ana.pk].place, changes[ben.pk].place) == (1, 2)
    assert changes[ana.pk].people == 2
    # Exactly a two-person game's update: the bot took no part in it.
    first, second = ratings.rate([ratings.Skill(), ratings.Skill()], [1, 2])
    assert (rating(ana).mu, rating(ana).sigma) == (first.mu, first.sigma)
    assert (rating(ben).mu, rating(ben).sigma) == (second.mu, second.sigma)
    assert rating(ana).wins == 1.0  # first among the people


def test_a_rated_game_with_one_person_and_bots_rates_nobody():
    ana = make_user()
    one_card_game([ana, "greedy"], winner=0)
    run_ratings()
    assert not PersonRating.objects.exists()


def test_each_pool_is_apart_and_precognitive_is_a_pool_of_its_own():
    assert pool_of({"rules": "official", "options": {}}) == "official"
    assert pool_of({"rules": "basic-plus", "precognitive": {"lane": 1}}) == (
        "basic-plus-precognitive"
    )
    assert pool_of({"rules": "official", "precognitive": {"lane": 2}}) == "official-precognitive"
    assert pool_name("official-precognitive") == "Official + precognitive"
    assert people_places([2, 1, 3, 1], [0, 2, 3]) == [2, 3, 1]
    assert people_places([1, 1, 3], [0, 1]) == [1, 1]

    ana, ben = make_user(), make_user()
    one_card_game([ana, ben], winner=0)
    one_card_game([ana, ben], winner=0, spec={**ONE_CARD, "rules": "basic-plus"})
    run_ratings()
    assert set(PersonRating.objects.filter(user=ana).values_list("family", "games")) == {
        ("official", 1),
        ("basic-plus", 1),
    }


def test_a_person_in_two_seats_is_not_rated():
    ana, ben = make_user(), make_user()
    one_card_game([ana, ana, ben], winner=0)
    run_ratings()
    assert not PersonRating.objects.exists()


def figures() -> tuple[list[tuple], list[tuple]]:
    rows = sorted(
        PersonRating.objects.values_list(
            "user_id", "family", "mu", "sigma", "games", "wins", "rated_at"
        )
    )
    changes = sorted(
        PersonRatingChange.objects.values_list(
            "user_id", "family", "game_id", "position", "recorded_at", "mu_before",
            "sigma_before", "mu", "sigma", "place", "people",
        )
    )  # fmt: skip
    return rows, changes


def test_a_rebuild_from_the_log_gives_the_same_figures_to_the_last_digit():
    ana, ben, cy, dee = (make_user() for _ in range(4))
    start = datetime.datetime(2026, 3, 2, 12, tzinfo=datetime.UTC)
    with time_machine.travel(start, tick=False) as clock:
        one_card_game([ana, ben], winner=0)
        one_card_game([ben, cy, "greedy"], winner=1)
        clock.shift(datetime.timedelta(days=3))
        one_card_game([cy, ana, dee], winner=2)
        one_card_game([ana, ben], rated=False, winner=1)
        run_ratings()  # the first games folded now, the rest by the next run
        # ana away for 40 days: her sigma grows before the next update (the ladders' decay).
        clock.shift(datetime.timedelta(days=40))
        one_card_game([dee, ana], winner=1)
        one_card_game([ana, ben, cy, dee], winner=3, spec={**ONE_CARD, "rules": "basic-plus"})
    run_ratings()
    before = figures()
    assert len(before[0]) == 8 and len(before[1]) == 13

    last = PersonRatingChange.objects.filter(user=ana, family="official").order_by("position")
    came_back = list(last)[-1]
    earlier = list(last)[-2]
    assert came_back.sigma_before > earlier.sigma  # the decay for the 40 days away

    projections.rebuild("person-ratings")
    assert figures() == before
    # A second run folds nothing new and changes nothing.
    projections.run("person-ratings")
    assert figures() == before


def test_ratings_run_with_the_periodic_projections():
    ana, ben = make_user(), make_user()
    one_card_game([ana, ben])
    projections.run("game-results")
    # games.tasks.run_projections, which run_periodic and celery beat run, runs every projection.
    assert "person-ratings" in projections.PROJECTIONS
    run_projections()
    assert rating(ana).games == 1


def test_the_staff_consoles_rebuild_gives_the_same_figures(
    eager_tasks, django_capture_on_commit_callbacks
):
    ana, ben, cy = make_user(), make_user(), make_user()
    one_card_game([ana, ben, cy], winner=2)
    one_card_game([cy, "greedy", ana], winner=1)
    run_ratings()
    before = figures()
    staff = make_user("root")
    staff.is_staff = True
    staff.save()
    with django_capture_on_commit_callbacks(execute=False):
        entry = actions.projection_rebuild(
            name="person-ratings", user=staff, reason="checking the ratings rebuild"
        )
    rebuilds.run(entry.pk)
    entry.refresh_from_db()
    assert entry.details["state"] == "done"
    assert figures() == before
