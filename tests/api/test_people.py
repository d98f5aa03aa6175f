"""The people's API (api/people.py): resigning, vacation days, turn notice preferences; session
auth only, errors as JSON with a code and a message. Also: the OpenAPI schema still builds."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from rest_framework.test import APIClient

from clocks import deadlines
from games import seat_facts
from games.game_settings import GameSettings
from games.models import Game, NotificationPreference, Presence, Seat
from tests.games.factories import make_game, make_user, play_to_end

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def seat_row(game: Game, number: int) -> dict:
    return Seat.objects.filter(game=game, number=number).values().get()


def when(text: str) -> datetime:
    return datetime.fromisoformat(text)


ANONYMOUS = {
    "code": "not_authenticated",
    "message": "Authentication credentials were not provided: this endpoint takes a signed-in "
    "session or `Authorization: Token <key>`.",
}


# Resigning.


def test_a_player_resigns_their_seat():
    game = make_game(players=2)
    player = game.seats.get(number=1).user

    response = signed_in(player).post(f"/api/games/{game.pk}/resign")

    assert response.status_code == 200
    assert response.json() == {"game": game.pk, "seats": [1]}
    seat = seat_row(game, 1)
    assert seat["controller"] == Seat.Controller.FALLBACK
    assert seat_facts.facts_of(game.pk).forfeited == {1: "resigned"}
    assert seat_row(game, 0)["controller"] == Seat.Controller.PERSON
    # One seat is left playing: the match is over, and seat 0 won it.
    over = Game.objects.get(pk=game.pk)
    assert over.status == Game.Status.MATCH_OVER
    won = signed_in(game.seats.get(number=0).user).get(f"/api/games/{game.pk}")
    assert (won.json()["status"], won.json()["result"]["winner"]) == ("match-over", 0)

    again = signed_in(player).post(f"/api/games/{game.pk}/resign")
    assert (again.status_code, again.json()["code"]) == (400, "match-over")
    assert seat_row(game, 1) == seat
    assert Game.objects.get(pk=game.pk).version == over.version


def test_resigning_again_while_others_play_on_changes_nothing():
    game = make_game(players=3)
    player = game.seats.get(number=1).user
    assert signed_in(player).post(f"/api/games/{game.pk}/resign").status_code == 200
    version = Game.objects.get(pk=game.pk).version

    again = signed_in(player).post(f"/api/games/{game.pk}/resign")
    assert (again.status_code, again.json()) == (200, {"game": game.pk, "seats": [1]})
    assert Game.objects.get(pk=game.pk).version == version
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_someone_without_a_seat_cannot_resign_and_changes_nothing():
    game = make_game(players=2)
    before = [seat_row(game, n) for n in (0, 1)]
    version = Game.objects.get(pk=game.pk).version

    response = signed_in(make_user()).post(f"/api/games/{game.pk}/resign")
    assert Game.objects.get(pk=game.pk).version == version

    assert response.status_code == 403
    assert response.json() == {
        "code": "not-seated",
        "message": f"you hold no seat in game {game.pk}",
    }
    assert [seat_row(game, n) for n in (0, 1)] == before


def test_resigning_an_unknown_or_finished_game_is_refused():
    finished = make_game(players=1, bots=["greedy"])
    play_to_end(finished.pk)
    player = finished.seats.get(number=0).user
    client = signed_in(player)

    over = client.post(f"/api/games/{finished.pk}/resign")
    missing = client.post("/api/games/999999/resign")

    assert (over.status_code, over.json()["code"]) == (400, "match-over")
    assert seat_facts.facts_of(finished.pk).forfeited == {}
    assert missing.status_code == 404
    assert missing.json() == {"code": "game-not-found", "message": "there is no game 999999"}


# Vacation.


@pytest.fixture
def clocked_game() -> Game:
    """Two people, five vacation days each, seat 0's clock running."""
    game = make_game(players=2, settings=GameSettings(vacation_days=5, turn_seconds=3600))
    deadlines.sync_deadlines(game.pk)
    return game


