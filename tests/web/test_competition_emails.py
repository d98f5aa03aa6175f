"""A turn email (and the digest's line) of a competition's game names the competition it is
played in (league/competition_names.py, clocks/deadlines.py `whose_game`): a club season's
fixture by its club, season and round, a tournament's game by its tournament and round. A game
of no competition is named as before (tests/games/test_deadlines.py)."""

from __future__ import annotations

import pytest
from django.core import mail

from clocks import deadlines
from games.models import NotificationPreference, Seat, TurnNotice
from tests.games.factories import make_user
from tests.league.factories import make_bot
from tests.tournaments.factories import make_tournament
from tests.web.league_pages import fixture_of_two
from tournaments.models import TournamentGame
from tournaments.services import tournament_enter, tournament_start

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_fixtures_turn_email_names_the_club_the_season_and_the_round(eager_tasks):
    _, fixture, game, to_act, other = fixture_of_two()
    club = fixture.division.season.club.name
    seat = fixture.seats.get(entry__user=to_act).number
    (email,) = [m for m in mail.outbox if m.to == [to_act.email]]
    where = f"in {club}, Season 1, round 1"
    assert email.subject == (
        f"Your turn against {other.username} ({game.variant['rules']}, game {game.pk}) {where}"
    )
    assert email.body.startswith(
        f"It is your turn against {other.username} ({game.variant['rules']}, game {game.pk}, "
        f"seat {seat + 1}) {where}.\n"
    )


def test_the_digests_line_names_the_fixtures_competition(eager_tasks):
    _, fixture, game, to_act, other = fixture_of_two()
    NotificationPreference.objects.create(
        user=to_act, turn_emails=NotificationPreference.TurnEmails.DIGEST
    )
    # The turn waits, told by no email yet: the digest's.
    TurnNotice.objects.filter(seat__user=to_act).update(sent_at=None, held=True)
    mail.outbox.clear()
    assert deadlines.send_turn_digests() == 1
    (digest,) = mail.outbox
    club = fixture.division.season.club.name
    seat = fixture.seats.get(entry__user=to_act).number
    assert (
        f"- against {other.username} (official, game {game.pk}, seat {seat + 1}) in {club}, "
        "Season 1, round 1: play before"
    ) in digest.body


def test_a_tournament_games_turn_email_names_the_tournament_and_the_round(eager_tasks):
    ana = make_user("ana")
    ana.email = "ana@example.com"
    ana.save()
    cup = make_tournament(ana, name="Spring Swiss", table_size=2, rounds=2)
    tournament_enter(cup, actor=ana, user=ana)
    tournament_enter(cup, actor=ana, bot=make_bot(name="Rex", strategy="greedy"))
    tournament_start(cup, actor=ana)
    (table,) = TournamentGame.objects.filter(round__tournament=cup)
    seat = Seat.objects.get(game_id=table.game_id, user=ana)
    assert deadlines.whose_game(seat.game, seat.number) == (
        f"against Rex (official, game {table.game_id}) in Spring Swiss, round 1"
    )
