"""The people's game API (api/games.py): start, list, read, follow, command, replay; by session
or personal token; every error typed and changing nothing."""

from __future__ import annotations

import datetime
import re

import pytest
from rest_framework.test import APIClient

from accounts import services as accounts
from games.models import Bot, Game
from tests.games.factories import make_game, make_user, play_to_end

# Transactional: the workers (eager here) move the bots on commit, as in production.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]

OFFICIAL = {"rules": "official", "options": {"target": 100}}
THREE_BOTS = [{"bot": "greedy"}, {"bot": "random"}, {"bot": "colour-control"}]


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def with_token(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {accounts.token_issue(user=user)}")
    return client


def start(client: APIClient, seats=None, variant=OFFICIAL, **extra) -> dict:
    body = {"variant": variant, "seats": seats or [{"user": "me"}, *THREE_BOTS], **extra}
    response = client.post("/api/games", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def start_with_people(client: APIClient, seats, *people, variant=OFFICIAL) -> dict:
    """A game naming other people: an invitation (202) each of `people` accepts; the game's
    detail once it started (tables/invitations.py)."""
    answer = client.post("/api/games", {"variant": variant, "seats": seats}, format="json")
    assert answer.status_code == 202, answer.json()
    for each in people:
        joined = signed_in(each).post(f"/api/tables/{answer.json()['id']}/join").json()
    return client.get(f"/api/games/{joined['game']}").json()


def versions() -> list[int]:
    return list(Game.objects.order_by("pk").values_list("version", flat=True))


# Starting a game.


def test_a_person_starts_a_game_against_bots_and_sees_their_seat():
    ana = make_user("ana")

    detail = start(signed_in(ana), seed=3)

    assert detail["status"] == "playing"
    assert detail["my_seats"] == [0]
    assert detail["seats"] == [
        {"seat": 0, "name": "ana", "kind": "person"},
        {"seat": 1, "name": "greedy", "kind": "bot"},
        {"seat": 2, "name": "random", "kind": "bot"},
        {"seat": 3, "name": "colour-control", "kind": "bot"},
    ]
    assert detail["variant"]["rules"] == "official"
    assert len(detail["view"]["hand"]) == detail["view"]["hand_sizes"][0]
    assert detail["version"] == Game.objects.get(pk=detail["game"]).version
    assert all(command["seat"] == 0 for command in detail["legal"])


def test_seats_name_other_people_and_registered_bots():
    ana, ben = make_user("ana"), make_user("ben")
    bot = Bot.objects.create(
        owner=ben, name="bencher", kind=Bot.Kind.BUILTIN, strategy="greedy", status="active"
    )

    detail = start_with_people(
        signed_in(ana), [{"user": "ben"}, {"user": "me"}, {"bot_id": bot.pk}], ben
    )

    assert [seat["name"] for seat in detail["seats"]] == ["ben", "ana", "bencher"]
    assert detail["my_seats"] == [1]


@pytest.mark.parametrize(
    ("seats", "variant", "code"),
    [
        ([{"bot": "greedy"}, {"bot": "random"}], OFFICIAL, "creator-not-seated"),
        ([{"user": "me"}, {"user": "nobody"}], OFFICIAL, "unknown-user"),
        ([{"user": "me"}, {"bot": "no-such-strategy"}], OFFICIAL, "unknown-bot"),
        ([{"user": "me"}, {"bot_id": 999999}], OFFICIAL, "unknown-bot"),
        ([{"user": "me"}, {"bot": "greedy", "user": "me"}], OFFICIAL, "invalid-seat"),
        ([{"user": "me"}, {"bot": "greedy"}], {"rules": "chess"}, "invalid-variant"),
        ([{"user": "me"}, {"bot": "greedy"}], {"rules": "newno"}, "birth-date-missing"),
    ],
)
def test_a_game_that_cannot_start_is_refused_with_a_code_and_nothing_is_made(seats, variant, code):
    client = signed_in(make_user("ana"))

    response = client.post("/api/games", {"variant": variant, "seats": seats}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == code
    assert Game.objects.count() == 0


@pytest.mark.parametrize("given", [12, "12"])
def test_a_registered_bots_id_given_as_bot_says_to_use_bot_id(given):
    """Ladders and tournaments name a registered bot `{"bot": 12}`; a seat takes `{"bot_id":
    12}`. A seat's `bot` that is a number is refused (`bot` is a built-in's name, never guessed
    to be an id) with the code as before, and a message that says what to send."""
    ana = make_user("ana")
    bot = Bot.objects.create(
        owner=ana, name="mine", kind=Bot.Kind.BUILTIN, strategy="greedy", status="active"
    )
    given = bot.pk if given == 12 else str(bot.pk)

    response = signed_in(ana).post(
        "/api/games",
        {"variant": OFFICIAL, "seats": [{"user": "me"}, {"bot": given}]},
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["code"] == "unknown-bot"
    message = response.json()["message"]
    assert message.startswith(f"seat 1: unknown bot '{bot.pk}'; known: random, greedy")
    assert f'For a registered bot, use {{"bot_id": {bot.pk}}}' in message
    assert Game.objects.count() == 0
    # Another unknown name gets the known ones and where a registered bot goes.
    response = signed_in(ana).post(
        "/api/games",
        {"variant": OFFICIAL, "seats": [{"user": "me"}, {"bot": "Mine"}]},
        format="json",
    )
    assert response.json()["code"] == "unknown-bot"
    hint = '(a registered bot is seated with {"bot_id": <its id>})'
    assert response.json()["message"].endswith(hint)


def test_an_inactive_bot_cannot_be_seated():
    ana = make_user("ana")
    bot = Bot.objects.create(owner=ana, name="new", kind=Bot.Kind.BUILTIN, strategy="greedy")

    response = signed_in(ana).post(
        "/api/games",
        {"variant": OFFICIAL, "seats": [{"user": "me"}, {"bot_id": bot.pk}]},
        format="json",
    )

    assert (response.status_code, response.json()["code"]) == (400, "bot-not-active")


def test_a_turn_length_outside_its_bounds_is_refused():
    response = signed_in(make_user("ana")).post(
        "/api/games",
        {"variant": OFFICIAL, "seats": [{"user": "me"}, {"bot": "greedy"}], "turn_seconds": 5},
        format="json",
    )

    assert (response.status_code, response.json()["code"]) == (400, "invalid-turn-seconds")


def test_newno_seats_get_ages_from_birth_dates_and_bot_registration():
    ana = make_user("ana")
    accounts.profile_of(ana)
    ana.profile.birth_date = datetime.date(2000, 1, 1)
    ana.profile.save()

    detail = start(
        signed_in(ana), seats=[{"user": "me"}, {"bot": "greedy"}], variant={"rules": "newno"}
    )

    ages = list(
        Game.objects.get(pk=detail["game"]).seats.order_by("number").values_list("age", flat=True)
    )
    # Ranks, not days: the log every seat reads keeps no birth date.
    assert ages == [1, 0]  # a person born in 2000 is older than a built-in bot


# Listing my games.


def test_my_games_are_listed_newest_activity_first_with_whose_turn_it_is():
    ana, ben = make_user("ana"), make_user("ben")
    first = start(signed_in(ana), seed=1)
    second = start_with_people(signed_in(ben), [{"user": "me"}, {"user": "ana"}], ana)
    start(signed_in(ben), seats=[{"user": "me"}, {"bot": "greedy"}])  # not ana's

    rows = signed_in(ana).get("/api/games").json()

    assert [row["id"] for row in rows] == [second["game"], first["game"]]
    row = rows[0]
    assert set(row) == {
        "id",
        "variant",
        "status",
        "version",
        "my_seats",
        "my_turn",
        "deadline",
        "seats",
    }
    assert row["my_seats"] == [1]
    game = Game.objects.get(pk=second["game"])
    assert row["my_turn"] == (1 in game.to_act)


def test_my_games_filter_by_status_and_turn():
    ana = make_user("ana")
    playing = start(signed_in(ana), seed=1)
    finished = start(signed_in(ana), seed=2)
    play_to_end(finished["game"])
    client = signed_in(ana)

    assert [r["id"] for r in client.get("/api/games?status=playing").json()] == [playing["game"]]
    assert [r["id"] for r in client.get("/api/games?status=finished").json()] == [finished["game"]]
    mine = client.get("/api/games?my_turn=1").json()
    assert all(row["my_turn"] for row in mine)
    assert [r["id"] for r in mine] == [playing["game"]]  # a bot-only table waits for ana
    bad = client.get("/api/games?status=paused")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid")


# Reading a game.


def test_a_spectator_sees_no_hand_and_has_no_legal_command():
    detail = start(signed_in(make_user("ana")), seed=5)

    for client in (APIClient(), signed_in(make_user("eve"))):
        seen = client.get(f"/api/games/{detail['game']}").json()
        assert seen["my_seats"] == []
        assert seen["legal"] == []
        assert "hand" not in seen["view"]
        assert seen["view"]["seat"] is None


def test_an_unknown_game_is_404():
    response = signed_in(make_user("ana")).get("/api/games/424242")

    assert (response.status_code, response.json()["code"]) == (404, "game-not-found")


# Playing by commands.


def play_first_legal(client: APIClient, game_id: int, **extra) -> dict:
    detail = client.get(f"/api/games/{game_id}").json()
    body = {"command": detail["legal"][0], "expected_version": detail["version"], **extra}
    response = client.post(f"/api/games/{game_id}/commands", body, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def test_a_command_moves_the_game_and_bots_answer():
    ana = make_user("ana")
    client = signed_in(ana)
    detail = start(client, seed=8)

    answer = play_first_legal(client, detail["game"])
    assert answer["events"][0]["event"]["type"] == "card-played"  # ana's turn is over

    assert answer["game"] == detail["game"]
    assert answer["repeated"] is False
    assert answer["version"] > detail["version"]
    assert answer["events"][0]["version"] == detail["version"] + 1
    # The bots moved after the command (eager workers): the game waits for ana again.
    assert Game.objects.get(pk=detail["game"]).to_act == [0]


def test_a_repeated_command_id_returns_the_first_answer_by_body_or_header():
    ana = make_user("ana")
    client = with_token(ana)
    game_id = start(client, seed=8)["game"]
    detail = client.get(f"/api/games/{game_id}").json()
    body = {"command": detail["legal"][0], "expected_version": detail["version"]}

    first = client.post(
        f"/api/games/{game_id}/commands", body, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )
    version = Game.objects.get(pk=game_id).version
    again = client.post(
        f"/api/games/{game_id}/commands", body, format="json", HTTP_IDEMPOTENCY_KEY="k1"
    )

    assert again.status_code == 200
    assert again.json() == {**first.json(), "repeated": True}
    assert Game.objects.get(pk=game_id).version == version


def test_a_stale_version_is_a_conflict_with_the_current_version():
    ana = make_user("ana")
    client = signed_in(ana)
    game_id = start(client, seed=8)["game"]
    detail = client.get(f"/api/games/{game_id}").json()
    stale = detail["version"] - 1

    response = client.post(
        f"/api/games/{game_id}/commands",
        {"command": detail["legal"][0], "expected_version": stale},
        format="json",
    )

    assert response.status_code == 409
    assert response.json()["code"] == "version-conflict"
    assert response.json()["current_version"] == detail["version"]


def test_a_command_on_a_finished_game_says_it_is_over_whatever_its_version():
    ana = make_user("ana")
    client = signed_in(ana)
    game_id = start(client, seed=8)["game"]
    detail = client.get(f"/api/games/{game_id}").json()
    play_to_end(game_id)
    over = Game.objects.get(pk=game_id).version

    for expected in (detail["version"], over):
        response = client.post(
            f"/api/games/{game_id}/commands",
            {"command": {"type": "draw", "seat": 0}, "expected_version": expected},
            format="json",
        )
        assert (response.status_code, response.json()["code"]) == (422, "game-over"), expected
        assert "over" in response.json()["message"]
    # The older version's answer names the game and its last version.
    stale = client.post(
        f"/api/games/{game_id}/commands",
        {"command": detail["legal"][0], "expected_version": detail["version"]},
        format="json",
    ).json()
    assert stale == {
        "code": "game-over",
        "message": f"game {game_id} is over (at version {over}): the match has ended and takes "
        "no more commands",
        "current_version": over,
    }
    assert Game.objects.get(pk=game_id).version == over


def test_an_illegal_command_is_422_with_the_engines_reason_and_changes_nothing():
    ana = make_user("ana")
    client = signed_in(ana)
    game_id = start(client, seed=8)["game"]
    detail = client.get(f"/api/games/{game_id}").json()
    before = versions()

    response = client.post(
        f"/api/games/{game_id}/commands",
        {
            "command": {"type": "play", "seat": 0, "card": "no-such-card"},
            "expected_version": detail["version"],
        },
        format="json",
    )

    assert (response.status_code, response.json()["code"]) == (422, "unknown-card")
    assert versions() == before


def test_a_seat_that_is_not_mine_is_403():
    ana, ben = make_user("ana"), make_user("ben")
    game_id = start_with_people(signed_in(ana), [{"user": "me"}, {"user": "ben"}], ben)["game"]
    detail = signed_in(ben).get(f"/api/games/{game_id}").json()
    before = versions()

    response = signed_in(ben).post(
        f"/api/games/{game_id}/commands",
        {"command": {"type": "draw", "seat": 0}, "expected_version": detail["version"]},
        format="json",
    )
    outsider = signed_in(make_user("eve")).post(
        f"/api/games/{game_id}/commands",
        {"command": {"type": "draw", "seat": 0}, "expected_version": detail["version"]},
        format="json",
    )

    assert (response.status_code, response.json()["code"]) == (403, "not-your-seat")
    assert (outsider.status_code, outsider.json()["code"]) == (403, "not-seated")
    assert versions() == before


def test_commands_need_a_person():
    game_id = start(signed_in(make_user("ana")))["game"]

    response = APIClient().post(
        f"/api/games/{game_id}/commands",
        {"command": {"type": "draw", "seat": 0}, "expected_version": 1},
        format="json",
    )

    assert (response.status_code, response.json()["code"]) == (403, "not_authenticated")


# Following the events.


def test_events_after_a_version_are_redacted_for_the_viewer():
    ana = make_user("ana")
    client = signed_in(ana)
    game_id = start(client, seed=8)["game"]

    page = client.get(f"/api/games/{game_id}/events?after=0").json()
    spectator = APIClient().get(f"/api/games/{game_id}/events?after=0").json()

    assert page["events"][0]["version"] == 1
    assert page["version"] == page["events"][-1]["version"] == Game.objects.get(pk=game_id).version
    assert page["more"] is False
    dealt = next(e["event"] for e in page["events"] if e["event"]["type"] == "hand-started")
    assert len(dealt["cards"]) == 7 and "deck" not in dealt
    assert all("seed" not in e["event"] for e in page["events"])
    hidden = next(e["event"] for e in spectator["events"] if e["event"]["type"] == "hand-started")
    assert "cards" not in hidden and "deck" not in hidden

    later = client.get(f"/api/games/{game_id}/events?after={page['version']}").json()
    assert later == {"version": page["version"], "events": [], "more": False}


def test_events_come_in_pages_of_500():
    ana = make_user("ana")
    client = signed_in(ana)
    # A long log: four bots' match to 800 points, played to its end by the bots' runs as it
    # starts (1,152 events), which ana follows as a spectator. Her own turns, a command and a
    # catch-up of the projections each, took sixteen times the CPU to reach 1,000.
    bots_only = {"rules": "official", "options": {"target": 800}}
    four_bots = ("greedy", "random", "colour-control", "greedy")
    game_id = make_game(players=0, bots=four_bots, spec=bots_only, seed=8).pk
    total = Game.objects.get(pk=game_id).version
    assert total > 1000

    first = client.get(f"/api/games/{game_id}/events").json()
    second = client.get(f"/api/games/{game_id}/events?after={first['version']}").json()

    assert (len(first["events"]), first["version"], first["more"]) == (500, 500, True)
    assert second["events"][0]["version"] == 501
    assert second["version"] == 1000 < total


def test_a_bad_after_is_400():
    game_id = start(signed_in(make_user("ana")))["game"]

    response = APIClient().get(f"/api/games/{game_id}/events?after=-1")

    assert (response.status_code, response.json()["code"]) == (400, "invalid")


# The replay.


def test_the_replay_is_refused_before_the_match_ends_and_whole_after():
    ana = make_user("ana")
    client = signed_in(ana)
    game_id = start(client, seed=8)["game"]

    early = APIClient().get(f"/api/games/{game_id}/replay")
    assert (early.status_code, early.json()["code"]) == (403, "not-revealed")

    play_to_end(game_id)
    replay = APIClient().get(f"/api/games/{game_id}/replay").json()

    assert [e["version"] for e in replay["events"]] == list(
        range(1, Game.objects.get(pk=game_id).version + 1)
    )
    dealt = next(e["event"] for e in replay["events"] if e["event"]["type"] == "hand-started")
    assert len(dealt["deck"]) == 108
    assert replay["seats"][0] == {"seat": 0, "name": "ana", "kind": "person"}


def test_a_game_that_never_reveals_has_no_replay():
    ana = make_user("ana")
    game_id = start(signed_in(ana), seed=8)["game"]
    Game.objects.filter(pk=game_id).update(reveal=Game.Reveal.NEVER)
    play_to_end(game_id)

    response = APIClient().get(f"/api/games/{game_id}/replay")

    assert (response.status_code, response.json()["code"]) == (403, "not-revealed")


# Personal tokens.


def test_a_personal_token_is_shown_once_rotated_and_revoked():
    ana = make_user("ana")
    session = signed_in(ana)

    assert session.get("/api/me/token").status_code == 404
    made = session.post("/api/me/token")
    assert made.status_code == 201
    key = made.json()["token"]
    assert key.startswith(made.json()["prefix"])
    shown = session.get("/api/me/token").json()
    assert "token" not in shown and key not in str(shown)
    assert ana.personal_tokens.get().key_hash != key  # stored hashed

    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert script.get("/api/games").status_code == 200

    rotated = session.post("/api/me/token").json()["token"]
    assert rotated != key
    refused = script.get("/api/games")
    assert (refused.status_code, refused.json()["code"]) == (401, "token-invalid")
    assert refused["WWW-Authenticate"] == "Token"

    script.credentials(HTTP_AUTHORIZATION=f"Token {rotated}")
    assert script.delete("/api/me/token").status_code == 204
    assert script.get("/api/games").status_code == 401
    assert session.delete("/api/me/token").status_code == 404


def test_a_token_request_needs_no_csrf_token_but_a_session_one_does():
    ana = make_user("ana")
    body = {"variant": OFFICIAL, "seats": [{"user": "me"}, {"bot": "greedy"}]}
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(ana)

    refused = session.post("/api/games", body, format="json")
    script = APIClient(enforce_csrf_checks=True)
    script.credentials(HTTP_AUTHORIZATION=f"Token {accounts.token_issue(user=ana)}")
    accepted = script.post("/api/games", body, format="json")

    assert refused.status_code == 403 and refused.json()["message"].startswith("CSRF Failed")
    assert accepted.status_code == 201
    assert Game.objects.count() == 1


# The API's edges.


def test_an_unknown_api_path_answers_json():
    response = APIClient().get("/api/no/such/thing")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not-found"


def test_an_oversized_body_answers_json_and_changes_nothing(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = signed_in(make_user("ana"))

    response = client.post(
        "/api/games",
        {"variant": OFFICIAL, "seats": [{"user": "me"}] * 2, "pad": "x" * 5000},
        format="json",
    )

    assert response.status_code in (400, 413)
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"]
    assert Game.objects.count() == 0


def test_swagger_ui_loads_its_scripts_from_the_site_not_a_cdn():
    page = APIClient().get("/api/docs/").content.decode()

    # Nothing from another host (Swagger UI's default is a CDN, jsdelivr).
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "jsdelivr" not in page
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