def test_vacation_moves_the_running_deadline_and_counts_the_days(clocked_game):
    game = clocked_game
    deadline = Seat.objects.get(game=game, number=game.to_act[0]).deadline_at
    assert deadline is not None
    player = game.seats.get(number=game.to_act[0]).user

    response = signed_in(player).post(f"/api/games/{game.pk}/vacation", {"days": 2}, format="json")

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["game"], body["seat"]) == (game.pk, game.to_act[0])
    assert (body["days_used"], body["days_left"]) == (2, 3)
    assert when(body["deadline_at"]) == deadline + timedelta(days=2)
    seat = Seat.objects.get(game=game, number=game.to_act[0])
    assert seat.deadline_at == deadline + timedelta(days=2)
    assert seat.vacation_until == when(body["vacation_until"])
    assert seat_facts.facts_of(game.pk).vacation_days[game.to_act[0]] == 2


def test_vacation_for_a_seat_not_to_act_has_no_deadline_to_move(clocked_game):
    game = clocked_game
    waiting = 1 - game.to_act[0]
    player = game.seats.get(number=waiting).user

    response = signed_in(player).post(f"/api/games/{game.pk}/vacation", {"days": 5}, format="json")

    assert response.status_code == 200
    body = response.json()
    assert (body["seat"], body["deadline_at"], body["days_left"]) == (waiting, None, 0)
    assert body["vacation_until"] is not None


@pytest.mark.parametrize(
    ("days", "status", "code"),
    [
        (6, 400, "vacation-exhausted"),
        (0, 400, "invalid-days"),
        (-1, 400, "invalid-days"),
        ("two", 400, "invalid"),
        (1.5, 400, "invalid"),
        (None, 400, "invalid"),
    ],
)
def test_bad_vacation_requests_get_a_typed_error_and_change_nothing(
    clocked_game, days, status, code
):
    game = clocked_game
    player = game.seats.get(number=0).user
    before = seat_row(game, 0)

    response = signed_in(player).post(
        f"/api/games/{game.pk}/vacation", {"days": days}, format="json"
    )

    assert response.status_code == status
    assert response.json()["code"] == code
    assert response.json()["message"]
    assert seat_row(game, 0) == before


def test_the_vacation_budget_is_spent_across_requests(clocked_game):
    game = clocked_game
    client = signed_in(game.seats.get(number=0).user)
    url = f"/api/games/{game.pk}/vacation"

    assert client.post(url, {"days": 3}, format="json").json()["days_left"] == 2
    over = client.post(url, {"days": 3}, format="json")

    assert over.status_code == 400
    assert over.json()["code"] == "vacation-exhausted"
    assert seat_facts.facts_of(game.pk).vacation_days[0] == 3


def test_a_game_without_a_budget_gives_no_vacation():
    game = make_game(players=2)
    client = signed_in(game.seats.get(number=0).user)

    response = client.post(f"/api/games/{game.pk}/vacation", {"days": 1}, format="json")

    assert (response.status_code, response.json()["code"]) == (400, "vacation-exhausted")


def test_vacation_in_another_persons_game_is_refused(clocked_game):
    game = clocked_game
    before = [seat_row(game, n) for n in (0, 1)]

    response = signed_in(make_user()).post(
        f"/api/games/{game.pk}/vacation", {"days": 1}, format="json"
    )

    assert response.status_code == 403
    assert response.json()["code"] == "not-seated"
    assert [seat_row(game, n) for n in (0, 1)] == before


# Notification preferences.


def test_without_a_preference_turn_emails_come_each_turn():
    user = make_user()

    response = signed_in(user).get("/api/me/notifications")

    assert response.status_code == 200
    assert response.json() == {"turn_emails": "each"}
    assert not NotificationPreference.objects.exists()


@pytest.mark.parametrize("choice", ["digest", "none", "each"])
def test_a_person_chooses_how_turn_emails_come(choice):
    user = make_user()
    client = signed_in(user)

    put = client.put("/api/me/notifications", {"turn_emails": choice}, format="json")

    assert put.status_code == 200
    assert put.json() == {"turn_emails": choice}
    assert client.get("/api/me/notifications").json() == {"turn_emails": choice}
    assert NotificationPreference.objects.get(user=user).turn_emails == choice


