"""Archived streams (games/archive.py, games/event_reads.py; docs/event-store.md, "Archived
streams"): a finished game's events moved into one compressed row read the same through every
door (the API's pages, the replay, verify_game, the inspector, the loader), a projection
rebuild folds the same read models with some streams archived, and only finished games that
every projection has folded are archived."""

from __future__ import annotations

import io
import json
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.forms.models import model_to_dict
from rest_framework.test import APIClient

from bots.turns import advance_game
from engine.events import GAME_ABORTED
from games import appends, archive, archived_streams, event_reads, projections, recent
from games.models import ArchivedStream, Game, GameEvent, ProjectionCheckpoint
from games.repository import repository
from games.reveal import set_over
from staff.inspector import game_log
from tests.games.factories import SHORT, make_game

pytestmark = pytest.mark.django_db

BOTS = ["greedy"] * 4


def play(game_id: int, *, batch: int | None = None, runs: int = 10_000) -> None:
    """Bot runs through the workers' code until the match is over (or `runs` runs)."""
    for _ in range(runs):
        if Game.objects.get(pk=game_id).status == Game.Status.MATCH_OVER:
            return
        advance_game(game_id=game_id, batch=batch)


def finished(seed: int) -> Game:
    game = make_game(players=0, bots=BOTS, seed=seed)
    play(game.pk)
    return Game.objects.get(pk=game.pk)


def pages(client: APIClient, game_id: int) -> list[Any]:
    """Every page of GET /api/games/<id>/events, as the client reads them."""
    found, after = [], 0
    while True:
        response = client.get(f"/api/games/{game_id}/events", {"after": after})
        assert response.status_code == 200, response.content
        body = response.json()
        found.append(body)
        if not body["more"]:
            return found
        after = body["events"][-1]["version"]


def verified(game_id: int) -> dict[str, Any]:
    out = io.StringIO()
    call_command("verify_game", str(game_id), "--json", stdout=out)
    return json.loads(out.getvalue())


