"""The analysis app: a short match played to its end with built-in bots, its analysis queued by
the match's end, run by the sweep (as run_periodic runs it without a broker) and stored; the
refusals; a failure recorded with its reason."""

from __future__ import annotations

import logging
import random
from datetime import timedelta

import pytest
from celery import current_app as celery_app
from django.utils import timezone

from analysis import report, services, tasks
from analysis.errors import AnalysisHidden, AnalysisRefused
from analysis.models import GameAnalysis
from engine.events import MATCH_ENDED
from games import dispatch, event_reads, seat_facts
from games.management.commands.run_periodic import PeriodicRunner
from games.models import Game
from tests.games.factories import make_game, make_user, play_to_end, play_turn

ONE_HAND = {"rules": "official", "options": {"scoring": "single-hand"}}


@pytest.fixture(autouse=True)
def few_playouts(settings):
    settings.ANALYSIS_PLAYOUTS = 2
    settings.ANALYSIS_PROGRESS_SECONDS = 0.0


def finished_bots(seed: int, **kwargs) -> Game:
    """A bots-only match played to its end through the services (in a test's transaction)."""
    game = make_game(players=0, bots=["greedy", "random"], spec=ONE_HAND, seed=seed, **kwargs)
    play_to_end(game.pk, seed=seed)
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    return game


def finished_with_a_person(seed: int = 3) -> Game:
    game = make_game(players=1, bots=["greedy", "random"], spec=ONE_HAND, seed=seed)
    play_to_end(game.pk, seed=seed)
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    return game


@pytest.mark.django_db(transaction=True)
def test_a_finished_match_with_a_person_is_queued_at_its_end_and_the_sweep_runs_it(
    eager_tasks,
):
    game = finished_with_a_person()
    # The match-end hook (after the commit) queued it; in-process nothing ran it yet.
    row = GameAnalysis.objects.get(game=game)
    assert row.status == GameAnalysis.Status.QUEUED
    assert row.requested_by is None
    assert row.playouts == 2

    tasks.sweep_analyses()

    row.refresh_from_db()
    assert row.status == GameAnalysis.Status.DONE, row.reason
    assert row.report_version == report.REPORT_VERSION
    assert row.total > 0 and row.done == row.total
    assert row.cpu_seconds > 0
    found = report.from_json(row.result)
    assert found.seats == 3 and found.seed == row.seed
    assert len(found.decisions) == row.total
    assert {d.seat for d in found.decisions} == {0, 1, 2}
    assert all(d.cost >= 0 for d in found.decisions)
    assert len(found.hands) == 1 and len(found.summaries) == 3
    # The summaries' scores are the match's.
    (ended,) = event_reads.load(game.pk, types={MATCH_ENDED})
    assert [s.score for s in found.summaries] == ended["scores"]
    # Once done, a second request is refused, and the sweep has nothing more to run.
    with pytest.raises(AnalysisRefused) as refused:
        services.request(game.pk, user_id=None)
    assert refused.value.code == "analysis-exists"
    assert services.waiting() == []


@pytest.mark.django_db(transaction=True)
def test_a_bots_only_match_is_not_queued_but_may_be_asked_for(eager_tasks):
    game = make_game(players=0, bots=["greedy", "random"], spec=ONE_HAND, seed=5)
    game.refresh_from_db()
    assert game.status == Game.Status.MATCH_OVER
    assert not GameAnalysis.objects.filter(game=game).exists()

    asker = make_user("ana")
    row = tasks.request(game.pk, user_id=asker.pk)
    # Asked in-process: queued for the sweep, not run in the request.
    assert row.status == GameAnalysis.Status.QUEUED and row.requested_by_id == asker.pk
    assert GameAnalysis.objects.get(pk=row.pk).status == GameAnalysis.Status.QUEUED
    tasks.run_analysis(row.pk)
    row.refresh_from_db()
    assert row.status == GameAnalysis.Status.DONE
    # The same seed gives the same figures.
    first = row.result
    GameAnalysis.objects.filter(pk=row.pk).update(status=GameAnalysis.Status.QUEUED)
    services.run(row.pk)
    row.refresh_from_db()
    assert {**row.result, "cpu_seconds": 0} == {**first, "cpu_seconds": 0}


