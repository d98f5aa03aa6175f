"""Chat on the site (web/chat.py): the play page's panel (the form, the htmx list and its 204
when nothing changed, the spectators' words hidden from the seats), reporting and muting from
it, the replay's messages at their versions, and a club's board (members only, announcements
from admins first, replies, an admin hides a post with its reason)."""

from __future__ import annotations

import subprocess

import pytest
from django.test import Client
from django.utils import timezone

from chat import board, moderation, table
from chat.models import ClubPost, Message, Mute, Report
from games.models import Game
from tests.games.factories import make_game, make_user
from tests.league.factories import make_club
from tests.web.clients import signed_in
from tests.web.tables import advance, people_game
from tests.web.test_html_valid import ROOT, validator

pytestmark = pytest.mark.django_db

ONE_HAND = {"rules": "official", "options": {"scoring": "single-hand", "hand_size": 4}}


def page(response) -> str:
    return response.content.decode()


def seated():
    game = make_game(players=2, bots=["greedy"])
    ana, ben = [seat.user for seat in game.seats.order_by("number") if seat.user is not None]
    return game, ana, ben


def test_the_play_page_has_a_chat_panel_and_its_form_posts():
    game, ana, ben = seated()
    html = page(signed_in(ana).get(f"/games/{game.pk}/"))
    assert '<details id="chat" class="chat" data-chat-url=' in html
    assert "Message the table" in html
    answer = signed_in(ana).post(f"/games/{game.pk}/chat/say", {"text": "gl hf"})
    assert answer.status_code == 302
    assert answer["Location"] == f"/games/{game.pk}/?chat=1#chat"
    html = page(signed_in(ben).get(f"/games/{game.pk}/?chat=1"))
    assert '<details id="chat" class="chat" open data-chat-url=' in html
    assert "gl hf" in html


def test_a_closed_chat_says_who_wrote_last_and_each_message_when():
    game, ana, ben = seated()
    html = page(signed_in(ben).get(f"/games/{game.pk}/"))
    assert "the last message from" not in html  # no message yet: nothing to say
    signed_in(ana).post(f"/games/{game.pk}/chat/say", {"text": "back tonight"})
    said = Message.objects.get().created_at

    html = page(signed_in(ben).get(f"/games/{game.pk}/"))

    summary = html.split('<summary class="chat__summary">', 1)[1].split("</summary>", 1)[0]
    stamp = said.isoformat(timespec="seconds")
    assert f'· the last message from {ana.username}, <time datetime="{stamp}"' in summary
    assert f">{said:%a %H:%M}</time>" in summary
    message = html.split('class="chat__message"', 1)[1].split("</li>", 1)[0]
    assert (
        f'<time class="chat__time muted" datetime="{said.isoformat(timespec="seconds")}"' in message
    )
    assert "the last message from you" in page(signed_in(ana).get(f"/games/{game.pk}/"))


