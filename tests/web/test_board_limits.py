"""A club board's boxes (web/chat.py, templates/leagues/_board.html) as the chat's: no
maxlength to cut a paste silently, a count of what is left (static/limits.js, data-limit), and a
post past the limit refused under its own box with its code, its text back in the box to be cut
by the writer; nothing posted."""

from __future__ import annotations

import re

import pytest

from chat import board
from chat.models import ClubPost
from tests.league.factories import make_club
from tests.web.clients import signed_in

pytestmark = pytest.mark.django_db


def test_the_boards_boxes_cut_nothing_and_count_what_is_left():
    club, admin, (member,) = make_club(members=1)
    board.post(club=club, author=admin, text="Season two starts on Monday", announcement=True)
    html = signed_in(member).get(f"/clubs/{club.slug}/").content.decode()
    section = html[html.index('id="board"') :]
    assert "maxlength" not in section
    compose = re.search(r"<textarea[^>]*>", section).group(0)
    assert 'data-limit="500"' in compose
    assert 'aria-describedby="board-text-count"' in compose
    assert 'data-count-for="board-text"' in section
    reply = re.search(r'<input id="reply-\d+"[^>]*>', section).group(0)
    assert 'data-limit="500"' in reply
    assert "limits.js" in html


def test_a_post_past_the_limit_is_refused_under_its_box_and_its_text_kept():
    club, admin, (member,) = make_club(members=1)
    client = signed_in(admin)
    long = "word " * 130  # 650 characters, 649 once trimmed
    answer = client.post(f"/clubs/{club.slug}/board", {"text": long, "announcement": "1"})
    assert answer.status_code == 302 and answer["Location"] == f"/clubs/{club.slug}/#board-text"
    assert not ClubPost.objects.exists()
    html = client.get(f"/clubs/{club.slug}/").content.decode()
    box = re.search(r'<textarea id="board-text"[^>]*>([^<]*)</textarea>', html)
    assert box.group(1) == long and "autofocus" in box.group(0)
    assert 'name="announcement" value="1" checked' in html
    error = re.search(r'<p class="board__error" role="alert">(.*?)</p>', html)
    assert error.group(1) == (
        "A message has at most 500 characters (649 given). <code>message-too-long</code>"
    )
    assert (
        html.index("board-text-count")
        < html.index("board__error")
        < html.index("Nothing on the board yet")
    )
    # Said once: the page drawn again has an empty box.
    again = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "board__error" not in again and long not in again


def test_a_reply_past_the_limit_comes_back_in_its_own_box():
    club, admin, (member,) = make_club(members=1)
    thread = board.post(club=club, author=admin, text="Who plays Monday?")
    client = signed_in(member)
    long = "x" * 501
    answer = client.post(f"/clubs/{club.slug}/board", {"text": long, "reply_to": thread.pk})
    assert answer["Location"] == f"/clubs/{club.slug}/#reply-{thread.pk}"
    assert ClubPost.objects.count() == 1
    html = client.get(f"/clubs/{club.slug}/").content.decode()
    reply = re.search(rf'<input id="reply-{thread.pk}"[^>]*>', html).group(0)
    assert f'value="{long}"' in reply and "autofocus" in reply
    assert re.search(r'<textarea id="board-text"[^>]*></textarea>', html)
    assert "(501 given)" in html[html.index(f'id="reply-{thread.pk}"') :]