@pytest.mark.django_db
def test_a_match_in_play_is_refused_and_never_run():
    game = make_game(players=2, spec=ONE_HAND)
    assert game.status == Game.Status.PLAYING
    with pytest.raises(AnalysisHidden) as hidden:
        services.request(game.pk, user_id=None)
    assert hidden.value.code == "game-in-play"
    # A row queued anyhow (by hand) is not run while the match plays: it waits.
    row = GameAnalysis.objects.create(game=game, seed=1, playouts=2)
    assert services.waiting() == []
    assert services.run(row.pk) is None
    row.refresh_from_db()
    assert row.status == GameAnalysis.Status.QUEUED and row.result is None


@pytest.mark.django_db
def test_a_game_whose_deal_group_still_plays_is_refused_until_the_group_ends():
    over = finished_bots(7)
    playing = make_game(players=2, spec=ONE_HAND, seed=7)
    Game.objects.filter(pk__in=[over.pk, playing.pk]).update(context={"deal_group": "round-1"})
    over.refresh_from_db()
    with pytest.raises(AnalysisHidden) as hidden:
        services.request(over.pk, user_id=None)
    assert hidden.value.code == "deal-in-play"
    row = GameAnalysis.objects.create(game=over, seed=1, playouts=2, sent_at=timezone.now())
    assert services.run(row.pk) is None
    row.refresh_from_db()
    assert row.status == GameAnalysis.Status.QUEUED and row.sent_at is None
    assert services.lost(after=timedelta(hours=1)) == []
    # The group's last table ends: the waiting analysis runs (the sweep sends it at once).
    Game.objects.filter(pk=playing.pk).update(status=Game.Status.MATCH_OVER)
    assert services.waiting() == [row.pk]
    assert services.lost(after=timedelta(hours=1)) == [row.pk]


@pytest.mark.django_db
def test_a_game_that_never_reveals_is_refused():
    game = finished_bots(8, reveal="never")
    with pytest.raises(AnalysisHidden) as hidden:
        services.request(game.pk, user_id=None)
    assert hidden.value.code == "not-revealed"
    assert services.queue_after_match(game.pk) is None


@pytest.mark.django_db
def test_a_failure_is_recorded_with_its_reason_and_may_be_asked_for_again():
    game = finished_bots(9)
    # A variant the core cannot read: the run fails, and says why.
    row = GameAnalysis.objects.create(game=game, seed=1, playouts=2)
    Game.objects.filter(pk=game.pk).update(variant={"rules": "no-such-rules"})
    services.run(row.pk)
    row.refresh_from_db()
    assert row.status == GameAnalysis.Status.FAILED
    assert row.reason and row.result is None
    again = services.request(game.pk, user_id=None)
    assert again.pk == row.pk and again.status == GameAnalysis.Status.QUEUED
    assert again.reason == ""


@pytest.mark.django_db
def test_progress_is_written_as_the_run_goes(settings):
    game = make_game(players=0, bots=["greedy", "random"], spec=ONE_HAND, seed=11)
    row = GameAnalysis.objects.create(game=game, seed=1, playouts=2, status="running")
    seen = []
    progress = services._progress(row)
    settings.ANALYSIS_PROGRESS_SECONDS = 3600.0
    for done in range(5):
        progress(done, 10)
        seen.append(GameAnalysis.objects.get(pk=row.pk).done)
    progress(10, 10)
    # The first call at once, then nothing for the throttle's time but the last.
    assert seen == [0, 0, 0, 0, 0]
    assert GameAnalysis.objects.get(pk=row.pk).total == 10
    assert GameAnalysis.objects.get(pk=row.pk).done == 10


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_run_periodic_runs_the_queued_analysis_one_a_tick(eager_tasks, settings):
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-analyses"]
    assert entry["task"] == "analysis.tasks.sweep_analyses"
    first, second = finished_with_a_person(seed=12), finished_with_a_person(seed=13)
    rows = GameAnalysis.objects.filter(game__in=[first, second]).order_by("requested_at", "pk")
    assert [row.status for row in rows] == ["queued", "queued"]

    runner = PeriodicRunner({"sweep-analyses": entry}, run_level=logging.DEBUG)
    runner.run_due()
    assert [row.status for row in rows.all()] == ["done", "queued"]
    runner.entries[0].last_run_at = None  # due again at once
    runner.run_due()
    assert [row.status for row in rows.all()] == ["done", "done"]


