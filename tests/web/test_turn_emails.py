"""Turn emails that respect presence (clocks/presence.py, clocks/deadlines.py, web/notices.py):
a whole match played on the page sends none; a person away gets one per game per absence, then
the digest; a muted game sends none; every email carries a signed one-click unsubscribe link
that works signed out, and the List-Unsubscribe headers. Two seats, a person against a built-in
bot, a short target; the dispatcher and the bots run on commit, in-process (eager tasks)."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail, signing
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clocks import deadlines, overdue, presence
from games import lobby, tasks
from games.models import Game, NotificationPreference, Presence, Seat, TurnNotice
from social.models import Notification
from social.notifications import turn_key
from tests.games.factories import bot_move, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

START = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)
SHORT = {"rules": "official", "options": {"target": 1}}
HTMX = {"HTTP_HX_REQUEST": "true"}


def table(on_commit, *, seed: int = 5, turn_seconds: int = 60, digest: bool = False):
    """A person (with an address; `digest`: who chose the daily digest) against the greedy
    bot, one-minute turns by default; the person and their signed-in browser."""
    person = make_user()
    person.email = f"{person.username}@example.com"
    person.save()
    if digest:
        NotificationPreference.objects.create(
            user=person, turn_emails=NotificationPreference.TurnEmails.DIGEST
        )
    # Started as the new-game form starts it: its creator is at the table.
    game = on_commit(
        lobby.game_start,
        creator=person,
        variant_spec=SHORT,
        seats=[{"user": "me"}, {"bot": "greedy"}],
        seed=seed,
        turn_seconds=turn_seconds,
    )
    browser = Client()
    browser.force_login(person)
    return game, person, browser


def ana_maya_and_greedy(on_commit):
    """ana (who starts it, so is at the table) and maya, both with an address, and the greedy
    bot, one-minute turns, started at START; the game, ana and maya."""
    with time_machine.travel(START, tick=False):
        ana, maya = make_user("ana"), make_user("maya")
        for person in (ana, maya):
            person.email = f"{person.username}@example.com"
            person.save()
        game = on_commit(
            lobby.game_start,
            creator=ana,
            variant_spec=SHORT,
            seats=[{"user": "me"}, {"user": "maya"}, {"bot": "greedy"}],
            turn_seconds=60,
        )
    return game, ana, maya


def over(game: Game) -> bool:
    game.refresh_from_db()
    return game.status == Game.Status.MATCH_OVER


def play_on_the_page(on_commit, game: Game, browser: Client, rng: random.Random) -> None:
    """The person's move as the play page makes it: the board's poll, then the form's POST."""
    game.refresh_from_db()
    assert (
        browser.get(f"/games/{game.pk}/board?version={game.version - 1}", **HTMX).status_code == 200
    )
    _, command, version = bot_move(game.pk, rng)
    data = {"command": json.dumps(command), "expected_version": version, "command_id": ""}
    answer = on_commit(browser.post, f"/games/{game.pk}/command", data, **HTMX)
    assert answer.status_code == 200


def away_turns(on_commit, game: Game, moment: datetime, turns: int) -> datetime:
    """`turns` of the person's turns pass with nobody at the page: each deadline goes by and the
    default bot plays for them (clocks/overdue.py); returns the clock after them."""
    for _ in range(turns):
        if over(game):
            break
        moment += timedelta(minutes=2)
        with time_machine.travel(moment, tick=False):
            assert on_commit(overdue.expire) == [game.pk]
    return moment


def turn_emails() -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if m.subject.startswith("Your turn")]


def test_a_whole_match_played_on_the_page_sends_no_email(on_commit):
    game, person, browser = table(on_commit)
    assert browser.get(f"/games/{game.pk}/").status_code == 200
    rng = random.Random(1)
    moves = 0
    while not over(game):
        play_on_the_page(on_commit, game, browser, rng)
        moves += 1
    # A real run of turns, each started for the person (a draw and a play are one turn).
    assert moves >= TurnNotice.objects.filter(seat__user=person).count() >= 10
    assert turn_emails() == []
    # Nothing waits for them any more: the digest has nothing to say either.
    assert deadlines.send_turn_digests() == 0 and turn_emails() == []


