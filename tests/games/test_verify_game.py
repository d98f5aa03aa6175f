"""`manage.py verify_game` and docs/examples/verify_deals.py (docs/verifying-deals.md): games of
every family played by bots through the services pass both, a tampered copy of a log fails both
at the same events, old streams without commitments still replay, and nothing hidden shows
before the match is revealed."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from bots.simulation import play_match
from bots.strategies import find_strategy
from engine import Variant
from games import appends, event_reads, event_records
from games.models import Game
from games.repository import repository
from games.visibility import game_events, game_view
from tests.games.factories import make_game, play_to_end

pytestmark = pytest.mark.django_db

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "verify_deals.py"

# Every family, and the precognitive modifier; matches of one hand, to keep the test short.
ONE_HAND = {"scoring": "single-hand"}
SPECS = [
    {"rules": "official", "options": ONE_HAND},
    {"rules": "basic-plus"},
    {"rules": "newno", "options": ONE_HAND},
    {"rules": "censorship", "options": ONE_HAND},
    {"rules": "official", "options": ONE_HAND, "precognitive": {"lane": 1}},
]
# Seeds whose matches end in a few hundred commands of the greedy bot (tests/games/factories.py).
SEEDS = ["verify-0", "verify-1", "verify-2", "verify-3", "verify-40"]
# What the command and the script must agree on: everything but the messages' wording.
AGREED = ("ok", "hands", "committed", "uncommitted", "reshuffles", "reinsertions", "truncated")


def command(game_id: int) -> tuple[dict[str, Any], bool]:
    """verify_game's JSON, and whether it exited with an error."""
    out = io.StringIO()
    try:
        call_command("verify_game", str(game_id), "--json", stdout=out)
        failed = False
    except CommandError:
        failed = True
    return json.loads(out.getvalue()), failed


def script(replay: Any, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The standalone script, run alone on the exported JSON (no Django, no repository)."""
    exported = tmp_path / "replay.json"
    exported.write_text(json.dumps(replay))
    return subprocess.run(
        [sys.executable, "-I", str(SCRIPT), *args, str(exported)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )


def agreed(result: dict[str, Any]) -> tuple[Any, ...]:
    found = [(f["version"], f["hand"], f["check"]) for f in result["findings"]]
    return (*(result[key] for key in AGREED), found)


def copy_of(game: Game, events: list[dict[str, Any]]) -> Game:
    """A new stream holding `events` as given (the store keeps facts without reading them)."""
    stream = Game.objects.create(variant=game.variant, seat_count=game.seat_count)
    appends.append(game_id=stream.pk, events=events, expected_version=0)
    return stream


def finished(n: int) -> Game:
    """A match of SPECS[n] played to its end by bots through the services."""
    game = make_game(players=0, bots=["greedy"] * 3, spec=SPECS[n], seed=SEEDS[n])
    play_to_end(game.pk, seed=n)
    return Game.objects.get(pk=game.pk)


def simulated() -> Game:
    """A long match played by bots in-process (bots/simulation.py, reshuffles in every hand),
    stored as a finished stream: the services' one-hand matches above rarely reshuffle."""
    spec = {"rules": "official", "options": {"target": 100}, "precognitive": {"lane": 2}}
    variant = Variant.from_spec(spec)
    bots = [find_strategy("greedy"), find_strategy("random")] * 2
    events = play_match(variant, bots, seed=20_261_125).events
    game = Game.objects.create(variant=variant.spec, seat_count=4)
    appends.append(game_id=game.pk, events=events, expected_version=0)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.MATCH_OVER)
    return Game.objects.get(pk=game.pk)


def tampered_logs(game: Game) -> dict[str, list[dict[str, Any]]]:
    events = event_reads.load(game.pk)
    deals = [i for i, e in enumerate(events) if e["type"] == "hand-started"]
    reshuffles = [i for i, e in enumerate(events) if e["type"] == "pile-reshuffled"]

    swapped_deck = copy.deepcopy(events)
    deck = swapped_deck[deals[-1]]["deck"]
    j = next(j for j in range(30, 108) if deck[j] != deck[29])
    deck[29], deck[j] = deck[j], deck[29]

    wrong_seed = copy.deepcopy(events)
    wrong_seed[0]["seed"] = "not-the-seed"

    logs = {"deck": swapped_deck, "seed": wrong_seed}
    usable = [i for i in reshuffles if len(set(events[i]["order"])) > 1]
    if usable:
        swapped_order = copy.deepcopy(events)
        order = swapped_order[usable[0]]["order"]
        j = next(j for j in range(1, len(order)) if order[j] != order[0])
        order[0], order[j] = order[j], order[0]
        logs["reshuffle"] = swapped_order
    return logs


