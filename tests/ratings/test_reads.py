"""The ratings' reads: a leaderboard shares ranks between equal figures, leaves off the people
away for BOARD_DAYS and those who closed their account, and shows sigma decayed as of now."""

from __future__ import annotations

import datetime

import pytest
from django.test import override_settings

from league import ratings
from ratings import reads
from ratings.errors import PoolNotFound
from ratings.models import PersonRating
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db
NOW = datetime.datetime(2026, 6, 1, 12, tzinfo=datetime.UTC)


def rated(name: str, mu: float, sigma: float, games: int, days_ago: float = 0) -> PersonRating:
    return PersonRating.objects.create(
        user=make_user(name),
        family="newno",
        mu=mu,
        sigma=sigma,
        games=games,
        rated_at=NOW - datetime.timedelta(days=days_ago),
    )


@override_settings(RATINGS_PROVISIONAL_GAMES=5)
def test_a_leaderboard_shares_ranks_and_leaves_off_the_away_and_the_gone():
    rated("ana", 30, 2, games=9)
    rated("ben", 28, 2, games=6)
    rated("cy", 28, 2, games=7)
    rated("dee", 40, 2, games=2)  # provisional: listed apart, however high
    rated("eve", 35, 2, games=9, days_ago=31)  # away too long
    gone = rated("fay", 35, 2, games=9)
    gone.user.is_active = False
    gone.user.save()

    board = reads.leaderboard("newno", now=NOW)
    assert [(line.rank, line.username) for line in board.ranked] == [
        (1, "ana"), (2, "ben"), (2, "cy"),
    ]  # fmt: skip
    assert [(line.rank, line.username) for line in board.provisional] == [(None, "dee")]
    assert {line.kind for line in board.ranked + board.provisional} == {"person"}
    assert board.ranked[0].rating.rating == pytest.approx(30 - 3 * 2)
    assert reads.board_counts(now=NOW)["newno"] == 4
    assert reads.board_counts(now=NOW)["official"] == 0
    with pytest.raises(PoolNotFound):
        reads.leaderboard("chess")


def test_a_rating_read_later_has_its_sigma_decayed_for_the_time_away():
    row = rated("ana", 30, 2, games=12)
    [fresh] = reads.person_ratings(row.user, now=NOW)
    [later] = reads.person_ratings(row.user, now=NOW + datetime.timedelta(days=30))
    assert (fresh.mu, fresh.sigma) == (30, 2)
    expected = ratings.decayed(ratings.Skill(30, 2), NOW, NOW + datetime.timedelta(days=30))
    assert (later.mu, later.sigma) == (30, expected.sigma) and later.sigma > 2
    assert later.rating < fresh.rating
    # The stored row never drifts.
    row.refresh_from_db()
    assert row.sigma == 2
