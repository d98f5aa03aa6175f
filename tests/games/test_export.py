"""The open database (games/export.py, docs/database.md): a month's finished games written per
family, read back through the training kit's loader and checked by verify_game from the file
alone; a person who opted out is an anonymous seat; a game still in play, or one whose log stays
hidden, is not there; a bad month is refused clearly."""

from __future__ import annotations

import hashlib
import io
import json
import random

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounts.models import Profile
from engine import open_data
from games.models import Game
from tests.games.factories import make_game, play_to_end, play_turn

pytestmark = pytest.mark.django_db

ONE_HAND = {"scoring": "single-hand"}


def test_a_month_round_trips_through_the_loader_and_verify_game(tmp_path):
    imitation = pytest.importorskip("engine.imitation")
    official = make_game(
        players=2, bots=["greedy"], spec={"rules": "official", "options": ONE_HAND}, seed=3
    )
    play_to_end(official.pk, seed=1)
    newno = make_game(players=0, bots=["greedy"] * 3, spec={"rules": "newno", "options": ONE_HAND})
    play_to_end(newno.pk, seed=2)
    hidden_person, shown_person = [s.user for s in official.seats.order_by("number")[:2]]
    Profile.objects.create(user=hidden_person, export_name=False)
    playing = make_game(players=2, spec={"rules": "official", "options": ONE_HAND}, seed=4)
    play_turn(playing.pk, random.Random(0))
    month = f"{timezone.now():%Y-%m}"

    out = io.StringIO()
    call_command("export_games", "--month", month, "--out", str(tmp_path), stdout=out)

    folder = tmp_path / month
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["month"] == month
    assert [(f["family"], f["games"]) for f in manifest["files"]] == [("newno", 1), ("official", 1)]
    for f in manifest["files"]:
        data = (folder / f["name"]).read_bytes()
        assert f["bytes"] == len(data)
        assert f["sha256"] == hashlib.sha256(data).hexdigest()
        assert f["sha256"] in out.getvalue()

    lines = {
        line["game"]: line
        for f in manifest["files"]
        for line in open_data.read_games(folder / f["name"])
    }
    assert set(lines) == {official.pk, newno.pk}  # never the game in play
    line = lines[official.pk]
    assert line["seats"] == [
        {"seat": 0, "label": "seat 0", "kind": "person", "name": None},
        {"seat": 1, "label": "seat 1", "kind": "person", "name": shown_person.username},
        {"seat": 2, "label": "seat 2", "kind": "bot", "name": "greedy"},
    ]
    assert hidden_person.username not in (folder / "official.jsonl.zst").read_bytes().decode(
        "latin-1"
    ) and hidden_person.username not in json.dumps(line)
    # Every card revealed: the seed, each deck, each drawn card.
    assert line["seed"] == line["events"][0]["seed"] and line["seed"]
    assert line["commitments"] and all(c.startswith("sha256:") for c in line["commitments"])
    assert all(e["deck"] for e in line["events"] if e["type"] == "hand-started")
    assert line["result"]["places"] and line["result"] == {
        k: line["events"][-1][k] for k in ("winner", "places", "scores")
    }

    for game_id, line in lines.items():
        path = folder / f"{line['family']}.jsonl.zst"
        report = io.StringIO()
        call_command("verify_game", str(game_id), "--file", str(path), "--json", stdout=report)
        assert json.loads(report.getvalue())["ok"]
        pairs = list(imitation.load_pairs(path))
        assert pairs and {p.game for p in pairs} == {game_id}
        for pair in pairs:
            assert pair.observation["action_mask"][pair.action] == 1
            assert pair.observation["observation"].shape == (1556,)
    people = list(
        imitation.load_pairs(folder / "official.jsonl.zst", seat_filter=imitation.people_only)
    )
    assert people and {p.seat for p in people} == {0, 1}

    with pytest.raises(CommandError, match=f"there is no game {playing.pk} in"):
        call_command("verify_game", str(playing.pk), "--file", str(folder / "official.jsonl.zst"))

    # A tampered file fails verify_game (the check can fail).
    events = lines[official.pk]["events"]
    deal = next(e for e in events if e["type"] == "hand-started")
    deal["deck"][20], deal["deck"][60] = deal["deck"][60], deal["deck"][20]
    tampered = tmp_path / "tampered.jsonl.zst"
    with open(tampered, "wb") as target:
        open_data.write_lines(target, [lines[official.pk]])
    with pytest.raises(CommandError, match="does not match its seed"):
        call_command("verify_game", str(official.pk), "--file", str(tampered), stdout=io.StringIO())

    # A game whose log stays hidden leaves the month's files.
    Game.objects.filter(pk=newno.pk).update(reveal=Game.Reveal.NEVER)
    call_command("export_games", "--month", month, "--out", str(tmp_path), stdout=io.StringIO())
    manifest = json.loads((folder / "manifest.json").read_text())
    assert [f["family"] for f in manifest["files"]] == ["official"]
    assert not (folder / "newno.jsonl.zst").exists()

    # Nor is a finished game whose seed deals a game still being played (a duplicate round's).
    make_game(players=2, spec={"rules": "official", "options": ONE_HAND}, seed=3)
    call_command("export_games", "--month", month, "--out", str(tmp_path), stdout=io.StringIO())
    assert json.loads((folder / "manifest.json").read_text())["files"] == []
    assert list(folder.iterdir()) == [folder / "manifest.json"]


@pytest.mark.parametrize("month", ["2026-13", "26-01", "May"])
def test_a_bad_month_is_refused_clearly(month, tmp_path):
    with pytest.raises(CommandError, match="bad-month: a month is written YYYY-MM"):
        call_command("export_games", "--month", month, "--out", str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_an_empty_month_has_an_empty_manifest(tmp_path):
    call_command("export_games", "--month", "2020-02", "--out", str(tmp_path), stdout=io.StringIO())
    assert json.loads((tmp_path / "2020-02" / "manifest.json").read_text())["files"] == []


@pytest.mark.django_db
def test_the_staffs_words_are_not_in_the_open_data():
    """An older abort's reason and a deadline's note or message are the staff's words to
    themselves or to one seat: a finished game's line keeps the events, the words blanked."""
    from engine.events import DEADLINE_EXTENDED, GAME_ABORTED
    from games import export
    from games.appends import append

    game = make_game(players=2, seed=3)
    said = {
        "type": DEADLINE_EXTENDED, "seat": 0, "deadline": "2026-12-02T09:30:00+00:00",
        "note": "internal note", "message": "get well",
    }  # fmt: skip
    aborted = {"type": GAME_ABORTED, "reason": "internal reason"}
    append(game_id=game.pk, events=[said, aborted], expected_version=game.version)
    game.refresh_from_db()

    line = json.dumps(export.game_line(game, set()))

    assert "internal" not in line and "get well" not in line
    assert json.loads(line)["result"] == {"aborted": True, "reason": None}