def everything_read(game: Game, client: APIClient) -> dict[str, Any]:
    """The game as every reader sees it."""
    recent.forget()
    last = game.version
    return {
        "api pages": pages(client, game.pk),
        "api replay": client.get(f"/api/games/{game.pk}/replay").json(),
        "web replay": [
            client.get(f"/games/{game.pk}/replay/", {"at": at, "as": "all"}).content
            for at in (1, last // 2, last)
        ],
        "verify_game": verified(game.pk),
        "inspector": game_log(game),
        "inspector window": game_log(game, 1, first=last // 2, last=last // 2 + 9),
        "load": event_reads.load(game.pk),
        "load after": event_reads.load(game.pk, after=5, until=last - 3, types={"card-played"}),
        "tail": event_reads.tail(game.pk, after=last - 4, marks={"hand-ended", "hand-started"}),
        "stream": event_reads.stream_events(game.pk),
        "read_all": event_reads.read_all(after=0, upto=event_reads.head(), games={game.pk}),
        "read_all of types": event_reads.read_all(
            after=3, upto=event_reads.head(), types={"hand-ended", "match-ended"}, games={game.pk}
        ),
        "load_many": event_reads.load_many([game.pk], types={"hand-ended", "seat-forfeited"}),
        "with_actors": event_reads.with_actors(game.pk, types={"hand-ended", "match-started"}),
        "stream_records": event_reads.stream_records(
            after_game=game.pk - 1,
            upto_game=game.pk,
            upto=event_reads.head(),
            types={"hand-ended"},
            newest={"prompted"},
            last=True,
        ),
        "recorded": [
            appends.recorded(game_id=game.pk, command_id=row.command_id)
            for row in event_reads.stream_events(game.pk)
            if row.command_id is not None
        ],
        "state": repository.get(game.pk).state,
    }


def test_every_reader_sees_an_archived_match_as_it_saw_it_live():
    game = finished(seed=3)
    other = make_game(players=0, bots=BOTS, seed=4)
    play(other.pk, batch=3, runs=1)  # a live game around it
    projections_caught_up()
    client = APIClient()
    before = everything_read(game, client)

    swept = archive.archive_games(older_than=timedelta(0))

    assert swept.games == 1 and swept.events == game.version
    assert not GameEvent.objects.filter(game_id=game.pk).exists()
    assert ArchivedStream.objects.get(pk=game.pk).event_count == game.version
    assert GameEvent.objects.filter(game_id=other.pk).exists()
    after = everything_read(game, client)
    for reader, seen in before.items():
        assert after[reader] == seen, reader
    assert after["recorded"][0].first_version == 1


def projections_caught_up() -> None:
    for name in projections.PROJECTIONS:
        projections.run(name)


def read_models() -> dict[str, list[Any]]:
    """Every projection's tables, row by row (without their own ids and write times)."""
    found = {}
    for projection in projections.PROJECTIONS.values():
        for table in projection.tables:
            rows = [
                {k: v for k, v in model_to_dict(row).items() if k not in ("id", "updated_at")}
                for row in table._default_manager.all()
            ]
            found[table.__name__] = sorted(rows, key=repr)
    return found


def test_a_rebuild_folds_the_same_read_models_with_some_streams_archived():
    games = [make_game(players=0, bots=BOTS, seed=seed) for seed in (5, 6, 7)]
    # Interleaved runs: the games' positions alternate in the log.
    while any(Game.objects.get(pk=g.pk).status != Game.Status.MATCH_OVER for g in games[:2]):
        for g in games:
            play(g.pk, batch=7, runs=1)
    for name in projections.PROJECTIONS:
        projections.rebuild(name)
    live = read_models()
    assert live["MatchResult"] and live["ActivityMinute"]

    assert archive.archive_game(games[0].pk) == Game.objects.get(pk=games[0].pk).version
    for name in projections.PROJECTIONS:
        projections.rebuild(name)

    assert read_models() == live
    merged = event_reads.read_all(after=0, upto=event_reads.head())
    positions = [record.position for record in merged]
    assert positions == sorted(set(positions))
    assert {record.game_id for record in merged} == {g.pk for g in games}
    assert [
        r.position for r in event_reads.all_events(after=0, upto=event_reads.head(), batch=50)
    ] == positions


def test_only_finished_games_every_projection_has_folded_are_archived():
    done = finished(seed=8)
    playing = make_game(players=0, bots=BOTS, seed=9)
    play(playing.pk, batch=3, runs=1)
    assert Game.objects.get(pk=playing.pk).status != Game.Status.MATCH_OVER

    # No projection has run: every one must have folded a stream before it goes.
    assert archive.archive_games(older_than=timedelta(0)) == archive.Swept(0, 0, 1)
    projections_caught_up()
    # Still for less than the setting's days: not yet.
    assert archive.archive_games() == archive.Swept(0, 0, 0)
    # One projection behind the game's last event.
    name = sorted(projections.PROJECTIONS)[0]
    ProjectionCheckpoint.objects.filter(name=name).update(position=1)
    assert archive.archive_game(done.pk) is None
    projections_caught_up()
    assert archive.archive_game(playing.pk) is None

    out = io.StringIO()
    call_command("archive_games", "--older-than", "0", "--limit", "5", stdout=out)
    assert out.getvalue().startswith(f"archived 1 games ({done.version} events)")
    # Archived once: the next sweep finds nothing, and the loader still plays the game's end.
    assert archive.archive_games(older_than=timedelta(0)) == archive.Swept(0, 0, 0)
    assert repository.get(done.pk).version == done.version


def test_an_append_after_the_archive_stays_live_and_follows_it():
    game = finished(seed=10)
    projections_caught_up()
    assert archive.archive_game(game.pk) == game.version
    # A late fact (a ruling after the match, say): the store appends it as to any stream.
    appends.append(
        game_id=game.pk, events=[{"type": "note", "n": 1}], expected_version=game.version
    )

    events = event_reads.load(game.pk)
    assert len(events) == game.version + 1 and events[-1] == {"type": "note", "n": 1}
    assert [row.version for row in event_reads.stream_events(game.pk)] == list(
        range(1, game.version + 2)
    )
    assert event_reads.load(game.pk, after=game.version - 1) == events[-2:]


def test_the_sweep_is_on_the_beat_schedule():
    entry = settings.CELERY_BEAT_SCHEDULE["archive-games"]
    assert entry["task"] == "games.tasks.archive_games"
    assert settings.GAMES_ARCHIVE_AFTER_DAYS == 7


def test_the_archived_row_is_built_by_the_database_from_the_rows_it_deletes():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's games_archive_stream")
    game = finished(seed=11)
    rows = event_reads.stream_events(game.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT games_archive_stream(%s, %s)", [game.pk, event_reads.head()])
        assert cursor.fetchone()[0] == game.version
    archived = ArchivedStream.objects.get(pk=game.pk)
    assert event_reads.stream_events(game.pk) == rows
    # The same document the store writes for SQLite, to the byte once parsed.
    assert json.loads(archived.events) == json.loads(archived_streams.encode_archive(rows))
    assert archived.types.startswith(" ") and " match-ended " in archived.types


def test_an_aborted_ladder_set_is_still_over_once_its_game_is_archived():
    games = [
        Game.objects.create(variant=SHORT, seat_count=2, context={"ladder_set": 99})
        for _ in range(2)
    ]
    appends.append(
        game_id=games[0].pk, events=[{"type": "note"}, {"type": GAME_ABORTED}], expected_version=0
    )
    Game.objects.filter(pk__in=[g.pk for g in games]).update(status=Game.Status.MATCH_OVER)
    assert set_over(99, 3)

    assert archive.archive_game(games[0].pk, upto=event_reads.head()) == 2

    assert set_over(99, 3)
    assert event_reads.games_with_type([g.pk for g in games], GAME_ABORTED) == {games[0].pk}
    assert event_reads.first_actors([g.pk for g in games]) == {games[0].pk: "system"}
