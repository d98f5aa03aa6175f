"""Open tables and challenges through the API (tables/services.py, api/tables.py): open one, list
and read them, join (the last seat starts the game), leave, cancel, decline a challenge; every
refusal with its stable code; the race for the last seat on real PostgreSQL."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Profile
from games.game_settings import GameSettings
from games.models import Game, Presence
from social.models import Notification
from tables.models import Table
from tests.games.conftest import needs_postgresql, run_in_threads
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

OFFICIAL = {"rules": "official"}


def signed_in(user: User) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def open_table(user: User, **fields) -> dict:
    body = {"variant": OFFICIAL, "seats": 2, **fields}
    answer = signed_in(user).post("/api/tables", body, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def refused(answer, status: int, code: str) -> None:
    assert answer.status_code == status, answer.content
    assert answer.json()["code"] == code, answer.json()


def join(user: User, table_id: int):
    return signed_in(user).post(f"/api/tables/{table_id}/join")


# Opening -----------------------------------------------------------------------------------


def test_opening_a_table_answers_201_with_its_id_and_the_opener_seated():
    ana = make_user("ana")
    body = open_table(
        ana,
        variant={"rules": "official", "options": {"target": 200}},
        seats=3,
        turn_seconds=3600,
        rated=True,
        fill_with_bots_after=10,
    )
    assert body["status"] == "open"
    assert body["opener"] == "ana" and body["seated"] == ["ana"]
    assert body["family"] == "official" and body["seats"] == 3
    # The engine's normalised spec: every option spelled out.
    assert body["variant"]["options"]["target"] == 200
    assert body["variant"]["options"]["hand_size"] == 7
    assert body["turn_seconds"] == 3600 and body["rated"] is True
    assert body["fill_with_bots_after"] == 10
    assert body["challenged"] is None and body["game"] is None
    table = Table.objects.get(pk=body["id"])
    assert table.expires_at - table.created_at == datetime.timedelta(minutes=30)
    assert table.fills_at - table.created_at == datetime.timedelta(minutes=10)
    assert signed_in(ana).get(f"/api/tables/{body['id']}").json() == body


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"variant": {"rules": "chess"}}, "invalid-variant"),
        ({"variant": {"rules": "official", "options": {"target": -5}}}, "invalid-variant"),
        ({"seats": 11}, "invalid-seats"),
        ({"seats": 1}, "invalid-seats"),
        # Censorship seats 3 to 10.
        ({"variant": {"rules": "censorship"}, "seats": 2}, "invalid-seats"),
        # Eight hands of 15 cards do not fit the deck.
        ({"variant": {"rules": "official", "options": {"hand_size": 15}}, "seats": 8},
         "invalid-seats"),
        ({"turn_seconds": 61}, "invalid-turn-seconds"),
        ({"fill_with_bots_after": 0}, "invalid-fill"),
        ({"fill_with_bots_after": 31}, "invalid-fill"),
        ({"challenge": "nobody-here"}, "unknown-user"),
        ({"challenge": "ana"}, "challenge-self"),
        ({"variant": {"rules": "newno"}}, "birth-date-missing"),
    ],
)  # fmt: skip
def test_bad_options_are_refused_with_a_code_and_open_nothing(fields, code):
    ana = make_user("ana")
    body = {"variant": OFFICIAL, "seats": 2, **fields}
    refused(signed_in(ana).post("/api/tables", body, format="json"), 400, code)
    assert not Table.objects.exists()


def test_a_challenge_takes_no_bot_fill_time():
    ana, _ = make_user("ana"), make_user("ben")
    body = {"variant": OFFICIAL, "seats": 2, "challenge": "ben", "fill_with_bots_after": 5}
    refused(signed_in(ana).post("/api/tables", body, format="json"), 400, "invalid-fill")


def test_a_body_without_seats_is_invalid():
    answer = signed_in(make_user()).post("/api/tables", {"variant": OFFICIAL}, format="json")
    refused(answer, 400, "invalid")
    assert "seats" in answer.json()["errors"]


def test_a_person_may_have_five_open_tables_at_once(settings):
    ana = make_user("ana")
    for _ in range(settings.TABLES_MAX_OPEN):
        open_table(ana)
    answer = signed_in(ana).post("/api/tables", {"variant": OFFICIAL, "seats": 2}, format="json")
    refused(answer, 409, "too-many-tables")
    # A cancelled one frees a place.
    first = Table.objects.filter(opener=ana).order_by("pk").first()
    assert signed_in(ana).post(f"/api/tables/{first.pk}/cancel").status_code == 200
    open_table(ana)


def test_signed_out_nobody_opens_or_lists_tables():
    assert APIClient().get("/api/tables").status_code == 403
    answer = APIClient().post("/api/tables", {"variant": OFFICIAL, "seats": 2}, format="json")
    assert answer.status_code == 403


# Listing and reading ------------------------------------------------------------------------


def test_the_list_shows_open_tables_filtered_by_family_and_turn_length():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    quick = open_table(ana, turn_seconds=60)
    daily = open_table(ben, variant={"rules": "basic-plus"}, turn_seconds=86400)
    challenge = open_table(ana, challenge="ben")
    ids = lambda answer: [table["id"] for table in answer.json()]  # noqa: E731
    viewer = signed_in(cy)
    assert ids(viewer.get("/api/tables")) == [quick["id"], daily["id"]]
    assert ids(viewer.get("/api/tables?family=basic-plus")) == [daily["id"]]
    assert ids(viewer.get("/api/tables?turn_seconds=60")) == [quick["id"]]
    assert ids(viewer.get("/api/tables?family=official&turn_seconds=86400")) == []
    # A challenge is listed for its two people only.
    assert challenge["id"] in ids(signed_in(ben).get("/api/tables"))
    assert challenge["id"] in ids(signed_in(ana).get("/api/tables"))


@pytest.mark.parametrize("query", ["family=chess", "turn_seconds=61", "turn_seconds=abc"])
def test_a_bad_filter_is_400_invalid(query):
    refused(signed_in(make_user()).get(f"/api/tables?{query}"), 400, "invalid")


def test_expired_started_and_cancelled_tables_leave_the_list():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    lapsed = open_table(ana)
    Table.objects.filter(pk=lapsed["id"]).update(expires_at=timezone.now())
    full = open_table(ana)
    join(ben, full["id"])
    cancelled = open_table(ana)
    signed_in(ana).post(f"/api/tables/{cancelled['id']}/cancel")
    assert signed_in(cy).get("/api/tables").json() == []


def test_an_unknown_table_is_404_and_someone_elses_challenge_403():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    refused(signed_in(ana).get("/api/tables/999999"), 404, "table-not-found")
    refused(join(ana, 999999), 404, "table-not-found")
    challenge = open_table(ana, challenge="ben")
    refused(signed_in(cy).get(f"/api/tables/{challenge['id']}"), 403, "not-challenged")
    assert signed_in(ben).get(f"/api/tables/{challenge['id']}").json()["challenged"] == "ben"


# Joining --------------------------------------------------------------------------------------


def test_the_last_seat_starts_the_game_and_everyone_seated_is_told():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = open_table(ana, seats=3, turn_seconds=3600, rated=True)
    first = join(ben, table["id"])
    assert first.status_code == 200
    assert first.json()["status"] == "open" and first.json()["seated"] == ["ana", "ben"]
    last = join(cy, table["id"]).json()
    assert last["status"] == "started" and last["seated"] == ["ana", "ben", "cy"]
    game = Game.objects.get(pk=last["game"])
    assert sorted(seat.user.username for seat in game.seats.all()) == ["ana", "ben", "cy"]
    assert game.variant == table["variant"]
    found = GameSettings.of(game.context)
    assert (found.turn_seconds, found.rated, found.table) == (3600, True, table["id"])
    assert game.status == Game.Status.PLAYING
    for user in (ana, ben):
        notice = Notification.objects.get(user=user, kind="table-started")
        assert notice.url == f"/games/{game.pk}/"
        assert notice.key == f"table-started:{table['id']}"
    # cy's own join started it: the answer says so, the bell needs not.
    assert not Notification.objects.filter(user=cy, kind="table-started").exists()
    # cy, whose join started it, is at the game now: a first turn of theirs is no email.
    assert Presence.objects.filter(user=cy, game=game, seen_at__isnull=False).exists()
    assert not Presence.objects.filter(user=ana, game=game, seen_at__isnull=False).exists()
    # Anyone reads where it went.
    assert signed_in(ana).get(f"/api/tables/{table['id']}").json()["game"] == game.pk


def test_the_opener_cannot_join_their_own_table():
    ana = make_user("ana")
    table = open_table(ana)
    refused(join(ana, table["id"]), 409, "own-table")


def test_a_seated_person_cannot_join_again():
    ana, ben = make_user("ana"), make_user("ben")
    table = open_table(ana, seats=3)
    join(ben, table["id"])
    refused(join(ben, table["id"]), 409, "already-seated")


def test_a_table_that_filled_is_full_for_a_latecomer():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = open_table(ana)
    join(ben, table["id"])
    refused(join(cy, table["id"]), 409, "table-full")


def test_a_cancelled_or_expired_table_is_not_open():
    ana, ben = make_user("ana"), make_user("ben")
    cancelled = open_table(ana)
    signed_in(ana).post(f"/api/tables/{cancelled['id']}/cancel")
    refused(join(ben, cancelled["id"]), 409, "table-not-open")
    # Past its time before the sweep came by: the join expires it and is refused.
    lapsed = open_table(ana)
    Table.objects.filter(pk=lapsed["id"]).update(expires_at=timezone.now())
    refused(join(ben, lapsed["id"]), 409, "table-not-open")
    assert signed_in(ben).get(f"/api/tables/{lapsed['id']}").json()["status"] == "expired"


def test_newno_asks_every_person_for_a_birth_date():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    Profile.objects.create(user=ana, birth_date=datetime.date(1990, 1, 2))
    Profile.objects.create(user=cy, birth_date=datetime.date(2001, 3, 4))
    table = open_table(ana, variant={"rules": "newno"})
    refused(join(ben, table["id"]), 400, "birth-date-missing")
    assert join(cy, table["id"]).json()["status"] == "started"


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_people_racing_for_the_last_seat_one_gets_it_the_other_409_table_full():
    ana = make_user("ana")
    racers = [make_user("ben"), make_user("cy")]
    table = open_table(ana)
    clients = [signed_in(user) for user in racers]
    barrier = threading.Barrier(2)

    def race(i: int) -> tuple[int, str]:
        barrier.wait(timeout=30)
        answer = clients[i].post(f"/api/tables/{table['id']}/join")
        return answer.status_code, answer.json().get("code", "") or answer.json()["status"]

    outcomes = sorted(run_in_threads(2, race))
    assert outcomes == [(200, "started"), (409, "table-full")]
    game = Game.objects.get(pk=Table.objects.get(pk=table["id"]).game_id)
    assert game.seats.filter(user__isnull=False).count() == 2


# Leaving and cancelling -------------------------------------------------------------------------


def test_leaving_frees_the_seat_and_the_opener_leaving_cancels():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    table = open_table(ana, seats=3)
    join(ben, table["id"])
    left = signed_in(ben).post(f"/api/tables/{table['id']}/leave")
    assert left.status_code == 200 and left.json()["seated"] == ["ana"]
    refused(signed_in(ben).post(f"/api/tables/{table['id']}/leave"), 409, "not-seated")
    refused(signed_in(cy).post(f"/api/tables/{table['id']}/leave"), 409, "not-seated")
    assert signed_in(ana).post(f"/api/tables/{table['id']}/leave").json()["status"] == "cancelled"
    refused(signed_in(ana).post(f"/api/tables/{table['id']}/leave"), 409, "table-not-open")


def test_only_the_opener_cancels_and_only_an_open_table():
    ana, ben = make_user("ana"), make_user("ben")
    table = open_table(ana, seats=3)
    join(ben, table["id"])
    refused(signed_in(ben).post(f"/api/tables/{table['id']}/cancel"), 403, "not-opener")
    cancelled = signed_in(ana).post(f"/api/tables/{table['id']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    refused(signed_in(ana).post(f"/api/tables/{table['id']}/cancel"), 409, "table-not-open")


# Challenges --------------------------------------------------------------------------------------


def test_a_challenge_is_private_notified_and_starts_when_accepted_with_bots_in_the_rest():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    challenge = open_table(ana, challenge="ben", seats=3, rated=True)
    assert challenge["challenged"] == "ben"
    table = Table.objects.get(pk=challenge["id"])
    assert table.expires_at - table.created_at == datetime.timedelta(hours=24)
    notice = Notification.objects.get(user=ben, kind="challenge")
    assert "ana challenges you" in notice.text and notice.url == f"/tables/{challenge['id']}/"
    refused(join(cy, challenge["id"]), 403, "not-challenged")
    refused(signed_in(cy).post(f"/api/tables/{challenge['id']}/decline"), 403, "not-challenged")
    refused(signed_in(ana).post(f"/api/tables/{challenge['id']}/decline"), 403, "not-challenged")
    accepted = join(ben, challenge["id"]).json()
    assert accepted["status"] == "started"
    game = Game.objects.get(pk=accepted["game"])
    seats = list(game.seats.all())
    assert sorted(seat.user.username for seat in seats if seat.user) == ["ana", "ben"]
    assert [seat.bot for seat in seats if not seat.user][0] in ("greedy", "colour-control")
    assert GameSettings.of(game.context).rated is True


def test_a_declined_challenge_tells_the_challenger_and_cannot_be_accepted():
    ana, ben = make_user("ana"), make_user("ben")
    challenge = open_table(ana, challenge="ben")
    declined = signed_in(ben).post(f"/api/tables/{challenge['id']}/decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    notice = Notification.objects.get(user=ana, kind="challenge")
    assert notice.text == "ben declined your challenge"
    refused(join(ben, challenge["id"]), 409, "table-not-open")
    refused(signed_in(ben).post(f"/api/tables/{challenge['id']}/decline"), 409, "table-not-open")


def test_table_changes_are_rate_limited(settings):
    settings.API_TABLES_RATE = "3/min"
    ana, ben = make_user("ana"), make_user("ben")
    table = open_table(ana, seats=4)
    client = signed_in(ben)
    client.post(f"/api/tables/{table['id']}/join")
    client.post(f"/api/tables/{table['id']}/leave")
    client.post(f"/api/tables/{table['id']}/join")
    refused(client.post(f"/api/tables/{table['id']}/leave"), 429, "throttled")
    # Nothing changed: ben still sits there. Reading is free.
    assert client.get(f"/api/tables/{table['id']}").json()["seated"] == ["ana", "ben"]


def test_a_public_table_tells_the_openers_followers_once_and_a_challenge_tells_nobody_else():
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    assert signed_in(bo).post("/api/players/ana/follow").status_code == 201
    table = open_table(ana)
    notices = Notification.objects.filter(user=bo, kind="follow")
    assert [notice.text for notice in notices] == [
        "ana, whom you follow, opened a casual Official table for 2"
    ]
    assert notices.get().url == f"/tables/{table['id']}/"
    assert not Notification.objects.filter(user=cy).exists()
    open_table(ana, challenge="cy")
    assert notices.count() == 1
    # The family in its own words, the modifier too.
    precognitive = {"rules": "basic-plus", "precognitive": {"lane": 1}}
    open_table(ana, variant=precognitive, rated=True)
    assert notices.order_by("-pk").first().text == (
        "ana, whom you follow, opened a rated Basic-plus + precognitive table for 2"
    )


def test_a_person_blocked_by_someone_seated_cannot_join_or_challenge_them():
    ana, ben, cy = make_user("ana"), make_user("ben"), make_user("cy")
    assert signed_in(ana).post("/api/people/ben/mute").status_code in (200, 201)
    table = open_table(ana, seats=3)
    refused(join(ben, table["id"]), 403, "blocked")
    assert Table.objects.get(pk=table["id"]).seats.count() == 1
    assert join(cy, table["id"]).status_code == 200
    answer = signed_in(ben).post(
        "/api/tables", {"variant": OFFICIAL, "seats": 2, "challenge": "ana"}, format="json"
    )
    refused(answer, 403, "blocked")
    assert not Table.objects.filter(opener=ben).exists()
    # ana may still challenge ben: the block is hers to keep.
    assert open_table(ana, challenge="ben")["challenged"] == "ben"