def test_away_one_email_per_absence_then_the_digest(on_commit):
    with time_machine.travel(START, tick=False):
        game, person, browser = table(on_commit)
        # They start the game, then leave it: the first turn started while they were there.
    assert turn_emails() == []

    moment = away_turns(on_commit, game, START + timedelta(minutes=10), 6)
    assert len(turn_emails()) == 1
    email = turn_emails()[0]
    assert email.to == [person.email]
    assert email.subject == f"Your turn against greedy (official, game {game.pk})"
    assert f"https://uno.example.org/games/{game.pk}/\n" in email.body
    # The seat as a person counts it: the game's first seat is "seat 1" (the log's seat 0).
    assert f"It is your turn against greedy (official, game {game.pk}, seat 1).\n" in email.body

    # The daily digest lists the turn that waits now (held: not emailed; unread under the bell).
    assert Notification.objects.get(user=person, kind="turn").read_at is None
    assert deadlines.send_turn_digests() == 1
    digest = mail.outbox[-1]
    assert digest.subject == "Your turn in 1 game(s)"
    assert f"- against greedy (official, game {game.pk}, seat 1): play before " in digest.body
    assert len(turn_emails()) == 2

    # They come back (the page), then are away again: the next absence has its one email.
    with time_machine.travel(moment, tick=False):
        presence.forget_writes()
        assert browser.get(f"/games/{game.pk}/").status_code == 200
    moment = away_turns(on_commit, game, moment + timedelta(minutes=10), 30)
    assert len(turn_emails()) == 3
    assert TurnNotice.objects.filter(seat__user=person).count() > 6


def test_a_turn_email_names_the_people_at_the_other_seats_and_the_rules(on_commit):
    """Three games against the same friend are told apart: the email names who else sits at the
    game and its rule family, beside its number and the link; the digest's line too. Names
    only: no card of anyone's (the soak's leak check reads emails for cards)."""
    game, ana, maya = ana_maya_and_greedy(on_commit)
    away_turns(on_commit, game, START + timedelta(minutes=10), 4)
    to_maya = [m for m in turn_emails() if m.to == [maya.email]]
    assert to_maya, [m.subject for m in turn_emails()]
    which = f"against ana and greedy (official, game {game.pk}"
    assert to_maya[0].subject == f"Your turn {which})"
    assert f"It is your turn {which}, seat 2).\n" in to_maya[0].body
    assert f"https://uno.example.org/games/{game.pk}/\n" in to_maya[0].body
    for email in turn_emails():
        assert not re.search(r"\b(red|green|blue|yellow|wild)\b", email.subject + email.body)
    assert deadlines.send_turn_digests() >= 1
    # The digest's line for the turn that waits now, whoever's it is, names the others too.
    lines = "".join(m.body for m in mail.outbox if m.subject == "Your turn in 1 game(s)")
    assert (
        f"- {which}, seat 2): play before " in lines
        or f"- against maya and greedy (official, game {game.pk}, seat 1): play before " in lines
    ), lines


def test_a_muted_game_sends_nothing_and_the_page_says_so(on_commit):
    with time_machine.travel(START, tick=False):
        game, person, browser = table(on_commit)
        page = browser.get(f"/games/{game.pk}/").content.decode()
        assert "Mute this game&#x27;s emails" in page or "Mute this game's emails" in page
        answer = browser.post(f"/games/{game.pk}/emails", {"muted": "1"}, follow=True)
        assert "This game&#x27;s turn emails are muted" in answer.content.decode()
        assert "Email me again" in answer.content.decode()
    moment = away_turns(on_commit, game, START + timedelta(minutes=10), 6)
    assert turn_emails() == []
    assert deadlines.send_turn_digests() == 0
    # Unmuted (from the page: they are back), then away again: the next turn is emailed.
    with time_machine.travel(moment, tick=False):
        browser.post(f"/games/{game.pk}/emails", {"muted": "0"})
    assert Presence.objects.get(user=person, game=game).muted is False
    away_turns(on_commit, game, moment + timedelta(minutes=10), 3)
    assert len(turn_emails()) == 1


