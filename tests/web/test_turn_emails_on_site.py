"""No turn email for a person who is on the site (frontdoor/activity.py, clocks/presence.py
`active`, clocks/deadlines.py): any page or API request of theirs within
GAMES_SITE_ACTIVE_SECONDS, recorded at most once a minute per person. Their turns wait under the
bell; once they have been off the site that long, the sweep sends one email naming every game
that still waits for them. The turns that start within that time of a turn email go in one
later email too. Real PostgreSQL; tasks run in-process (eager)."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.services import token_issue
from clocks import deadlines, presence
from games import lobby, tasks
from games.commands import game_command
from games.models import Game, SiteActivity, TurnNotice
from tests.games.factories import bot_move, make_user
from tests.web.clients import signed_in
from tests.web.test_turn_emails import SHORT, START

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def mira_and_games(on_commit, count: int) -> tuple[object, list[Game]]:
    """Mira (with an address) starts `count` games against the greedy bot at START, day-long
    turns: she is at each when her first turn starts there (held, no email)."""
    mira = make_user("mira")
    mira.email = "mira@example.com"
    mira.save()
    with time_machine.travel(START, tick=False):
        games = [
            on_commit(
                lobby.game_start,
                creator=mira,
                variant_spec=SHORT,
                seats=[{"user": "me"}, {"bot": "greedy"}],
                seed=seed,
                turn_seconds=86400,
            )
            for seed in range(1, count + 1)
        ]
    return mira, games


def turn_emails() -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if m.subject.startswith("Your turn")]


def at(moment: datetime, work, *args, **kwargs):
    with time_machine.travel(moment, tick=False):
        return work(*args, **kwargs)


def bell(client) -> str:
    page = client.get("/clubs/").content.decode()
    return re.search(r'aria-label="(Notifications[^"]*)"', page).group(1)


def test_a_person_on_other_pages_gets_no_turn_email_then_one_naming_every_game(on_commit):
    """Mira's report: she left three games for other pages, and got an email per game. Now
    nothing while she is on the site (the bell says it), then one email naming the three once
    she has been off the site GAMES_SITE_ACTIVE_SECONDS, and no second one."""
    mira, games = mira_and_games(on_commit, 3)
    browser = signed_in(mira)
    # Away from the games (past the presence window), busy elsewhere on the site.
    for minutes in (4, 8, 12, 16):
        presence.forget_writes()
        assert at(START + timedelta(minutes=minutes), bell, browser) == "Notifications, 3 unread"
        at(START + timedelta(minutes=minutes, seconds=30), on_commit, tasks.expire_turns)
    assert turn_emails() == []
    # Her last request was at START + 16 min: still on the site 9 minutes later.
    at(START + timedelta(minutes=25), on_commit, tasks.expire_turns)
    assert turn_emails() == []

    at(START + timedelta(minutes=27), on_commit, tasks.expire_turns)
    [email] = turn_emails()
    assert email.to == [mira.email] and email.subject == "Your turn in 3 games"
    for game in games:
        assert f"against greedy (official, game {game.pk}, seat 1): play before " in email.body
        assert f"https://uno.example.org/games/{game.pk}/" in email.body
    assert "one email about these games until you are back at them" in email.body
    assert "/notifications/unsubscribe/" in email.body
    assert email.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    at(START + timedelta(minutes=40), on_commit, tasks.expire_turns)
    assert len(turn_emails()) == 1
    # Emailed: nothing of them is held for the digest.
    assert deadlines.send_turn_digests() == 0


def test_a_turn_that_starts_while_she_is_on_the_site_is_not_emailed_at_once(on_commit):
    """Her turn starts in a game she is away from (her move sent by the API a while ago, the
    bot answered later): on the site, she is told under the bell and not by email."""
    mira, (game,) = mira_and_games(on_commit, 1)
    browser = signed_in(mira)
    moment = START + timedelta(minutes=7)
    presence.forget_writes()
    assert at(moment, bell, browser) == "Notifications, 1 unread"
    # Her move, not from a page of the game (a command the service runs for her): the turn
    # after the bot's is hers again while she is away from the game.
    rng = random.Random(3)
    for _ in range(6):  # a draw and then a play are one turn
        if TurnNotice.objects.filter(seat__user=mira).count() >= 2:
            break
        actor, command, version = bot_move(game.pk, rng)
        at(moment, on_commit, game_command, game_id=game.pk, actor=actor, command=command,
           expected_version=version)  # fmt: skip
    assert TurnNotice.objects.filter(seat__user=mira).count() >= 2
    assert turn_emails() == []
    assert TurnNotice.objects.filter(seat__user=mira, sent_at=None, held=True).exists()


def test_games_that_start_waiting_just_after_a_turn_email_go_in_one_email(on_commit):
    """Off the site: the turns that wait when the sweep finds her gone go in one email; a game
    that starts waiting within GAMES_SITE_ACTIVE_SECONDS of that email waits for the next one,
    not an email of its own at once."""
    mira, games = mira_and_games(on_commit, 3)
    with time_machine.travel(START + timedelta(minutes=2), tick=False):
        later = on_commit(
            lobby.game_start,
            creator=mira,
            variant_spec=SHORT,
            seats=[{"user": "me"}, {"bot": "greedy"}],
            seed=9,
            turn_seconds=86400,
        )
    at(START + timedelta(minutes=6), on_commit, tasks.expire_turns)
    [first] = turn_emails()
    assert first.subject == "Your turn in 3 games" and f"game {later.pk}," not in first.body
    # The fourth game waits for her from START + 7 min (she left it 5 minutes before).
    at(START + timedelta(minutes=7, seconds=30), on_commit, tasks.expire_turns)
    at(START + timedelta(minutes=15), on_commit, tasks.expire_turns)
    assert len(turn_emails()) == 1
    at(START + timedelta(minutes=16, seconds=30), on_commit, tasks.expire_turns)
    second = turn_emails()[1]
    assert second.subject == f"Your turn against greedy (official, game {later.pk})"


def test_the_site_records_a_person_at_most_once_a_minute(on_commit, settings):
    mira = make_user("mira")
    browser = signed_in(mira)
    with time_machine.travel(START, tick=False):
        browser.get("/clubs/")
        with CaptureQueriesContext(connection) as second:
            browser.get("/clubs/")
    assert not [q for q in second if "games_siteactivity" in q["sql"]]
    assert SiteActivity.objects.get(user=mira).seen_at == START
    # Another process (its own table of writes): the row itself refuses a write within a minute.
    presence.forget_writes()
    at(START + timedelta(seconds=30), browser.get, "/clubs/")
    assert SiteActivity.objects.get(user=mira).seen_at == START
    presence.forget_writes()
    at(START + timedelta(seconds=61), browser.get, "/clubs/")
    assert SiteActivity.objects.get(user=mira).seen_at == START + timedelta(seconds=61)


def test_an_api_request_with_a_token_counts_as_on_the_site(on_commit, client):
    mira = make_user("mira")
    key = token_issue(user=mira)
    answer = at(START, client.get, "/api/me/notifications", HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.status_code == 200, answer.content
    assert SiteActivity.objects.get(user=mira).seen_at == START


def test_a_tab_left_open_polling_does_not_count_as_on_the_site(on_commit):
    """The board's htmx poll and the lobby's and chat's fetches go on while the person is away:
    only a navigation, a form sent or an API call says they are on the site, or a tab left open
    would hold their turn emails for good."""
    mira, (game,) = mira_and_games(on_commit, 1)
    browser = signed_in(mira)
    SiteActivity.objects.all().delete()
    presence.forget_writes()
    with time_machine.travel(START + timedelta(hours=1), tick=False):
        browser.get(f"/games/{game.pk}/board", {"version": "0"}, HTTP_HX_REQUEST="true")
        browser.get("/play/", HTTP_SEC_FETCH_MODE="cors")
        assert not SiteActivity.objects.filter(user=mira).exists()
        browser.get("/play/", HTTP_SEC_FETCH_MODE="navigate")
        assert SiteActivity.objects.get(user=mira).seen_at == START + timedelta(hours=1)
