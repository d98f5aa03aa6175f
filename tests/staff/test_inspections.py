"""The inspector and hidden cards (staff/inspections.py): a staff member who plays in a game sees
it as their seat does while its cards are hidden, and every other look at hidden cards is an
audit entry (`inspect-hidden`), shown on the inspector and in the admin's audit trail."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import event_reads
from games.creation import SeatSpec, game_create
from games.models import Bot, Game
from games.repository import repository
from games.reveal import revealed
from staff.models import AuditEntry
from tests.games.factories import make_user, play_to_end
from tests.staff.test_inspector import Page

pytestmark = pytest.mark.django_db

SHORT = {"rules": "official", "options": {"target": 50}}
# A seed that cannot appear on the page by chance.
SEED = "5eedc0ffee1234ab"


def staff(username: str = "root"):
    return get_user_model().objects.create_user(username, is_staff=True)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def full_state(game: Game, version: int | None = None):
    events = event_reads.load(game.pk, until=version)
    variant = repository.variant(game, events)
    return variant, variant.replay(events)


def test_a_staff_member_seated_in_a_running_game_sees_only_their_seats_view():
    sam = staff("sam")
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(bot="greedy"), SeatSpec(user=sam)], seed=SEED
    )
    variant, state = full_state(game)
    assert event_reads.load(game.pk, until=1)[0]["seed"] == SEED
    assert state.status == Game.Status.PLAYING and len(state.hands[0]) == 7

    response = client_of(sam).get(f"/staff/games/{game.pk}/")

    assert response.status_code == 200
    html = response.content.decode()
    page = Page(html)
    shown = json.loads(page.pres["state-json"])
    # Seat 1's own view: its hand, the others' sizes; no other hand, no draw pile, no seed.
    assert shown == json.loads(json.dumps(variant.view(state, 1)))
    assert "hands" not in shown and shown["hand"] == list(state.hands[1])
    assert SEED not in html and '"deck"' not in html
    assert all('"deck"' not in data for data in page.data.values())
    assert "You play in this game (seat 1, counted from 0 as below)" in html
    # Staff read the log's numbers, 0-based, and the page says so (players' pages count from 1).
    assert "Seats here are numbered from 0, as the log and the API number them" in html
    # Nothing hidden was shown: nothing to audit.
    assert not AuditEntry.objects.exists()
    # ?at= is the seat's view too.
    first = Page(client_of(sam).get(f"/staff/games/{game.pk}/?at=1").content.decode())
    assert "hands" not in json.loads(first.pres["state-json"])
    # Another staff member sees the whole state, and that is recorded.
    other = Page(client_of(staff("tess")).get(f"/staff/games/{game.pk}/").content.decode())
    assert json.loads(other.pres["state-json"])["hands"][0] == list(state.hands[0])


def test_a_staff_member_whose_bot_plays_sees_the_bots_seat_only():
    sam = staff("sam")
    bot = Bot.objects.create(
        owner=sam, name="samsbot", kind=Bot.Kind.BUILTIN, strategy="greedy", status="active"
    )
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=make_user()), SeatSpec(registered=bot)], seed=4
    )

    html = client_of(sam).get(f"/staff/games/{game.pk}/").content.decode()

    # The bot's seat's view: its hand, not the person's, whose cards stay hidden.
    variant, state = full_state(game)
    shown = json.loads(Page(html).pres["state-json"])
    assert "hands" not in shown and shown["hand"] == list(state.hands[1])
    assert all('"deck"' not in data for data in Page(html).data.values())
    assert (
        "Your bot samsbot plays in this game (seat 1, counted from 0 as below): you see it as "
        "its seat does." in html
    )
    assert "You play in this game" not in html
    assert "the cards your bot's seat may not see are hidden" in html
    assert not AuditEntry.objects.exists()


def test_an_inspection_of_a_game_they_do_not_play_writes_one_audit_entry():
    root = staff("root")
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=make_user()), SeatSpec(bot="greedy")], seed=5
    )

    html = client_of(root).get(f"/staff/games/{game.pk}/?at=1").content.decode()

    (entry,) = AuditEntry.objects.all()
    assert (entry.actor, entry.action, entry.target) == (root, "inspect-hidden", f"game:{game.pk}")
    assert entry.details["version"] == 1
    # Shown on the inspector itself, and the admin's audit trail filters by it.
    assert f'data-audit="{entry.pk}"' in html and "inspect-hidden" in html
    root.is_superuser = True
    root.save()
    listed = client_of(root).get("/admin/staff/auditentry/?action=inspect-hidden").content.decode()
    assert f"game:{game.pk}" in listed or f"/staff/games/{game.pk}/" in listed


def test_a_game_whose_log_is_public_is_shown_whole_and_not_audited():
    sam = staff("sam")
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(bot="greedy"), SeatSpec(user=sam)], seed=6
    )
    play_to_end(game.pk)
    game.refresh_from_db()
    assert revealed(game)

    html = client_of(sam).get(f"/staff/games/{game.pk}/").content.decode()

    assert "hands" in json.loads(Page(html).pres["state-json"])
    assert "You play in this game" not in html
    assert not AuditEntry.objects.exists()


RULINGS = ("abort", "forfeit", "extend-deadline")


@pytest.mark.parametrize("seated", ["person", "bot"])
def test_a_staff_member_who_plays_is_offered_no_ruling_and_told_why_up_front(seated):
    sam = staff("sam")
    if seated == "person":
        seat = SeatSpec(user=sam)
    else:
        bot = Bot.objects.create(
            owner=sam, name="samsbot", kind=Bot.Kind.BUILTIN, strategy="greedy", status="active"
        )
        seat = SeatSpec(registered=bot)
    game = game_create(variant_spec=SHORT, seats=[SeatSpec(user=make_user()), seat], seed=4)
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING

    html = client_of(sam).get(f"/staff/games/{game.pk}/").content.decode()

    for action in RULINGS:
        assert f"/staff/games/{game.pk}/{action}/" not in html, action
    # Said first, before the game's facts and the actions.
    said = html[html.index('data-code="plays-in-game"') : html.index('id="facts"')]
    who = "You play" if seated == "person" else "Your bot samsbot plays"
    assert f"{who} in this game (seat 1, counted from 0 as below)" in said
    they = "you play" if seated == "person" else "your bot plays"
    assert f"Another member of the staff must act on it</strong>, as {they} in it" in said
    actions = html[html.index('id="actions"') : html.index('id="audit"')]
    assert "No ruling on this game is offered to you" in actions
    # Asking the nudge of the workers is no ruling: it stays.
    assert f"/staff/games/{game.pk}/redrive/" in actions
    # A ruling's own page says so before any form is filled, and offers none.
    for action in RULINGS:
        page = client_of(sam).get(f"/staff/games/{game.pk}/{action}/").content.decode()
        assert "another member of the staff must act on it" in page, action
        assert '<form method="post" class="staff-action"' not in page, action


def test_a_staff_member_who_does_not_play_is_offered_the_rulings():
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(user=make_user()), SeatSpec(bot="greedy")], seed=4
    )

    html = client_of(staff()).get(f"/staff/games/{game.pk}/").content.decode()

    for action in RULINGS:
        assert f"/staff/games/{game.pk}/{action}/" in html, action
    assert "plays-in-game" not in html