def test_the_mute_form_needs_a_seat(on_commit):
    game, _, _ = table(on_commit)
    stranger = Client()
    stranger.force_login(make_user())
    answer = stranger.post(f"/games/{game.pk}/emails", {"muted": "1"}, follow=True)
    assert "You hold no seat in this game" in answer.content.decode()
    assert not Presence.objects.filter(muted=True).exists()


def unsubscribe_link(email: mail.EmailMessage) -> str:
    found = re.search(r"https://uno\.example\.org(/notifications/unsubscribe/[^/\s]+/)", email.body)
    assert found, email.body
    return found.group(1)


def test_every_turn_email_has_a_one_click_unsubscribe_that_works_signed_out(on_commit):
    with time_machine.travel(START, tick=False):
        game, person, _ = table(on_commit)
    away_turns(on_commit, game, START + timedelta(minutes=10), 2)
    email = turn_emails()[0]
    link = unsubscribe_link(email)
    assert email.extra_headers["List-Unsubscribe"] == f"<https://uno.example.org{link}>"
    assert email.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    message = email.message()
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    signed_out = Client(enforce_csrf_checks=True)
    page = signed_out.get(link)
    assert page.status_code == 200 and "Stop our emails?" in page.content.decode()
    assert not NotificationPreference.objects.filter(user=person).exists()  # a GET changes nothing
    # RFC 8058: the mail provider POSTs the same address, with no cookie and no CSRF token.
    done = signed_out.post(link, "List-Unsubscribe=One-Click", "application/x-www-form-urlencoded")
    assert done.status_code == 200 and "Emails stopped" in done.content.decode()
    assert NotificationPreference.objects.get(user=person).turn_emails == "none"
    sent = len(mail.outbox)
    away_turns(on_commit, game, START + timedelta(hours=1), 3)
    assert len(mail.outbox) == sent and deadlines.send_turn_digests() == 0


def test_the_digest_has_the_unsubscribe_headers_too(on_commit):
    with time_machine.travel(START, tick=False):
        game, person, _ = table(on_commit)
    NotificationPreference.objects.create(user=person, turn_emails="digest")
    away_turns(on_commit, game, START + timedelta(minutes=10), 2)
    assert turn_emails() == []
    assert deadlines.send_turn_digests() == 1
    digest = mail.outbox[-1]
    assert digest.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert Client().get(unsubscribe_link(digest)).status_code == 200


