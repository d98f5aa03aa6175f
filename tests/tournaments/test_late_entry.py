"""Late entry (tournaments/services.py `entry_open`): into a running Swiss while a round is still
to be drawn, drawn from its next round with no points for the rounds it missed; into a running
arena while it seats, seated as soon as a table fills; never into a Swiss past its last draw,
a knockout or a duplicate event once they run."""

from __future__ import annotations

import pytest

from engine import MATCH_OVER
from games.errors import GameError
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import current_round, make_tournament, play_out, play_round
from tournaments.models import Entry, TournamentGame
from tournaments.rounds import tournament_advance
from tournaments.services import tournament_enter, tournament_start
from tournaments.standings import live_standings

pytestmark = pytest.mark.django_db


def seated(round_) -> set[int]:
    return {entry for table in round_.tables.all() for entry in table.entries}


def test_a_late_entrant_to_a_swiss_is_drawn_from_the_next_round_with_no_points():
    organiser = make_user()
    cup = make_tournament(organiser, table_size=2, rounds=3)
    for strategy in ("greedy", "random", "greedy", "random"):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy=strategy))
    tournament_start(cup, actor=organiser)

    late = tournament_enter(cup, actor=organiser, bot=make_bot(strategy="greedy"))
    assert late.pk not in seated(current_round(cup)) | set(current_round(cup).byes)
    play_round(cup)
    # The round it missed scores it nothing.
    missed = next(line for line in live_standings(cup) if line.entry == late.pk)
    assert (missed.played, missed.points, missed.byes) == (0, 0, 0)
    assert tournament_advance(cup)
    second = current_round(cup)
    assert second.number == 2
    assert late.pk in seated(second) | set(second.byes)

    # Once the last round is drawn, entry is closed.
    play_round(cup)
    assert tournament_advance(cup)
    assert current_round(cup).number == 3
    with pytest.raises(GameError) as refused:
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy="random"))
    assert refused.value.code == "tournament-closed"


def test_a_late_entrant_to_an_arena_is_seated_as_soon_as_a_table_fills():
    organiser = make_user()
    cup = make_tournament(organiser, format="arena", table_size=2, round_seconds=3600)
    for strategy in ("greedy", "random", "greedy"):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy=strategy))
    tournament_start(cup, actor=organiser)
    # Three at tables of two: one table, one waits; the late entrant makes the second table.
    assert TournamentGame.objects.filter(round__tournament=cup).count() == 1
    late = tournament_enter(cup, actor=organiser, bot=make_bot(strategy="random"))
    tables = TournamentGame.objects.filter(round__tournament=cup)
    assert tables.count() == 2
    assert any(late.pk in table.entries for table in tables)
    for table in tables:
        play_out(table.game_id)
    assert set(tables.values_list("game__status", flat=True)) == {MATCH_OVER}


def test_a_running_knockout_takes_no_late_entry():
    organiser = make_user()
    cup = make_tournament(organiser, format="knockout", table_size=2)
    for strategy in ("greedy", "random", "greedy", "random"):
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy=strategy))
    tournament_start(cup, actor=organiser)
    with pytest.raises(GameError) as refused:
        tournament_enter(cup, actor=organiser, bot=make_bot(strategy="random"))
    assert refused.value.code == "tournament-closed"
    assert Entry.objects.filter(tournament=cup).count() == 4