def test_changing_the_preference_keeps_one_row_per_person():
    user, other = make_user(), make_user()
    NotificationPreference.objects.create(user=other, turn_emails="none")
    client = signed_in(user)

    client.put("/api/me/notifications", {"turn_emails": "digest"}, format="json")
    client.put("/api/me/notifications", {"turn_emails": "none"}, format="json")

    assert NotificationPreference.objects.get(user=user).turn_emails == "none"
    assert NotificationPreference.objects.get(user=other).turn_emails == "none"
    assert NotificationPreference.objects.count() == 2


@pytest.mark.parametrize("body", [{"turn_emails": "hourly"}, {}, {"turn_emails": None}])
def test_a_bad_preference_is_refused_and_changes_nothing(body):
    user = make_user()
    NotificationPreference.objects.create(user=user, turn_emails="digest")

    response = signed_in(user).put("/api/me/notifications", body, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "turn_emails" in response.json()["errors"]
    assert NotificationPreference.objects.get(user=user).turn_emails == "digest"


# Signing in.


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/games/{game}/resign", None),
        ("post", "/api/games/{game}/vacation", {"days": 1}),
        ("get", "/api/me/notifications", None),
        ("put", "/api/me/notifications", {"turn_emails": "none"}),
    ],
)
def test_anonymous_callers_are_refused(method, path, body):
    game = make_game(players=2, settings=GameSettings(vacation_days=5))
    before = [seat_row(game, n) for n in (0, 1)]

    response = getattr(APIClient(), method)(path.format(game=game.pk), body, format="json")

    assert response.status_code == 403
    assert response.json() == ANONYMOUS
    assert [seat_row(game, n) for n in (0, 1)] == before
    assert not NotificationPreference.objects.exists()


def test_a_session_post_without_the_csrf_token_is_refused():
    game = make_game(players=2)
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(game.seats.get(number=0).user)

    response = client.post(f"/api/games/{game.pk}/resign")

    assert response.status_code == 403
    assert response.json()["message"].startswith("CSRF Failed")
    assert seat_facts.facts_of(game.pk).forfeited == {}
    assert Game.objects.get(pk=game.pk).version == game.version


def test_the_schema_documents_these_endpoints(client):
    response = client.get("/api/schema/", {"format": "json"})

    assert response.status_code == 200
    paths = response.json()["paths"]
    assert set(paths["/api/me/bots"]) == {"get", "post"}
    assert set(paths["/api/me/bots/{bot_id}"]) == {"get", "patch", "delete"}
    assert set(paths["/api/me/notifications"]) == {"get", "put"}
    for path in (
        "/api/me/bots/{bot_id}/validate",
        "/api/me/bots/{bot_id}/token",
        "/api/games/{game_id}/resign",
        "/api/games/{game_id}/vacation",
    ):
        assert set(paths[path]) == {"post"}


def test_a_person_mutes_one_games_emails_and_reads_it_back():
    game = make_game()
    user = Seat.objects.get(game=game, number=0).user
    client = signed_in(user)
    url = f"/api/me/notifications/games/{game.pk}"

    assert client.get(url).json() == {"game": game.pk, "muted": False}
    assert client.put(url, {"muted": True}, format="json").json() == {
        "game": game.pk,
        "muted": True,
    }
    assert client.get(url).json() == {"game": game.pk, "muted": True}
    assert Presence.objects.get(user=user, game=game).muted is True
    assert client.put(url, {"muted": "loud"}, format="json").status_code == 400
    assert client.put(url, {"muted": False}, format="json").json()["muted"] is False


def test_muting_a_game_without_a_seat_is_404_and_writes_nothing():
    game = make_game()
    client = signed_in(make_user())
    url = f"/api/me/notifications/games/{game.pk}"
    assert client.get(url).status_code == 404
    assert client.put(url, {"muted": True}, format="json").status_code == 404
    assert not Presence.objects.exists()