@pytest.mark.django_db(transaction=True)
def test_with_a_broker_the_match_end_sends_the_run_to_the_analysis_queue(broker_tasks):
    route = celery_app.amqp.router.route({}, "analysis.tasks.run_analysis")
    assert route["queue"].name == "analysis"
    # The games' own tasks stay on the default queue.
    default = celery_app.amqp.router.route({}, "games.tasks.advance_game")
    assert default["queue"].name != "analysis"

    game = make_game(players=1, bots=["greedy", "random"], spec=ONE_HAND, seed=14)
    play_to_end(game.pk, seed=14)
    # A request hands its appends to the workers; the worker's dispatch of the last one calls
    # the match-end hooks.
    assert not GameAnalysis.objects.filter(game=game).exists()
    dispatch.dispatch_game(game.pk)
    row = GameAnalysis.objects.get(game=game)
    # Queued and handed to the workers (sent_at set), not run here.
    assert row.status == GameAnalysis.Status.QUEUED and row.sent_at is not None
    # A lost task: the sweep sends it again once ANALYSIS_RESEND_SECONDS have passed.
    assert services.lost(after=timedelta(hours=1)) == []
    assert services.lost(after=timedelta(0)) == [row.pk]


@pytest.mark.django_db
def test_a_match_a_resignation_ended_mid_hand_is_analysed():
    # Two people; one resigns in the middle of the hand: the forfeit's match-ended is no
    # command's (engine/scoring.py forfeit_end), and the analysis reads the moves before it.
    game = make_game(players=2, spec=ONE_HAND, seed=5)
    for _ in range(4):
        play_turn(game.pk, random.Random(5))
    resigning = game.seats.get(number=0).user
    seat_facts.game_resign(game_id=game.pk, actor=resigning)
    assert Game.objects.get(pk=game.pk).status == Game.Status.MATCH_OVER

    done = services.run(services.request(game.pk, user_id=resigning.pk).pk)

    assert done is not None and done.status == GameAnalysis.Status.DONE, done and done.reason
    assert done.total >= 4


@pytest.mark.django_db
def test_a_match_resigned_before_any_card_after_a_wild_flip_is_analysed():
    # Game 463: an official match whose first flip is a wild (the first player names the
    # colour), resigned before any card was played: the log holds no command, or only the
    # colour. The analysis is done, with no (or one) decision, instead of failing.
    from tests.engine.decks import stacked

    deck = stacked([["red-1", "red-2"], ["blue-1", "blue-2"]], flip="wild", first=1)
    spec = {"rules": "official", "options": {"hand_size": 2, "scoring": "single-hand"}}
    game = make_game(players=2, spec=spec, deck=deck, dealer=0)
    resigning = game.seats.get(number=0).user
    seat_facts.game_resign(game_id=game.pk, actor=resigning)
    assert Game.objects.get(pk=game.pk).status == Game.Status.MATCH_OVER

    done = services.run(services.request(game.pk, user_id=resigning.pk).pk)

    assert done is not None and done.status == GameAnalysis.Status.DONE, done and done.reason
    assert done.total == 0 and done.reason == ""
    found = report.from_json(done.result)
    assert found.decisions == [] and len(found.summaries) == 2
    assert all(s.decisions == 0 for s in found.summaries)
