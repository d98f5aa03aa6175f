"""A duplicate event of built-in bots to its end: every table of a round plays the round's one
deal once per seat rotation, byes to whoever has had fewest, and the duplicate scores (each
game's placement points against everyone who held the same cards) a rebuild gives again."""

from __future__ import annotations

import json

import pytest

from engine.events import HAND_STARTED
from games import projections, store
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import current_round, make_tournament, play_round
from tournaments.models import Round, Tournament, TournamentGame
from tournaments.services import tournament_advance, tournament_enter, tournament_start
from tournaments.standings import live_standings, standings

pytestmark = pytest.mark.django_db


def first_deal(game_id: int) -> list:
    """The first hand's deck, as dealt: the same seed deals the same cards."""
    (started, *_) = store.load(game_id, types={HAND_STARTED})
    return started["deck"]


def test_a_duplicate_event_of_bots_plays_each_deal_once_per_seat_rotation():
    organiser = make_user()
    cup = make_tournament(organiser, format="duplicate", table_size=2, rounds=2)
    for strategy in ("greedy", "random", "greedy", "random", "greedy"):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy=strategy))
    tournament_start(cup, actor=organiser)

    first = current_round(cup)
    games = list(TournamentGame.objects.filter(round=first).order_by("table", "rotation"))
    # Five at tables of two: two tables, one bye; each table plays the deal twice, seats
    # swapped, and every game of the round is dealt the same cards.
    assert len(first.byes) == 1 and len(games) == 4
    assert [(g.table, g.rotation) for g in games] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert games[1].entries == list(reversed(games[0].entries))
    assert len(first_deal(games[0].game_id)) == 108
    assert len({json.dumps(first_deal(g.game_id)) for g in games}) == 1

    play_round(cup)
    assert tournament_advance(cup)
    second = current_round(cup)
    assert second.byes and second.byes != first.byes
    play_round(cup)
    assert tournament_advance(cup)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED

    live = live_standings(cup)
    # Scores are differences from the mean of the same cards: they add up to nothing.
    assert abs(sum(line.points for line in live)) < 1e-6
    assert [line.points for line in live] == sorted((line.points for line in live), reverse=True)
    assert sum(line.byes for line in live) == sum(
        len(r.byes) for r in Round.objects.filter(tournament=cup)
    )
    assert sum(line.played for line in live) == 16

    projections.run("tournament-results")
    read = json.dumps([line.as_dict() for line in standings(cup)])
    assert read == json.dumps([line.as_dict() for line in live])
    projections.rebuild("tournament-results")
    assert json.dumps([line.as_dict() for line in standings(cup)]) == read
