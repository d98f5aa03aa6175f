"""Table chat through the API (api/chat.py, chat/table.py, chat/moderation.py): who reads and
writes which channel, every refusal with its stable code, mutes, reports and the bell."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from chat import rules
from chat.models import ChatRestriction, Message, Mute, Report
from clocks import presence
from games.models import Game
from social.models import Notification
from tests.games.factories import make_game, make_user

pytestmark = pytest.mark.django_db


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def url(game: Game) -> str:
    return f"/api/games/{game.pk}/chat"


@pytest.fixture
def table():
    """A playing game of two people (ana, ben) and a bot, and a spectator (cy)."""
    game = make_game(players=2, bots=["greedy"])
    ana, ben = [seat.user for seat in game.seats.order_by("number") if seat.user is not None]
    return game, ana, ben, make_user()


def say(user, game, text, **extra):
    return signed_in(user).post(url(game), {"text": text, **extra}, format="json")


def texts(answer) -> list[str | None]:
    return [message["text"] for message in answer.json()["messages"]]


def test_a_seated_person_talks_and_the_other_seat_and_spectators_read_it(table):
    game, ana, ben, cy = table
    said = say(ana, game, "  good luck, have fun  ")
    assert said.status_code == 201
    body = said.json()
    # Kept as written (trimmed), in the seats' channel, at the game's version.
    assert body["text"] == "good luck, have fun"
    assert body["channel"] == "seats"
    assert body["seq"] == 1
    assert body["version"] == Game.objects.get(pk=game.pk).version
    for reader in (ben, cy):
        read = signed_in(reader).get(url(game))
        assert read.status_code == 200
        assert texts(read) == ["good luck, have fun"]
    # A visitor reads the seats' channel too (games are public to spectators) and writes nothing.
    anonymous = APIClient().get(url(game)).json()
    assert [m["text"] for m in anonymous["messages"]] == ["good luck, have fun"]
    assert anonymous["writes"] is None
    assert APIClient().post(url(game), {"text": "hi"}, format="json").status_code == 403


def test_the_spectators_channel_is_hidden_from_the_seats_while_the_match_plays(table):
    game, ana, ben, cy = table
    assert say(cy, game, "ana should play the wild").status_code == 201
    say(ana, game, "hello")
    seat_view = signed_in(ana).get(url(game)).json()
    assert seat_view["channels"] == ["seats"]
    assert [m["text"] for m in seat_view["messages"]] == ["hello"]
    spectator_view = signed_in(cy).get(url(game)).json()
    assert spectator_view["channels"] == ["seats", "spectators"]
    assert [m["text"] for m in spectator_view["messages"]] == ["ana should play the wild", "hello"]
    # A seat cannot write to the spectators, nor a spectator to the seats.
    refused = say(ana, game, "psst", channel="spectators")
    assert (refused.status_code, refused.json()["code"]) == (403, "seated")
    refused = say(cy, game, "play red", channel="seats")
    assert (refused.status_code, refused.json()["code"]) == (403, "not-seated")
    assert Message.objects.filter(game=game).count() == 2


def test_once_the_match_is_over_the_seats_read_the_spectators_too(table):
    game, ana, ben, cy = table
    say(cy, game, "well played")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.MATCH_OVER)
    read = signed_in(ana).get(url(game)).json()
    assert read["channels"] == ["seats", "spectators"]
    assert [m["text"] for m in read["messages"]] == ["well played"]


def test_a_staff_member_who_plays_is_a_seat_like_anyone(table):
    game, ana, ben, cy = table
    ana.is_staff = True
    ana.save()
    say(cy, game, "spectators only")
    assert texts(signed_in(ana).get(url(game))) == []


def test_after_pages_on_and_a_bad_after_is_a_typed_400(table):
    game, ana, ben, cy = table
    for text in ("one", "two", "three"):
        say(ana, game, text)
    read = signed_in(ben).get(url(game), {"after": 1}).json()
    assert [m["text"] for m in read["messages"]] == ["two", "three"]
    assert read["last"] == 3
    assert signed_in(ben).get(url(game), {"after": 3}).json()["messages"] == []
    for bad in ("x", "-1", "1.5"):
        answer = signed_in(ben).get(url(game), {"after": bad})
        assert (answer.status_code, answer.json()["code"]) == (400, "bad-after")


def test_empty_and_too_long_messages_are_refused_and_nothing_is_kept(table):
    game, ana, ben, cy = table
    for text in ("", "   \n "):
        answer = say(ana, game, text)
        assert (answer.status_code, answer.json()["code"]) == (400, "empty-message")
    answer = say(ana, game, "x" * (rules.MESSAGE_LENGTH + 1))
    assert (answer.status_code, answer.json()["code"]) == (400, "message-too-long")
    assert say(ana, game, "x" * rules.MESSAGE_LENGTH).status_code == 201
    assert Message.objects.filter(game=game).count() == 1
    unknown = say(ana, game, "hi", channel="everyone")
    assert unknown.status_code == 400
    assert say(ana, Game(pk=999999), "hi").status_code == 404


def test_past_the_rate_limit_a_person_waits(table):
    game, ana, ben, cy = table
    for n in range(rules.RATE_COUNT):
        assert say(ana, game, f"message {n}").status_code == 201
    answer = say(ana, game, "one too many")
    assert answer.status_code == 429
    assert answer.json()["code"] == "chat-rate-limited"
    assert 1 <= answer.json()["wait"] <= rules.RATE_SECONDS
    assert answer["Retry-After"] == str(answer.json()["wait"])
    # Someone else is not held back; and once the window passed, ana talks again.
    assert say(ben, game, "calm down").status_code == 201
    Message.objects.filter(author=ana).update(
        created_at=timezone.now() - timedelta(seconds=rules.RATE_SECONDS + 1)
    )
    assert say(ana, game, "sorry").status_code == 201


def test_a_restricted_person_is_refused_with_the_end_of_the_restriction(table):
    game, ana, ben, cy = table
    until = timezone.now() + timedelta(hours=3)
    ChatRestriction.objects.create(user=ana, until=until, reason="insults", by=make_user())
    answer = say(ana, game, "let me speak")
    assert answer.status_code == 403
    assert answer.json()["code"] == "chat-restricted"
    assert answer.json()["until"] == until.isoformat()
    assert not Message.objects.exists()
    # A restriction that ran out no longer holds.
    ChatRestriction.objects.update(until=timezone.now() - timedelta(seconds=1))
    assert say(ana, game, "back").status_code == 201


def test_a_muted_person_is_left_out_everywhere_until_unmuted(table):
    game, ana, ben, cy = table
    say(ana, game, "from ana")
    say(ben, game, "from ben")
    muted = signed_in(ben).post(f"/api/people/{ana.username}/mute")
    assert muted.json() == {"username": ana.username, "muted": True}
    assert texts(signed_in(ben).get(url(game))) == ["from ben"]
    # Only for the muter: cy still reads ana.
    assert texts(signed_in(cy).get(url(game))) == ["from ana", "from ben"]
    other = make_game(players=0, bots=["greedy", "greedy"])
    assert texts(signed_in(ben).get(url(other))) == []
    assert signed_in(ben).delete(f"/api/people/{ana.username}/mute").json()["muted"] is False
    assert texts(signed_in(ben).get(url(game))) == ["from ana", "from ben"]


def test_mute_refusals(table):
    game, ana, ben, cy = table
    myself = signed_in(ana).post(f"/api/people/{ana.username}/mute")
    assert (myself.status_code, myself.json()["code"]) == (400, "cannot-mute-self")
    assert signed_in(ana).post("/api/people/nobody-at-all/mute").status_code == 404
    assert APIClient().post(f"/api/people/{ben.username}/mute").status_code == 403


def test_a_report_is_queued_once_and_its_refusals(table):
    game, ana, ben, cy = table
    message = say(ana, game, "you are terrible").json()
    report_url = f"/api/chat/{message['id']}/report"
    made = signed_in(ben).post(report_url, {"reason": "rude"}, format="json")
    assert made.status_code == 201
    assert made.json()["status"] == "open"
    report = Report.objects.get()
    assert (report.reporter, report.message_id, report.reason) == (ben, message["id"], "rude")
    again = signed_in(ben).post(report_url, {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "already-reported")
    own = signed_in(ana).post(report_url, {}, format="json")
    assert (own.status_code, own.json()["code"]) == (403, "own-message")
    assert signed_in(ben).post("/api/chat/999999/report", {}, format="json").status_code == 404
    assert APIClient().post(report_url, {}, format="json").status_code == 403
    # A seat cannot report (nor learn of) a spectators' message while the match plays.
    hidden = say(cy, game, "spectator talk").json()
    answer = signed_in(ana).post(f"/api/chat/{hidden['id']}/report", {}, format="json")
    assert answer.status_code == 404
    assert Report.objects.count() == 1


def test_a_hidden_message_reads_hidden_to_everyone_but_staff(table):
    game, ana, ben, cy = table
    said = say(ana, game, "something awful").json()
    message = Message.objects.get(pk=said["id"])
    message.hidden_at, message.hidden_reason = timezone.now(), "abuse"
    message.save()
    shown = signed_in(ben).get(url(game)).json()["messages"][0]
    assert (shown["text"], shown["hidden"]) == (None, True)
    staff = make_user()
    staff.is_staff = True
    staff.save()
    assert signed_in(staff).get(url(game)).json()["messages"][0]["text"] == "something awful"
    refused = signed_in(cy).post(f"/api/chat/{said['id']}/report", {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "already-hidden")


def test_a_seat_message_rings_the_bell_of_the_others_away_once_per_absence(table):
    game, ana, ben, cy = table
    three = make_game(players=3)
    a, b, c = [seat.user for seat in three.seats.order_by("number")]
    presence.seen(c.pk, three.pk)  # c is at the table now
    with_callbacks(lambda: say(a, three, "hello"))
    with_callbacks(lambda: say(a, three, "anyone?"))
    notices = Notification.objects.filter(kind="chat")
    assert [(n.user, n.url) for n in notices] == [(b, f"/games/{three.pk}/")]
    assert a.username in notices[0].text
    # Spectators' words ring nobody.
    with_callbacks(lambda: say(cy, three, "watching"))
    assert Notification.objects.filter(kind="chat").count() == 1
    # Nor does someone b mutes, however long b is away.
    Mute.objects.create(muter=b, muted=c)
    Notification.objects.all().delete()
    with_callbacks(lambda: say(c, three, "b?"))
    assert not Notification.objects.filter(user=b).exists()


def with_callbacks(action):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return action()
