"""People's out-of-turn grace (bots/turns.py): while a person is at the table, bots wait the
game's grace at the newno open start and at a jump-in the person could make; a person away
holds nobody up; the grace ends by the sweep (games/tasks.py end_graces) or the page's poll."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from bots import turns
from clocks import presence
from games import tasks
from games.commands import game_command
from games.models import Game, GameEvent
from tests.games.factories import make_user
from tests.games.tables import jump_in_table

pytestmark = pytest.mark.django_db


def plays(game: Game) -> list[tuple[int, str]]:
    return [
        (event.data["seat"], event.data["card"])
        for event in GameEvent.objects.filter(game=game, type="card-played").order_by("version")
    ]


def expire_grace(game: Game) -> None:
    """The grace is over (as if its seconds had passed)."""
    Game.objects.filter(pk=game.pk).update(
        grace_until=timezone.now() - timedelta(seconds=1),
        last_activity=timezone.now() - timedelta(seconds=60),
    )


def test_bots_wait_the_grace_at_the_open_start_for_a_person_at_the_table():
    ana = make_user("ana")
    game = jump_in_table(ana)
    presence.seen(ana.pk, game.pk)
    advance = turns.advance_game(game_id=game.pk)
    game.refresh_from_db()
    # The open start waits three times the grace (4 s): 12 s from the deal, so a person who
    # made the table and needs a few seconds to reach its page still has time to read it.
    assert advance.commands == 0 and 11 < advance.hold <= 12
    assert game.grace_version == game.version and game.grace_until > timezone.now()
    assert plays(game) == []
    # Within the grace, nothing moves however often the game is advanced.
    assert turns.advance_game(game_id=game.pk).hold > 0
    assert plays(game) == []


def test_a_person_away_holds_nobody_up():
    ana = make_user("ana")
    game = jump_in_table(ana)
    # Seen once, long ago (a closed tab): away.
    presence.seen(ana.pk, game.pk, now=timezone.now() - timedelta(minutes=2))
    advance = turns.advance_game(game_id=game.pk)
    game.refresh_from_db()
    assert advance.hold == 0 and advance.commands >= 1
    assert plays(game)[0] == (1, "red-8")
    assert game.grace_until is None


def test_after_the_grace_the_sweep_lets_the_bots_take_the_open_start(eager_tasks):
    ana = make_user("ana")
    game = jump_in_table(ana)
    presence.seen(ana.pk, game.pk)
    assert turns.advance_game(game_id=game.pk).hold > 0
    expire_grace(game)
    tasks.end_graces.delay()
    game.refresh_from_db()
    assert turns.ended_graces() == []
    assert plays(game)[0] == (1, "red-8")
    assert game.grace_until is None


def test_a_grace_of_zero_waits_for_nobody():
    ana = make_user("ana")
    game = jump_in_table(ana, grace=0)
    presence.seen(ana.pk, game.pk)
    assert turns.advance_game(game_id=game.pk).hold == 0
    assert plays(game)[0] == (1, "red-8")


def test_bots_stop_before_a_jump_in_the_person_could_make_and_wait_the_grace():
    ana = make_user("ana")
    game = jump_in_table(ana)
    presence.seen(ana.pk, game.pk)
    game_command(
        game_id=game.pk,
        actor=ana,
        command={"type": "play", "seat": 0, "card": "red-6"},
        expected_version=game.version,
    )
    # The bots answer the second play (only seat 1 can: red-8) and stop there: the person
    # holds the twin red-8.
    first = turns.advance_game(game_id=game.pk)
    assert first.commands == 1
    assert plays(game) == [(0, "red-6"), (1, "red-8")]
    held = turns.advance_game(game_id=game.pk)
    # A jump-in waits the grace itself (4 s), not the open start's longer one.
    assert 0 < held.hold <= 4
    game.refresh_from_db()
    assert turns.waiting_for(game, 0) == game.grace_until
    assert turns.waiting_for(game, 1) is None
    result = game_command(
        game_id=game.pk,
        actor=ana,
        command={"type": "play", "seat": 0, "card": "red-8"},
        expected_version=game.version,
    )
    assert result.version > held.version
    assert plays(game)[-1] == (0, "red-8")


def test_without_the_person_the_jump_in_chance_passes_at_once():
    ana = make_user("ana")
    game = jump_in_table(ana)
    game_command(
        game_id=game.pk,
        actor=ana,
        command={"type": "play", "seat": 0, "card": "red-6"},
        expected_version=game.version,
    )
    turns.advance_game(game_id=game.pk)
    # Seat 2 took its turn on red-8 in the same run: the chance is gone.
    assert len(plays(game)) >= 3 or Game.objects.get(pk=game.pk).to_act == [0]
    assert Game.objects.get(pk=game.pk).grace_until is None


def test_a_scripts_read_of_the_game_ends_a_grace_that_is_over_and_shows_the_bots_move(
    eager_tasks,
):
    ana = make_user("ana")
    game = jump_in_table(ana)
    presence.seen(ana.pk, game.pk)
    assert turns.advance_game(game_id=game.pk).hold > 0
    client = APIClient()
    client.force_authenticate(ana)
    # Within the grace, the read changes nothing.
    before = client.get(f"/api/games/{game.pk}").json()
    assert plays(game) == [] and before["version"] == game.version

    expire_grace(game)
    after = client.get(f"/api/games/{game.pk}").json()

    # The read ended the grace, the bots moved (in-process, at once), and the answer is the
    # game after their move, not the row read before it.
    game.refresh_from_db()
    assert game.grace_until is None and plays(game)[0] == (1, "red-8")
    assert after["version"] == game.version > before["version"]