def test_a_refused_message_comes_back_in_the_panel_with_its_code():
    game, ana, ben = seated()
    answer = signed_in(ana).post(
        f"/games/{game.pk}/chat/say", {"text": "x" * 501}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200
    # The sentence is what a person reads; the code is for scripts, in an attribute.
    said = page(answer).split('class="banner banner--error chat__error"', 1)[1].split("</p>")[0]
    assert said.endswith(">A message has at most 500 characters (501 given).")
    assert 'data-code="message-too-long"' in said
    assert not Message.objects.exists()


def test_the_list_answers_204_until_something_changes():
    game, ana, ben = seated()
    client = signed_in(ben)
    first = client.get(f"/games/{game.pk}/chat")
    assert first.status_code == 200
    seen = first.context["chat_seen"]
    assert client.get(f"/games/{game.pk}/chat", {"seen": seen}).status_code == 204
    table.post(game_id=game.pk, author=ana, text="your move")
    fresh = client.get(f"/games/{game.pk}/chat", {"seen": seen})
    assert fresh.status_code == 200 and "your move" in page(fresh)


def test_a_spectator_writes_to_the_spectators_whom_the_seats_do_not_read():
    game, ana, ben = seated()
    cy = make_user()
    signed_in(cy).post(f"/games/{game.pk}/chat/say", {"text": "ben has two wilds"})
    assert Message.objects.get().channel == "spectators"
    assert "ben has two wilds" in page(signed_in(make_user()).get(f"/games/{game.pk}/?chat=1"))
    assert "ben has two wilds" not in page(signed_in(ana).get(f"/games/{game.pk}/?chat=1"))
    assert "ben has two wilds" not in page(signed_in(ana).get(f"/games/{game.pk}/chat"))


def test_after_the_match_a_spectator_is_not_told_they_write_to_the_spectators_only():
    """Once the match is over both channels are open to everyone (chat/table.py)."""
    game, people = people_game(ONE_HAND, seats=2)
    watcher = signed_in(make_user())
    live = page(watcher.get(f"/games/{game.pk}/"))
    assert "with the other spectators" in live and 'placeholder="Message spectators"' in live
    game = advance(game, 500)
    assert game.status == Game.Status.MATCH_OVER
    over = page(watcher.get(f"/games/{game.pk}/"))
    assert "with the other spectators" not in over and "Message spectators" not in over
    assert 'placeholder="Message the table"' in over


def test_report_and_mute_from_the_panel():
    game, ana, ben = seated()
    message = table.post(game_id=game.pk, author=ana, text="rude words")
    client = signed_in(ben)
    form = client.get(f"/chat/message/{message.pk}/report")
    assert "rude words" in page(form)
    done = client.post(f"/chat/message/{message.pk}/report", {"reason": "rude"})
    assert done.status_code == 302
    assert Report.objects.get().reason == "rude"
    muted = client.post(
        f"/people/{ana.username}/mute", {"muted": "1", "next": f"/games/{game.pk}/?chat=1"}
    )
    assert muted["Location"] == f"/games/{game.pk}/?chat=1"
    assert Mute.objects.filter(muter=ben, muted=ana).exists()
    assert "rude words" not in page(client.get(f"/games/{game.pk}/chat"))
    # Elsewhere than the site: back to the lobby instead.
    again = client.post(
        f"/people/{ana.username}/mute", {"muted": "0", "next": "https://evil.example/"}
    )
    assert again["Location"] == "/play/"
    assert not Mute.objects.exists()


def test_the_replay_shows_what_was_said_up_to_its_event():
    game, people = people_game(ONE_HAND, seats=2)
    early = table.post(game_id=game.pk, author=people[0], text="said early")
    game = advance(game, 2)
    watcher = make_user()
    table.post(game_id=game.pk, author=watcher, text="said by a spectator")
    game = advance(game, 500)
    assert game.status == Game.Status.MATCH_OVER
    late = table.post(game_id=game.pk, author=people[1], text="gg")
    client = signed_in(people[0])
    at_start = page(client.get(f"/games/{game.pk}/replay/", {"at": early.version}))
    assert "said early" in at_start and "gg" not in at_start
    at_end = page(client.get(f"/games/{game.pk}/replay/", {"at": late.version}))
    assert "said early" in at_end and "said by a spectator" in at_end and "gg" in at_end


# A club's board


def test_the_board_is_for_members_only():
    club, admin, (member,) = make_club(members=1)
    board.post(club=club, author=member, text="hello club")
    assert "hello club" in page(signed_in(member).get(f"/clubs/{club.slug}/"))
    outsider = make_user()
    for client in (Client(), signed_in(outsider)):
        html = page(client.get(f"/clubs/{club.slug}/"))
        assert "hello club" not in html and 'id="board"' not in html
    refused = signed_in(outsider).post(f"/clubs/{club.slug}/board", {"text": "let me in"})
    assert refused.status_code == 302
    assert ClubPost.objects.count() == 1


def test_admins_announce_first_members_reply_and_cannot_announce():
    club, admin, (member,) = make_club(members=1)
    signed_in(member).post(f"/clubs/{club.slug}/board", {"text": "first post"})
    signed_in(admin).post(
        f"/clubs/{club.slug}/board", {"text": "season starts monday", "announcement": "1"}
    )
    signed_in(member).post(f"/clubs/{club.slug}/board", {"text": "sneaky", "announcement": "1"})
    assert not ClubPost.objects.filter(text="sneaky").exists()
    announcement = ClubPost.objects.get(text="season starts monday")
    assert announcement.is_announcement
    signed_in(member).post(
        f"/clubs/{club.slug}/board", {"text": "see you there", "reply_to": announcement.pk}
    )
    reply = ClubPost.objects.get(text="see you there")
    assert reply.reply_to == announcement and not reply.is_announcement
    html = page(signed_in(member).get(f"/clubs/{club.slug}/"))
    assert (
        html.index("season starts monday") < html.index("see you there") < html.index("first post")
    )
    assert "announcement</span>" in html


def test_a_club_admin_hides_a_post_with_a_reason_and_members_cannot():
    club, admin, (member, other) = make_club(members=2)
    post = board.post(club=club, author=member, text="buy cheap watches")
    refused = signed_in(other).post(f"/clubs/{club.slug}/board/{post.pk}/hide", {"reason": "spam"})
    assert refused.status_code == 403
    signed_in(admin).post(f"/clubs/{club.slug}/board/{post.pk}/hide", {"reason": "  "})
    post.refresh_from_db()
    assert post.hidden_at is None
    signed_in(admin).post(f"/clubs/{club.slug}/board/{post.pk}/hide", {"reason": "spam"})
    post.refresh_from_db()
    assert (post.hidden_by, post.hidden_reason, post.text) == (admin, "spam", "buy cheap watches")
    html = page(signed_in(other).get(f"/clubs/{club.slug}/"))
    assert "message hidden by moderators" in html and "cheap watches" not in html
    # The admin still reads it, with why it was hidden.
    assert "cheap watches" in page(signed_in(admin).get(f"/clubs/{club.slug}/"))
    # Another club's admin cannot hide it.
    _, stranger, _ = make_club()
    assert (
        signed_in(stranger)
        .post(f"/clubs/{club.slug}/board/{post.pk}/hide", {"reason": "x"})
        .status_code
        == 403
    )


def test_muted_people_are_left_out_of_the_board_too():
    club, admin, (member, other) = make_club(members=2)
    board.post(club=club, author=other, text="from other")
    Mute.objects.create(muter=member, muted=other)
    assert "from other" not in page(signed_in(member).get(f"/clubs/{club.slug}/"))
    assert "from other" in page(signed_in(admin).get(f"/clubs/{club.slug}/"))


def test_a_board_post_can_be_reported_by_a_member():
    club, admin, (member, other) = make_club(members=2)
    post = board.post(club=club, author=other, text="meh")
    assert (
        signed_in(member).post(f"/chat/post/{post.pk}/report", {"reason": "x"}).status_code == 302
    )
    assert Report.objects.get().post == post
    assert signed_in(make_user()).get(f"/chat/post/{post.pk}/report").status_code == 404
    assert signed_in(member).get("/chat/other/1/report").status_code == 404


def test_the_chat_pages_validate_as_html(tmp_path):
    game, ana, ben = seated()
    cy = make_user()
    first = table.post(game_id=game.pk, author=ana, text="hello <b>there</b> & all")
    table.post(game_id=game.pk, author=cy, text="watching")
    Message.objects.filter(pk=first.pk).update(hidden_at=timezone.now(), hidden_reason="x")
    table.post(game_id=game.pk, author=ben, text="hi")
    Mute.objects.create(muter=ben, muted=cy)
    moderation.report(reporter=ben, message_id=table.post(game_id=game.pk, author=ana, text="r").pk)
    club, admin, (member,) = make_club(members=1)
    announcement = board.post(club=club, author=admin, text="news", announcement=True)
    board.post(club=club, author=member, text="reply", reply_to=announcement.pk)
    board.post(club=club, author=member, text="a post\nover two lines")
    staff = make_user()
    staff.is_staff = True
    staff.save()
    pages = [
        (ben, f"/games/{game.pk}/?chat=1"),
        (cy, f"/games/{game.pk}/?chat=1"),
        (None, f"/games/{game.pk}/"),
        (ben, f"/games/{game.pk}/chat"),
        (ben, f"/chat/message/{first.pk + 3}/report"),
        (admin, f"/clubs/{club.slug}/"),
        (member, f"/clubs/{club.slug}/"),
        (staff, "/staff/reports/"),
    ]
    files = []
    for number, (who, path) in enumerate(pages):
        client = signed_in(who) if who is not None else Client()
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        if path.endswith("/chat"):
            head = "<!doctype html><html lang=en><head><title>t</title></head><body>"
            body = f"{head}{body}</body></html>"
        file = tmp_path / f"{number:02d}.html"
        file.write_text(body)
        files.append(str(file))
    run = subprocess.run(
        [
            str(validator()),
            "--config",
            str(ROOT / ".htmlvalidate.json"),
            "--formatter",
            "text",
            *files,
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
