"""A Swiss tournament of built-in bots from entry to its end: byes, a withdrawal, the rounds
opening as the ones before end, and standings a rebuild of the log gives again
(tournaments/services.py, tournaments/standings.py)."""

from __future__ import annotations

import json

import pytest

from engine import MATCH_OVER
from engine.events import CARD_PLAYED, SEAT_FORFEITED
from games import event_reads, projections
from games.archive import archive_game
from games.models import Bot, Game
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import current_round, make_tournament, play_round
from tournaments.models import Entry, Round, Tournament, TournamentGame
from tournaments.rounds import tournament_advance
from tournaments.services import tournament_enter, tournament_start, tournament_withdraw
from tournaments.standings import live_standings, standings

pytestmark = pytest.mark.django_db


def project() -> None:
    projections.run("tournament-results")


def test_a_swiss_of_bots_runs_to_its_end_with_a_bye_and_a_withdrawal():
    organiser = make_user()
    cup = make_tournament(organiser, table_size=4, rounds=3)
    bots = [make_bot(strategy=s) for s in ("greedy", "random", "greedy", "random", "greedy")]
    entries = [tournament_enter(cup, actor=organiser, bot=bot) for bot in bots]
    tournament_start(cup, actor=organiser)

    first = current_round(cup)
    seated = [e for t in first.tables.all() for e in t.entries]
    # Five at tables of four: somebody sits the first round out.
    assert first.byes and sorted(seated + first.byes) == sorted(e.pk for e in entries)
    play_round(cup)
    assert tournament_advance(cup)
    second = current_round(cup)
    assert second.number == 2

    # The second round's first seat withdraws mid-round: its seat is forfeited in the log.
    quitter = Entry.objects.get(pk=second.tables.first().entries[0])
    table = second.tables.first()
    tournament_withdraw(cup, actor=organiser, bot=quitter.bot)
    forfeits = event_reads.load(table.game_id, types={SEAT_FORFEITED})
    assert [event["seat"] for event in forfeits] == [0]
    play_round(cup)
    assert tournament_advance(cup)

    third = current_round(cup)
    assert third.number == 3
    drawn = [e for t in third.tables.all() for e in t.entries] + third.byes
    assert quitter.pk not in drawn and len(drawn) == 4
    play_round(cup)
    assert tournament_advance(cup)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert not tournament_advance(cup)

    games = Game.objects.filter(tournament_table__round__tournament=cup)
    assert games.count() == TournamentGame.objects.filter(round__tournament=cup).count()
    assert set(games.values_list("status", flat=True)) == {MATCH_OVER}
    assert all(
        g.context["tournament"] == cup.pk and g.context["kind"] == "tournament" for g in games
    )

    live = live_standings(cup)
    ranks = [line.rank for line in live]
    assert ranks[0] == 1 and ranks == sorted(ranks) and len(ranks) == 5
    byes = sum(len(r.byes) for r in Round.objects.filter(tournament=cup))
    assert sum(line.byes for line in live) == byes >= 1
    assert next(line for line in live if line.entry == quitter.pk).withdrawn
    assert next(line for line in live if line.entry == quitter.pk).forfeits == 1
    assert all(line.is_bot for line in live)

    # The read model folds the same results; a rebuild from the log gives them again.
    project()
    read = json.dumps([line.as_dict() for line in standings(cup)])
    assert read == json.dumps([line.as_dict() for line in live])
    projections.rebuild("tournament-results")
    assert json.dumps([line.as_dict() for line in standings(cup)]) == read

    # Once its games are archived (games/archive.py), the log still gives the same standings.
    for name in projections.PROJECTIONS:
        projections.run(name)
    assert all(archive_game(game.pk) for game in games)
    assert json.dumps([line.as_dict() for line in live_standings(cup)]) == read
    projections.rebuild("tournament-results")
    assert json.dumps([line.as_dict() for line in standings(cup)]) == read


def test_a_bot_that_fails_its_validation_mid_tournament_is_played_by_the_default_bot():
    """Its owner changed it and its new validation failed between two rounds: the next round is
    drawn and made all the same (the draw seats it, as a suspended bot's seat, and the default
    bot plays it), where the round's game was refused `bot-failed` and the tournament stuck."""
    organiser = make_user()
    cup = make_tournament(organiser, table_size=4, rounds=2)
    # The failing bot is the one "random" at the table: the log names the strategies that moved.
    bots = [make_bot(strategy=s) for s in ("greedy", "random", "greedy", "greedy")]
    for bot in bots:
        tournament_enter(cup, actor=organiser, bot=bot)
    tournament_start(cup, actor=organiser)
    play_round(cup)
    Bot.objects.filter(pk=bots[1].pk).update(
        status=Bot.Status.FAILED, status_reason="validation game 9: no answer"
    )

    assert tournament_advance(cup)
    second = current_round(cup)
    assert second.number == 2
    game = Game.objects.get(pk=second.tables.get().game_id)
    seat = game.seats.get(registered_bot=bots[1])
    assert seat.controller == "builtin"
    play_round(cup)
    # Every card its seat played in that game was the default bot's: the appends that hold them
    # name "fallback" among the bots that moved (bots/turns.py), never the bot's own "random".
    plays = [
        event
        for event in event_reads.stream_events(game.pk)
        if event.type == CARD_PLAYED and event.data["seat"] == seat.number
    ]
    assert plays
    for event in plays:
        moved = event.actor.removeprefix("bot:").split("+")
        assert "fallback" in moved and "random" not in moved, event.actor
    assert tournament_advance(cup)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
