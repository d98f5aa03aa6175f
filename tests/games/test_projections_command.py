"""manage.py projections: run, rebuild NAME, status."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import event_reads, rebuilds
from games.models import GameSummary, MatchResult, ProjectionCheckpoint
from tests.games.factories import make_game, play_to_end

pytestmark = pytest.mark.django_db


def projections(*args: str) -> str:
    out = StringIO()
    call_command("projections", *args, stdout=out)
    return out.getvalue()


def lines_by_name(output: str) -> dict[str, list[str]]:
    return {line.split()[0]: line.split()[1:] for line in output.splitlines()[1:]}


def test_run_catches_every_projection_up():
    game = make_game(seed=2)
    play_to_end(game.pk, seed=2)

    output = projections("run")

    assert "game-summaries: applied" in output
    assert "game-results: applied" in output
    assert GameSummary.objects.filter(game=game).exists()
    assert MatchResult.objects.filter(game=game).exists()
    positions = set(ProjectionCheckpoint.objects.values_list("position", flat=True))
    assert positions == {event_reads.head()}


def test_run_can_name_the_projections_to_run():
    make_game()

    projections("run", "game-results")

    assert set(ProjectionCheckpoint.objects.values_list("name", flat=True)) == {"game-results"}


def test_status_prints_each_projection_with_its_lag():
    make_game()
    projections("run", "game-summaries")
    head = event_reads.head()

    rows = lines_by_name(projections("status"))

    assert rows["game-summaries"] == [str(head), str(head), "0"]
    assert rows["game-results"] == ["0", str(head), str(head)]


def test_rebuild_folds_the_whole_log_again(eager_tasks):
    game = make_game(seed=3)
    play_to_end(game.pk, seed=3)
    projections("run")
    GameSummary.objects.all().delete()

    output = projections("rebuild", "game-summaries", "--partitions", "2")

    # Without a broker (the tests' tasks run in-process) the partitions ran before it printed.
    assert f"game-summaries: rebuilt up to position {event_reads.head()}" in output
    assert "done, 100% " in output and "2 of 2 partitions done" in output
    assert GameSummary.objects.get(game=game).status == "match-over"
    assert ProjectionCheckpoint.objects.get(name="game-summaries").position == event_reads.head()


def test_status_says_which_projections_a_rebuild_holds():
    make_game()
    run = rebuilds.start(["game-results"])

    output = projections("status")

    assert " ".join(lines_by_name(output)["game-results"]).endswith(f"rebuilding (run {run.pk})")
    assert "rebuilding" not in output.split("game-summaries")[1]


def test_rebuild_in_one_transaction_is_the_old_way():
    game = make_game(seed=3)
    play_to_end(game.pk, seed=3)

    output = projections("rebuild", "game-results", "--one-transaction")

    assert f"game-results: rebuilt {event_reads.head()} positions" in output
    assert MatchResult.objects.filter(game=game).exists()


def test_resume_without_a_rebuild_to_resume_is_a_command_error():
    with pytest.raises(CommandError, match="no rebuild run to resume"):
        projections("rebuild", "--resume")


def test_an_unknown_projection_is_a_command_error():
    with pytest.raises(CommandError, match="no projection 'nope'"):
        projections("rebuild", "nope")
    with pytest.raises(CommandError, match="no projection 'nope'"):
        projections("run", "nope")
