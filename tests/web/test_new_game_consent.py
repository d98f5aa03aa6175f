"""A new game (/play/new/) that names another person asks them first (tables/invitations.py):
nobody is seated, told "your turn", emailed a turn or placed last in a game they did not agree
to. The person named sees the invitation under "Challenges for you" with Accept and Decline and
under their bell once; the game starts, its seats as the creator set them, when everyone named
accepted; a decline tells the creator."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from accounts.models import Profile
from games.commands import game_command
from games.game_settings import GameSettings
from games.lobby import game_detail
from games.models import Game, Seat, TurnNotice
from social.models import Notification
from tables.models import Table
from tests.web.test_new_game import form_data

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def person(name: str) -> User:
    user = User.objects.create_user(name, email=f"{name.lower()}@example.com")
    Profile.objects.create(user=user, birth_date=datetime.date(1990, 1, 1))
    return user


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def invite(creator: User, *names: str, **changes: str):
    """The creator's new game on /play/new/: them in seat 1, `names` next, nobody else."""
    seats = {f"seat{n}": "" for n in range(1, 4)}
    for number, name in enumerate(names, start=1):
        seats |= {f"seat{number}": "person", f"seat{number}_user": name}
    return client_of(creator).post("/play/new/", form_data(**seats, **changes), follow=True)


def test_naming_a_person_seats_nobody_and_asks_them(django_capture_on_commit_callbacks):
    ada, mira = person("ada"), person("Mira_K")
    with django_capture_on_commit_callbacks(execute=True):
        answer = invite(ada, "Mira_K")

    # Nothing started: no game, no seat, no turn notice or email for Mira.
    assert not Game.objects.exists() and not Seat.objects.filter(user=mira).exists()
    assert not TurnNotice.objects.exists()
    assert [m for m in mail.outbox if "turn" in m.subject.lower()] == []
    table = Table.objects.get(opener=ada)
    assert answer.redirect_chain[-1][0] == f"/tables/{table.pk}/"
    page = answer.content.decode()
    assert "Mira_K is asked; the game starts when they accept" in page
    assert "Waiting for Mira_K to accept: the game starts when they do." in page
    assert "Invitation" in page and "Cancel the invitation" in page

    # Mira's bell says it once; her lobby asks her, with Accept and Decline, and lists no game.
    notices = Notification.objects.filter(user=mira)
    assert [(n.kind, n.text) for n in notices] == [
        ("challenge", "ada invites you to a casual Official game for 2")
    ]
    lobby = client_of(mira).get("/play/").content.decode()
    assert "Challenges for you" in lobby and "ada</strong> invites you to a game" in lobby
    assert f'action="/tables/{table.pk}/join"' in lobby
    assert f'action="/tables/{table.pk}/decline"' in lobby
    assert "invited by" not in lobby and "Resign" not in lobby
    shown = client_of(mira).get(f"/tables/{table.pk}/").content.decode()
    assert "ada invites you to this game" in shown and "in this order: ada, Mira_K" in shown
    # Nobody else sees it.
    assert client_of(person("cy")).get(f"/tables/{table.pk}/").status_code == 404


def test_after_accept_the_game_starts_as_set_and_both_play():
    ada, mira = person("ada"), person("Mira_K")
    invite(ada, "Mira_K", turn_seconds="3600")
    table = Table.objects.get(opener=ada)

    accepted = client_of(mira).post(f"/tables/{table.pk}/join", follow=True)

    game = Game.objects.get()
    assert accepted.redirect_chain[-1][0] == f"/games/{game.pk}/"
    assert [s.user for s in game.seats.order_by("number")] == [ada, mira]
    assert GameSettings.of(game.context).turn_seconds == 3600
    assert Notification.objects.filter(
        user=ada, kind="table-started", text__startswith="Everyone accepted"
    ).exists()
    # Her question is answered: its notice is read.
    assert not Notification.objects.filter(user=mira, kind="challenge", read_at=None).exists()
    moved = set()
    while moved != {ada.pk, mira.pk}:
        game.refresh_from_db()
        mover = ada if game.seats.get(number=game.to_act[0]).user == ada else mira
        detail = game_detail(game_id=game.pk, viewer=mover)
        game_command(
            game_id=game.pk,
            actor=mover,
            command=detail["legal"][0],
            expected_version=detail["version"],
        )
        moved.add(mover.pk)


def test_a_decline_tells_the_creator_and_nothing_starts():
    ada, mira = person("ada"), person("Mira_K")
    invite(ada, "Mira_K")
    table = Table.objects.get(opener=ada)

    declined = client_of(mira).post(f"/tables/{table.pk}/decline", follow=True)

    assert "You declined the invitation." in declined.content.decode()
    assert "The invitation was declined: the game will not start." in declined.content.decode()
    assert not Game.objects.exists()
    told = Notification.objects.get(user=ada, kind="challenge")
    assert told.text == "Mira_K declined your invitation (Official game for 2): it will not start"
    assert told.url == f"/tables/{table.pk}/"
    assert "Challenges for you" not in client_of(mira).get("/play/").content.decode()


def test_with_two_people_named_the_game_waits_for_both():
    ada, bob, cy = person("ada"), person("bob"), person("cy")
    answer = invite(ada, "bob", "cy")
    assert "bob and cy are asked; the game starts when everyone accepts" in (
        answer.content.decode()
    )
    table = Table.objects.get(opener=ada)

    client_of(bob).post(f"/tables/{table.pk}/join")
    assert not Game.objects.exists()
    waiting = client_of(bob).get(f"/tables/{table.pk}/").content.decode()
    assert "Waiting for cy to accept" in waiting and "Decline" in waiting
    client_of(cy).post(f"/tables/{table.pk}/join")

    game = Game.objects.get()
    assert [s.user for s in game.seats.order_by("number")] == [ada, bob, cy]
    assert Notification.objects.filter(user=bob, kind="table-started", game_id=game.pk).exists()


def test_only_a_person_named_may_accept():
    ada, _ = person("ada"), person("Mira_K")
    invite(ada, "Mira_K")
    table = Table.objects.get(opener=ada)
    stranger = client_of(person("cy"))
    refused = stranger.post(f"/tables/{table.pk}/join", follow=True)
    assert "This invitation is addressed to others." in refused.content.decode()
    assert not Game.objects.exists()


def test_a_game_of_me_and_bots_still_starts_at_once():
    ada = person("ada")
    answer = client_of(ada).post("/play/new/", form_data())
    game = Game.objects.get()
    assert answer["Location"] == f"/games/{game.pk}/" and not Table.objects.exists()


def test_the_lobby_counts_an_invitations_people_not_its_bots():
    """The bug: two people and two bots, the creator's lobby said "1 of 4 seated", as if two more
    seats waited for someone; the bots wait for nobody."""
    ada, _ = person("ada"), person("Mira_K")
    seats = {
        "seat1": "person",
        "seat1_user": "Mira_K",
        "seat2": "bot:greedy",
        "seat3": "bot:greedy",
    }
    client_of(ada).post("/play/new/", form_data(**seats), follow=True)
    table = Table.objects.get(opener=ada)
    lobby = client_of(ada).get("/play/").content.decode()
    line = lobby.split(f'data-table="{table.pk}"', 1)[1].split("</li>", 1)[0]
    assert "1 of 2 people accepted" in line and "of 4 seated" not in line
