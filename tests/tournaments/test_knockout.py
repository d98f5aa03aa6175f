"""A knockout cup of built-in bots from its seeding to its final: byes to the best seeds, the
better of each table through, a withdrawal, and standings by the round reached that a rebuild
of the log gives again (tournaments/services.py, tournaments/standings.py)."""

from __future__ import annotations

import json

import pytest

from games import projections
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import current_round, make_tournament, play_round
from tournaments.models import Entry, Tournament
from tournaments.results import match_ended, table_lines
from tournaments.rounds import tournament_advance
from tournaments.services import tournament_enter, tournament_start, tournament_withdraw
from tournaments.standings import live_standings, standings

pytestmark = pytest.mark.django_db


def test_a_knockout_of_bots_plays_down_to_its_final():
    organiser = make_user()
    cup = make_tournament(organiser, format="knockout", table_size=2)
    bots = [make_bot(strategy=s) for s in ("greedy", "random", "greedy", "random", "greedy")]
    entries = [tournament_enter(cup, actor=organiser, bot=bot) for bot in bots]
    tournament_start(cup, actor=organiser)
    cup.refresh_from_db()
    assert sorted(cup.seeding) == sorted(e.pk for e in entries) and cup.advance == 1
    # Five at tables of two, one through each: 5 -> 4 (three byes to the best seeds) -> 2.
    assert cup.rounds == 3
    first = current_round(cup)
    assert first.byes == cup.seeding[:3] and first.tables.count() == 1

    play_round(cup)
    assert tournament_advance(cup)
    second = current_round(cup)
    assert second.number == 2 and second.tables.count() == 2 and not second.byes
    # Someone in the second round withdraws: its seat is forfeited, the other goes through.
    quitter = Entry.objects.get(pk=second.tables.order_by("table").first().entries[0])
    tournament_withdraw(cup, actor=organiser, bot=quitter.bot)
    play_round(cup)
    assert tournament_advance(cup)

    final = current_round(cup)
    assert final.number == 3 and final.tables.count() == 1
    assert quitter.pk not in final.tables.get().entries
    play_round(cup)
    assert tournament_advance(cup)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED

    table = final.tables.get()
    (winner,) = [
        line.entry
        for line in table_lines(match_ended(table.game_id), table.entries, 2)
        if line.place == 1
    ]
    live = live_standings(cup)
    assert live[0].entry == winner and live[0].rank == 1 and live[1].rank == 2
    # Out in the second round: the two who lost there share third.
    assert [line.rank for line in live[2:4]] == [3, 3] and live[4].rank == 5
    assert quitter.pk in {line.entry for line in live[2:4]}

    projections.run("tournament-results")
    read = json.dumps([line.as_dict() for line in standings(cup)])
    assert read == json.dumps([line.as_dict() for line in live])
    projections.rebuild("tournament-results")
    assert json.dumps([line.as_dict() for line in standings(cup)]) == read