@pytest.mark.parametrize("change", ["tamper", "other-salt", "cut"])
def test_a_damaged_unsubscribe_link_is_refused_with_a_page_and_changes_nothing(change, client):
    person = make_user()
    token = presence.unsubscribe_token(person.pk)
    bad = {
        "tamper": token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
        "other-salt": signing.dumps(person.pk),
        "cut": token[: len(token) // 2],
    }[change]
    for answer in (
        client.get(f"/notifications/unsubscribe/{bad}/"),
        client.post(f"/notifications/unsubscribe/{bad}/"),
    ):
        assert answer.status_code == 400
        assert "This unsubscribe link is not valid" in answer.content.decode()
    assert not NotificationPreference.objects.filter(user=person).exists()


def test_a_match_played_on_the_page_leaves_no_turn_unread_under_the_bell(on_commit):
    """Every turn the person played from the page is read, though the moves come faster than
    the presence writes (GAMES_PRESENCE_WRITE_SECONDS): once the match is over, the bell shows
    no turn of it."""
    game, person, browser = table(on_commit)
    assert browser.get(f"/games/{game.pk}/").status_code == 200
    rng = random.Random(1)
    while not over(game):
        play_on_the_page(on_commit, game, browser, rng)
    # No turn of it waits: the one unread notice is its end, saying how they placed
    # (games/match_end_notice.py), until they look at the game again.
    (end,) = Notification.objects.filter(user=person, read_at__isnull=True)
    assert end.kind == "game-over" and re.fullmatch(ended_words(game), end.text)
    page = browser.get("/play/").content.decode()
    assert re.search(r'aria-label="(Notifications[^"]*)"', page).group(1).endswith(", 1 unread")
    presence.forget_writes()
    assert browser.get(f"/games/{game.pk}/").status_code == 200
    page = browser.get("/play/").content.decode()
    assert "unread" not in re.search(r'aria-label="(Notifications[^"]*)"', page).group(1)


def ended_words(game: Game) -> str:
    """What the notice of a match's end says to the person against the greedy bot."""
    return f"You won game {game.pk} against greedy|Game {game.pk} is over: you placed 2nd"


def test_each_turn_is_one_notice_for_the_bell_the_email_and_the_digest(on_commit):
    """The bell tells every turn (social/notifications.py), the same turn the email and the
    digest tell: one line per game, unread and newest again at each turn, read when the person
    opens the game, and a turn read there is not told again by the digest."""
    with time_machine.travel(START, tick=False):
        game, person, browser = table(on_commit)
    moment = away_turns(on_commit, game, START + timedelta(minutes=10), 6)
    turns = TurnNotice.objects.filter(seat__user=person).select_related("seat")
    assert turns.count() >= 6 and len(turn_emails()) == 1
    # One line for the game, however many turns: the latest turn's, unread.
    (bell,) = Notification.objects.filter(user=person, kind="turn")
    latest = turns.order_by("-created_at").first()
    assert bell.key == turn_key(game.pk, latest.seat.number) and bell.read_at is None
    assert bell.created_at == latest.created_at
    assert (bell.text, bell.url, bell.game_id) == (
        f"Your turn against greedy (official, game {game.pk})",
        f"/games/{game.pk}/",
        game.pk,
    )
    with time_machine.travel(moment, tick=False):
        page = browser.get("/clubs/").content.decode()
        assert 'aria-label="Notifications, 1 unread"' in page
        presence.forget_writes()
        assert browser.get(f"/games/{game.pk}/").status_code == 200
    bell.refresh_from_db()
    assert bell.read_at is not None
    # Seen at the game: the digest says nothing about it (nothing is told twice).
    assert deadlines.send_turn_digests() == 0
    assert len(turn_emails()) == 1
    # The next turn that starts makes it unread and newest again.
    away_turns(on_commit, game, moment + timedelta(minutes=10), 1)
    bell.refresh_from_db()
    assert bell.read_at is None and bell.created_at > latest.created_at


def test_the_bell_says_a_turn_as_its_email_does_naming_the_others_and_the_rules(on_commit):
    """Not "Your turn in game 12": the bell's line is the turn email's subject, who sits at the
    other seats, the rule family and the number, so a person with two games against the same
    people knows which one waits."""
    game, ana, maya = ana_maya_and_greedy(on_commit)
    moment = START + timedelta(minutes=10)
    while Notification.objects.filter(kind="turn").count() < 2 and not over(game):
        moment = away_turns(on_commit, game, moment, 1)
    expected = {
        "ana": f"Your turn against maya and greedy (official, game {game.pk})",
        "maya": f"Your turn against ana and greedy (official, game {game.pk})",
    }
    bells = {n.user.username: n.text for n in Notification.objects.filter(kind="turn")}
    # A turn that waits says so; one the default bot played since says that instead.
    game.refresh_from_db()
    waiting = {
        s.user.username for s in game.seats.filter(number__in=game.to_act, user__isnull=False)
    }
    assert waiting and {name: bells[name] for name in waiting} == {
        name: expected[name] for name in waiting
    }
    for name in set(bells) - waiting:
        assert bells[name] == expected[name].replace(
            "Your turn", "The default bot played your turn"
        )
    # The same words as the subject of each turn email (maya's at least: away from the start;
    # ana, who started the game, only if her first turn came once she had left it).
    emailed = {m.to[0].split("@")[0]: m.subject for m in turn_emails()}
    assert "maya" in emailed and emailed == {name: expected[name] for name in emailed}
    listed = Client()
    listed.force_login(maya)
    assert bells["maya"] in listed.get("/notifications/").content.decode()


def test_a_muted_game_still_tells_its_turns_under_the_bell(on_commit):
    with time_machine.travel(START, tick=False):
        game, person, browser = table(on_commit)
        browser.post(f"/games/{game.pk}/emails", {"muted": "1"})
    away_turns(on_commit, game, START + timedelta(minutes=10), 3)
    # Muted: no email and no digest, but the bell still says whose turn it is.
    assert turn_emails() == [] and deadlines.send_turn_digests() == 0
    (bell,) = Notification.objects.filter(user=person, kind="turn")
    assert (
        bell.read_at is None and bell.text == f"Your turn against greedy (official, game {game.pk})"
    )


def test_a_match_that_ends_while_the_person_is_away_tells_its_end_not_a_turn(on_commit):
    """The person left; the default bot played their turns to the match's end. The list says
    the game is over and how they placed, not "Your turn"; the bell counts it, unread and
    stamped with the end's time: their turn notice became it (the same row, one line)."""
    with time_machine.travel(START, tick=False):
        game, person, browser = table(on_commit)
    moment = away_turns(on_commit, game, START + timedelta(minutes=10), 1)
    with time_machine.travel(moment, tick=False):
        page = browser.get("/clubs/").content.decode()
        assert 'aria-label="Notifications, 1 unread"' in page
        # They read it under the bell: the end must be told all the same.
        browser.post("/notifications/read", {"all": "1"})
    for _ in range(200):
        if over(game):
            break
        moment = away_turns(on_commit, game, moment, 1)
    assert over(game)
    with time_machine.travel(moment, tick=False):
        page = browser.get("/clubs/").content.decode()
        label = re.search(r'aria-label="(Notifications[^"]*)"', page).group(1)
        assert label == "Notifications, 1 unread"
        listed = browser.get("/notifications/").content.decode()
    assert re.search(ended_words(game), listed)
    assert "Your turn against" not in listed and "your turn ·" not in listed
    assert "a game of yours ended ·" in listed and "Nothing new" not in listed
    (end,) = Notification.objects.filter(user=person)
    assert end.read_at is None and end.created_at == Game.objects.get(pk=game.pk).last_activity


def test_a_turn_that_started_while_its_person_was_there_emails_them_once_they_left(on_commit):
    """A turn that starts a minute after the person's last move is held (they are at the game);
    once they have been away the presence window with it still waiting, the sweep sends the one
    email of that absence, and no second one."""
    with time_machine.travel(START, tick=False):
        game, person, _ = table(on_commit, turn_seconds=86400)
    assert TurnNotice.objects.get(seat__user=person).held  # they were there
    with time_machine.travel(START + timedelta(minutes=2), tick=False):
        on_commit(tasks.expire_turns)  # still within the presence window: nothing
    assert turn_emails() == []

    with time_machine.travel(START + timedelta(minutes=10), tick=False):
        on_commit(tasks.expire_turns)
        on_commit(tasks.expire_turns)

    [email] = turn_emails()
    assert email.to == [person.email] and f"game {game.pk}" in email.subject
    assert not TurnNotice.objects.get(seat__user=person).held
    # Later sweeps: this absence had its email.
    assert deadlines.left_waiting(START + timedelta(minutes=20)) == []


def test_a_short_turn_emails_its_person_within_a_fifth_of_it_after_they_left(on_commit):
    """Turns of 5 minutes: the person, there when their turn starts, closes the tab. The site's
    10 minutes off it (and the game's 5 away) would let the default bot play that turn and the
    next before any email; a turn's windows are at most a fifth of it (a minute), so the sweep
    emails them a minute after they left, with 4 minutes of the turn still to play."""
    with time_machine.travel(START, tick=False):
        game, person, browser = table(on_commit, turn_seconds=300)
        assert browser.get(f"/games/{game.pk}/").status_code == 200  # there, then gone
    deadline = Seat.objects.get(game=game, user=person).deadline_at
    assert TurnNotice.objects.get(seat__user=person).held
    with time_machine.travel(START + timedelta(seconds=50), tick=False):
        on_commit(tasks.expire_turns)
    assert turn_emails() == []

    with time_machine.travel(START + timedelta(seconds=65), tick=False):
        on_commit(tasks.expire_turns)

    [email] = turn_emails()
    assert email.to == [person.email] and f"game {game.pk}" in email.subject
    assert deadline - (START + timedelta(seconds=65)) > timedelta(minutes=3)


def test_the_sweeps_read_the_unsent_notices_by_their_index(on_commit):
    """Every 5 s the sweep looks for held turns whose person left: it reads the notices no
    email claimed (a day's worth) through their index, not every notice the table keeps."""
    with time_machine.travel(START, tick=False):
        game, person, _ = table(on_commit, turn_seconds=86400)
    seat = TurnNotice.objects.get(seat__user=person).seat
    TurnNotice.objects.bulk_create(
        TurnNotice(seat=seat, deadline_at=START - timedelta(hours=hour), sent_at=START, held=True)
        for hour in range(1, 300)
    )
    with CaptureQueriesContext(connection) as read:
        deadlines.left_waiting(START + timedelta(minutes=10))
    sweep = next(q["sql"] for q in read if '"games_turnnotice"."held"' in q["sql"])
    with connection.cursor() as cursor:
        # As on a large table: the planner may not read every row.
        cursor.execute("SET enable_seqscan = off")
        cursor.execute("EXPLAIN " + sweep)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("RESET enable_seqscan")
    assert "turn_notice_unsent" in plan, plan


@pytest.mark.parametrize("quiet", ["muted", "digest"])
def test_a_held_turn_of_a_muted_game_or_a_digest_person_waits_for_no_sweep(on_commit, quiet):
    with time_machine.travel(START, tick=False):
        game, person, _ = table(on_commit, turn_seconds=86400, digest=quiet == "digest")
    if quiet == "muted":
        Presence.objects.filter(user=person, game=game).update(muted=True)
    with time_machine.travel(START + timedelta(minutes=10), tick=False):
        on_commit(tasks.expire_turns)
    assert turn_emails() == []


def test_a_turn_the_default_bot_played_is_told_not_left_as_your_turn(on_commit):
    """The bug: after the default bot played ana's timed-out turn, her bell still said "Your turn
    against maya and greedy" while the game waited for maya, and the lobby said nothing. Her
    turn notice says the bot played it (unread, newest), and the lobby card says so until she
    opens the game."""
    game, ana, maya = ana_maya_and_greedy(on_commit)
    moment = START + timedelta(minutes=10)
    ana_seat = game.seats.get(user=ana).number
    for _ in range(100):
        game.refresh_from_db()
        was_hers = ana_seat in game.to_act
        moment = away_turns(on_commit, game, moment, 1)
        game.refresh_from_db()
        if over(game):
            pytest.skip("the match ended before the case came up")
        if was_hers and ana_seat not in game.to_act:
            break
    else:
        raise AssertionError("ana never timed out into another's turn")
    (notice,) = Notification.objects.filter(user=ana, key=turn_key(game.pk, ana_seat))
    assert notice.read_at is None and notice.created_at == moment
    assert notice.text == (
        f"The default bot played your turn against maya and greedy (official, game {game.pk})"
    )
    browser = Client()
    browser.force_login(ana)
    with time_machine.travel(moment, tick=False):
        listed = browser.get("/notifications/").content.decode()
        assert "Your turn against" not in listed
        assert "The default bot played your turn against maya and greedy" in listed
        lobby_page = browser.get("/play/").content.decode()
        said = "your turn ran out and the default bot played it for you"
        assert said in lobby_page
        # Opening the game marks it read: the lobby says it no more.
        assert browser.get(f"/games/{game.pk}/").status_code == 200
        assert said not in browser.get("/play/").content.decode()
