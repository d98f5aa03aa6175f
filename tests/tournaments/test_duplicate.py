"""A duplicate event: every table of a round is dealt the round's one deal and plays it once,
so a deal-seat is scored against everyone who held it at the round's other tables; byes go to
whoever has had fewest; the duplicate scores a rebuild gives again; fewer than two full tables'
worth of entrants is refused; and no table's log (seed, deck, other seats' cards) is shown while
another table of its round still plays the deal (games/reveal.py, GameSettings.deal_group),
nor exported (games/export.py)."""

from __future__ import annotations

import datetime
import json

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from engine import MATCH_OVER
from engine.events import HAND_STARTED
from games import projections
from games.export import finished_in
from games.models import Game, Seat
from games.reveal import revealed
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import (
    current_round,
    first_deal,
    make_tournament,
    play_out_with_people,
    play_round,
)
from tournaments.errors import TournamentRefused
from tournaments.models import Round, Tournament, TournamentGame
from tournaments.rounds import start_due, tournament_advance
from tournaments.services import tournament_enter, tournament_start
from tournaments.standings import live_standings, standings

pytestmark = pytest.mark.django_db


def test_a_duplicate_event_of_bots_deals_every_table_of_a_round_the_same_cards():
    organiser = make_user()
    cup = make_tournament(organiser, format="duplicate", table_size=2, rounds=2)
    for strategy in ("greedy", "random", "greedy", "random", "greedy"):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy=strategy))
    tournament_start(cup, actor=organiser)

    first = current_round(cup)
    games = list(TournamentGame.objects.filter(round=first).order_by("table"))
    # Five at tables of two: two tables, one bye; each table plays the round's deal once, and
    # nobody sits at two tables.
    assert len(first.byes) == 1 and len(games) == 2
    assert [(g.table, g.rotation) for g in games] == [(1, 0), (2, 0)]
    assert not set(games[0].entries) & set(games[1].entries)
    assert len(first_deal(games[0].game_id)) == 108
    assert len({json.dumps(first_deal(g.game_id)) for g in games}) == 1
    assert {g.game.context["deal_group"] for g in games} == {f"tournament:{cup.pk}:round:1"}
    # The page lists each table by deal-seat: who is compared with whom.
    page = APIClient().get(f"/tournaments/{cup.slug}/").content.decode()
    assert "each deal-seat is scored against the same deal-seat at the other tables" in page
    assert page.count("deal-seat 1:") == page.count("deal-seat 2:") == 2

    play_round(cup)
    assert tournament_advance(cup)
    second = current_round(cup)
    assert second.byes and second.byes != first.byes
    later = list(TournamentGame.objects.filter(round=second))
    # Another round, another deal.
    assert first_deal(later[0].game_id) != first_deal(games[0].game_id)
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
    assert sum(line.played for line in live) == 8

    projections.run("tournament-results")
    read = json.dumps([line.as_dict() for line in standings(cup)])
    assert read == json.dumps([line.as_dict() for line in live])
    projections.rebuild("tournament-results")
    assert json.dumps([line.as_dict() for line in standings(cup)]) == read


def test_a_duplicate_event_below_two_tables_is_refused_and_finishes_when_entry_closes():
    organiser = make_user()
    cup = make_tournament(organiser, format="duplicate", table_size=2, rounds=1)
    for _ in range(3):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy="greedy"))

    with pytest.raises(TournamentRefused) as refused:
        tournament_start(cup, actor=organiser)
    assert refused.value.code == "too-few-for-duplicate"
    assert "needs 4" in refused.value.message
    assert not Round.objects.filter(tournament=cup).exists()

    assert start_due(now=cup.entry_closes + datetime.timedelta(seconds=1)) == 0
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert not Round.objects.filter(tournament=cup).exists()


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_a_finished_tables_deal_stays_hidden_while_another_table_of_its_round_plays_it():
    organiser = make_user()
    cup = make_tournament(organiser, format="duplicate", table_size=2, rounds=1)
    people = [make_user() for _ in range(4)]
    for person in people:
        tournament_enter(cup, actor=person, user=person)
    tournament_start(cup, actor=organiser)
    done, playing = TournamentGame.objects.filter(round=current_round(cup)).order_by("table")
    play_out_with_people(done.game_id)
    ended = Game.objects.get(pk=done.game_id)
    assert ended.status == MATCH_OVER
    assert Game.objects.get(pk=playing.game_id).status != MATCH_OVER
    # The deal's other holders are still at it: the finished table's log stays hidden, and
    # out of the month's open-data export.
    assert not revealed(ended)
    month = timezone.now().date().replace(day=1)
    assert done.game_id not in [game.pk for game in finished_in(month)]
    seated = Seat.objects.get(game_id=done.game_id, number=0, controller=Seat.Controller.PERSON)
    person = next(p for p in people if p.pk == seated.user_id)
    client = signed_in(person)
    replay = client.get(f"/api/games/{done.game_id}/replay")
    assert (replay.status_code, replay.json()["code"]) == (403, "not-revealed")
    events = client.get(f"/api/games/{done.game_id}/events?after=0").json()["events"]
    assert events and all("seed" not in e["event"] for e in events)
    dealt = [e["event"] for e in events if e["event"]["type"] == HAND_STARTED]
    # The person sees their own cards, no deck and no other seat's.
    assert dealt and all("deck" not in event and event.get("cards") for event in dealt)
    view = client.get(f"/api/games/{done.game_id}").json()
    assert '"hands":' not in json.dumps(view) and '"seed"' not in json.dumps(view)
    # Nobody else watches either table while the deal is played: not anonymously, not a
    # player of the other table (whose table's discards would tell it the deal too).
    other = next(p for p in people if p.pk != person.pk and not_at(p, done.game_id))
    for watcher, tables in ((APIClient(), (done, playing)), (signed_in(other), (done,))):
        for table in tables:
            for path in ("", "/events?after=0", "/replay"):
                answer = watcher.get(f"/api/games/{table.game_id}{path}")
                assert answer.status_code == 403, (path, answer.json())
                assert answer.json()["code"] in {"deal-in-play", "not-revealed"}
            page = watcher.get(f"/games/{table.game_id}/")
            assert page.status_code == 403 and b"still playing its cards" in page.content
    assert APIClient().get(f"/api/games/{done.game_id}").json()["code"] == "deal-in-play"
    page = signed_in(other).get(f"/games/{done.game_id}/replay/")
    assert page.status_code == 403 and b"still playing its cards" in page.content

    play_out_with_people(playing.game_id)
    ended.refresh_from_db()
    assert revealed(ended)
    assert done.game_id in [game.pk for game in finished_in(month)]
    replay = APIClient().get(f"/api/games/{done.game_id}/replay")
    assert replay.status_code == 200
    dealt = next(e["event"] for e in replay.json()["events"] if e["event"]["type"] == HAND_STARTED)
    assert dealt["deck"] == first_deal(playing.game_id)
    assert '"hands":' in json.dumps(APIClient().get(f"/api/games/{done.game_id}").json())


def not_at(person, game_id: int) -> bool:
    return not Seat.objects.filter(game_id=game_id, user=person).exists()