def test_real_games_pass_and_tampered_copies_fail_the_command_and_the_script_alike(tmp_path):
    games = [finished(n) for n in range(len(SPECS))] + [simulated()]
    for game in games:
        result, failed = command(game.pk)
        assert result["ok"] and not failed, (game.variant, result["findings"])
        assert result["hands"] == result["committed"] >= 1
        replay = APIClient().get(f"/api/games/{game.pk}/replay").json()
        run = script(replay, tmp_path, "--json")
        assert run.returncode == 0, run.stdout + run.stderr
        assert agreed(json.loads(run.stdout)) == agreed(result)
    out = io.StringIO()
    call_command("verify_game", str(games[0].pk), stdout=out)
    assert out.getvalue().rstrip().endswith("as the log says")

    # A copy of each log with a card swapped in a deck or a reshuffle, or a wrong seed.
    tried = set()
    for game in games:
        for kind, events in tampered_logs(game).items():
            tried.add(kind)
            stream = copy_of(game, events)
            result, failed = command(stream.pk)
            assert failed and not result["ok"], kind
            first = result["findings"][0]
            # A wrong seed makes the first deck differ, and its commitment with it.
            assert first["check"] == ("deck" if kind == "seed" else kind)
            there = {f["check"] for f in result["findings"] if f["version"] == first["version"]}
            if kind != "reshuffle":
                assert {"deck", "commitment"} <= there
            assert events[first["version"] - 1]["type"] == (
                "pile-reshuffled" if kind == "reshuffle" else "hand-started"
            )
            # The script reads the same copy as a bare list of events.
            run = script(events, tmp_path, "--json")
            assert run.returncode == 1, run.stderr
            assert agreed(json.loads(run.stdout)) == agreed(result), kind
            text = script(events, tmp_path)
            assert f"MISMATCH at event {first['version']}" in text.stdout
            assert text.stdout.rstrip().splitlines()[-1].startswith("FAILED")
    assert tried == {"deck", "seed", "reshuffle"}


def test_an_old_stream_without_commitments_replays_and_verifies_as_uncommitted(
    tmp_path, monkeypatch
):
    game = finished(4)  # precognitive
    old = [{k: v for k, v in e.items() if k != "commitment"} for e in event_reads.load(game.pk)]
    # Written as the store wrote hand-started before commitments (schema version 1).
    monkeypatch.setitem(event_records.SCHEMA_VERSIONS, "hand-started", 1)
    stream = copy_of(game, old)
    monkeypatch.undo()
    loaded = event_reads.load(stream.pk)
    deals = [e for e in loaded if e["type"] == "hand-started"]
    assert deals and all(e["commitment"] is None for e in deals)  # upcast on read
    _, state, _ = repository.state(stream)
    _, original, _ = repository.state(game)
    assert (state.scores, state.places) == (original.scores, original.places)
    result, failed = command(stream.pk)
    assert result["ok"] and not failed
    assert result["committed"] == 0 and result["uncommitted"] == [e["hand"] for e in deals]
    run = script(old, tmp_path, "--json")
    assert run.returncode == 0 and agreed(json.loads(run.stdout)) == agreed(result)


def test_before_the_reveal_views_show_the_commitment_and_never_the_seed_or_a_deck():
    game = make_game(players=2, bots=["greedy"], spec=SPECS[4], seed="hidden-seed-8")
    seats = [None, 0, 1]
    for seat in seats:
        viewer = game.seats.get(number=seat).user if seat is not None else None
        listed = game_events(game_id=game.pk, viewer=viewer)
        text = json.dumps(listed) + json.dumps(game_view(game_id=game.pk, viewer=viewer))
        assert "hidden-seed-8" not in text and '"deck"' not in text
        (dealt,) = [e["event"] for e in listed if e["event"]["type"] == "hand-started"]
        assert dealt["commitment"].startswith("sha256:")
    early = APIClient().get(f"/api/games/{game.pk}/replay")
    assert (early.status_code, early.json()["code"]) == (403, "not-revealed")


def test_a_game_that_never_reveals_keeps_its_seed_after_the_match():
    game = finished(1)
    Game.objects.filter(pk=game.pk).update(reveal=Game.Reveal.NEVER)
    listed = game_events(game_id=game.pk, viewer=None)
    assert "seed" not in listed[0]["event"]
    assert APIClient().get(f"/api/games/{game.pk}/replay").status_code == 403


def test_the_script_says_why_it_cannot_read_its_input(tmp_path):
    run = script({"nothing": 1}, tmp_path)
    assert run.returncode == 2 and "cannot read" in run.stderr
