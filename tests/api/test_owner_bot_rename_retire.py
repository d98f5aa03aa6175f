"""Renaming and retiring a bot through the owners' API (api/owners.py, bots/registry.py):
`PATCH /api/me/bots/<id>` with a `name` under the registration's rules, shown at once wherever
the bot is shown; `DELETE /api/me/bots/<id>` retires it for good (out of its ladders, its pull
token void, nothing new to play or change) unless something still holds it (409 `bot-busy`,
naming it), and its history stays. Every refusal has a code and a message and changes
nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from bots.remote.tokens import issue_token
from games import seat_facts
from games.actors import StaffActor
from games.creation import SeatSpec, game_create
from games.models import Bot, Game, GameEvent
from league.models import Entry, LadderSet, Season
from league.seasons import season_enter
from tests.games.factories import SHORT, make_user, play_to_end
from tests.league.factories import make_club, make_competition, make_season
from tests.tournaments.factories import make_tournament
from tournaments.services import tournament_enter

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture(autouse=True)
def quick_validation(settings):
    settings.BOTS_VALIDATION_MATCHES = 1


def make_bot(owner, name="Gus", **fields) -> Bot:
    fields = {"kind": "builtin", "strategy": "greedy", "status": "active", **fields}
    return Bot.objects.create(owner=owner, name=name, **fields)


def bot_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bot {token}")
    return client


def row(bot: Bot) -> dict:
    return Bot.objects.filter(pk=bot.pk).values().get()


def seated(bot: Bot) -> Game:
    """A game still being played with the bot in seat 0."""
    return game_create(
        variant_spec=SHORT, seats=[SeatSpec(registered=bot), SeatSpec(bot="greedy")], seed=1
    )


# Renaming


def test_a_new_name_shows_on_the_bots_pages_ladders_and_games_past_and_present(
    api, owner, django_capture_on_commit_callbacks
):
    bot = make_bot(owner)
    ladder = make_competition(name="Open Ladder", slug="open")
    Entry.objects.create(competition=ladder, bot=bot)
    finished = seated(bot)
    play_to_end(finished.pk)
    playing = seated(bot)

    with django_capture_on_commit_callbacks() as callbacks:
        response = api.patch(f"/api/me/bots/{bot.pk}", {"name": "  Gus II "}, format="json")

    assert response.status_code == 200, response.json()
    assert (response.json()["name"], response.json()["status"]) == ("Gus II", "active")
    assert callbacks == []  # a name plays no validation game
    assert api.get(f"/api/bots/{bot.pk}").json()["name"] == "Gus II"
    [entrant] = api.get("/api/ladders").json()[0]["entrants"]
    assert (entrant["name"], entrant["bot_id"]) == ("Gus II", bot.pk)
    for game in (finished, playing):
        seats = api.get(f"/api/games/{game.pk}").json()["seats"]
        assert seats[0] == {"seat": 0, "name": "Gus II", "kind": "bot"}


def test_the_log_keeps_the_name_a_bot_acted_under(api, owner):
    bot = make_bot(owner, "Pully", kind="pull", strategy="")
    token = issue_token(bot)
    game = seated(bot)
    [decision] = [
        d for d in bot_client(token).get("/api/bot/decisions").json() if d["game"] == game.pk
    ]
    body = {"command": decision["legal"][0], "expected_version": decision["version"]}
    played = bot_client(token).post(f"/api/bot/games/{game.pk}/commands", body, format="json")
    assert played.status_code == 200, played.json()

    assert (
        api.patch(f"/api/me/bots/{bot.pk}", {"name": "Pully II"}, format="json").status_code == 200
    )

    # The append-only log names the actor as it was (with its id, which a name does not change).
    actors = list(GameEvent.objects.filter(game=game).values_list("actor", flat=True))
    assert f"bot:#{bot.pk}:Pully" in actors
    assert f"bot:#{bot.pk}:Pully II" not in actors
    assert api.get(f"/api/games/{game.pk}").json()["seats"][0]["name"] == "Pully II"


@pytest.mark.parametrize(
    ("name", "status", "code", "says"),
    [
        ("Taken", 400, "name-taken", "you already have a bot named 'Taken'"),
        ("Old", 400, "name-taken", "your retired bot is named 'Old', and a retired bot keeps"),
        # Names are told apart without case: "taken" beside "Taken" would look the same.
        ("tAKEN", 400, "name-taken", "you already have a bot named 'Taken'"),
        ("OLD", 400, "name-taken", "your retired bot is named 'Old', and a retired bot keeps"),
        ("x" * 65, 400, "invalid-bot", "a bot's name has 1 to 64 characters"),
        ("   ", 400, "invalid", "The request is not valid."),
    ],
    ids=[
        "taken",
        "kept-by-a-retired-bot",
        "taken-in-another-case",
        "kept-by-a-retired-bot-in-another-case",
        "too-long",
        "blank",
    ],
)
def test_a_name_is_checked_as_at_registration_and_a_refused_one_changes_nothing(
    api, owner, name, status, code, says
):
    bot = make_bot(owner)
    make_bot(owner, "Taken")
    make_bot(owner, "Old", status="retired")
    before = row(bot)

    response = api.patch(
        f"/api/me/bots/{bot.pk}", {"name": name, "strategy": "random"}, format="json"
    )
    registered = api.post(
        "/api/me/bots", {"name": name, "kind": "builtin", "strategy": "greedy"}, format="json"
    )

    assert (response.status_code, response.json()["code"]) == (status, code)
    assert response.json()["message"].startswith(says)
    # The same answer as registering a new bot of that name.
    assert registered.json() == response.json()
    assert row(bot) == before  # not even the strategy sent with it


def test_another_owners_name_and_its_own_are_free(api, owner):
    bot = make_bot(owner)
    make_bot(make_user("cy"), "Cole")

    cole = api.patch(f"/api/me/bots/{bot.pk}", {"name": "Cole"}, format="json")
    same = api.patch(f"/api/me/bots/{bot.pk}", {"name": "Cole"}, format="json")
    # Its own name in another case is its own still.
    shout = api.patch(f"/api/me/bots/{bot.pk}", {"name": "COLE"}, format="json")

    assert (cole.status_code, cole.json()["name"]) == (200, "Cole")
    assert (same.status_code, same.json()["name"]) == (200, "Cole")
    assert (shout.status_code, shout.json()["name"]) == (200, "COLE")


# Retiring


def test_retiring_takes_the_bot_out_of_its_ladders_and_keeps_its_history(api, owner):
    bot = make_bot(owner)
    ladder = make_competition(name="Open Ladder", slug="open")
    other_ladder = make_competition(name="Quiet Ladder", slug="quiet")
    Entry.objects.create(competition=ladder, bot=bot)
    Entry.objects.create(competition=other_ladder, bot=bot, active=False)
    finished = seated(bot)
    play_to_end(finished.pk)

    response = api.delete(f"/api/me/bots/{bot.pk}")

    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["status"], body["status_reason"]) == ("retired", "retired by its owner")
    assert body["retired_at"] and body["name"] == "Gus"
    assert api.get(f"/api/me/bots/{bot.pk}").json() == body
    assert [ladder["entrants"] for ladder in api.get("/api/ladders").json()] == [[], []]
    public = api.get(f"/api/bots/{bot.pk}").json()
    assert public["status"] == "retired"
    assert [game["game"] for game in public["recent_games"]] == [finished.pk]
    # Asked again: the same bot, retired when it was.
    again = api.delete(f"/api/me/bots/{bot.pk}")
    assert (again.status_code, again.json()) == (200, body)


def test_a_retired_bot_plays_enters_and_changes_nothing_more(api, owner):
    bot = make_bot(owner, "Pully", kind="pull", strategy="")
    token = issue_token(bot)
    ladder = make_competition(name="Open Ladder", slug="open")
    tournament = make_tournament()
    assert bot_client(token).get("/api/bot/decisions").status_code == 200
    assert api.delete(f"/api/me/bots/{bot.pk}").status_code == 200
    before = row(bot)

    polled = bot_client(token).get("/api/bot/decisions")
    renamed = api.patch(f"/api/me/bots/{bot.pk}", {"name": "Pully II"}, format="json")
    validated = api.post(f"/api/me/bots/{bot.pk}/validate")
    new_token = api.post(f"/api/me/bots/{bot.pk}/token")
    entered = api.post("/api/ladders/open/enter", {"bot": bot.pk}, format="json")
    cup = api.post(f"/api/tournaments/{tournament.slug}/entry", {"bot": bot.pk}, format="json")
    game = api.post(
        "/api/games",
        {"variant": SHORT, "seats": [{"user": "me"}, {"bot_id": bot.pk}]},
        format="json",
    )

    assert (polled.status_code, polled.json()) == (
        401,
        {
            "code": "authentication_failed",
            "message": "bot Pully is retired: its token no longer works",
        },
    )
    for response, done in (
        (renamed, "changed"),
        (validated, "validated again"),
        (new_token, "given a new token"),
    ):
        assert response.status_code == 409
        assert response.json() == {
            "code": "bot-retired",
            "message": f"bot Pully is retired: it cannot be {done}",
        }
    for response in (entered, cup):
        assert (response.status_code, response.json()["code"]) == (400, "bot-retired")
        assert response.json()["message"] == "bot Pully is retired: it enters nothing"
    assert (game.status_code, game.json()["code"]) == (400, "bot-not-active")
    assert game.json()["message"] == "seat 1: bot Pully is retired, not active"
    assert row(bot) == before
    assert not Entry.objects.filter(competition=ladder).exists()
    assert not tournament.entries.exists()
    # It keeps its name: a new bot needs another.
    taken = api.post("/api/me/bots", {"name": "Pully", "kind": "pull"}, format="json")
    assert (taken.status_code, taken.json()["code"]) == (400, "name-taken")


def test_a_running_game_holds_the_bot_and_nothing_changes(api, owner):
    bot = make_bot(owner, "Pully", kind="pull", strategy="")
    token = issue_token(bot)
    ladder = make_competition(name="Open Ladder", slug="open")
    Entry.objects.create(competition=ladder, bot=bot)
    games = [seated(bot) for _ in range(4)]
    before = row(bot)

    response = api.delete(f"/api/me/bots/{bot.pk}")

    first, second, third, _ = (game.pk for game in games)
    assert response.status_code == 409
    assert response.json() == {
        "code": "bot-busy",
        "message": f"bot Pully cannot retire yet: it is seated in games {first}, {second}, "
        f"{third} and more, still being played",
    }
    assert row(bot) == before
    assert Entry.objects.get(competition=ladder, bot=bot).active
    assert bot_client(token).get("/api/bot/decisions").status_code == 200


def test_a_seat_forfeited_in_a_game_still_played_holds_nothing(api, owner):
    # The default bot plays a forfeited seat: the bot is never asked again in that game.
    bot = make_bot(owner, "Pully", kind="pull", strategy="")
    token = issue_token(bot)
    staff = make_user("staffer")
    forfeited, held = (
        game_create(
            variant_spec=SHORT,
            seats=[SeatSpec(registered=bot), SeatSpec(bot="greedy"), SeatSpec(bot="greedy")],
            seed=1,
        )
        for _ in range(2)
    )
    seat_facts.seat_forfeit(game_id=forfeited.pk, seat=0, actor=StaffActor(staff.pk))
    assert Game.objects.get(pk=forfeited.pk).status == "playing"

    refused = api.delete(f"/api/me/bots/{bot.pk}")
    # Only the game it still plays holds it.
    assert (refused.status_code, refused.json()) == (
        409,
        {
            "code": "bot-busy",
            "message": f"bot Pully cannot retire yet: it is seated in game {held.pk}, still "
            "being played",
        },
    )

    seat_facts.seat_forfeit(game_id=held.pk, seat=0, actor=StaffActor(staff.pk))
    retired = api.delete(f"/api/me/bots/{bot.pk}")

    assert retired.status_code == 200
    assert retired.json()["status"] == "retired"
    assert bot_client(token).get("/api/bot/decisions").status_code == 401


def test_a_ladder_set_with_games_to_play_holds_the_bot(api, owner):
    bot = make_bot(owner)
    ladder = make_competition(name="Open Ladder", slug="open")
    mine = Entry.objects.create(competition=ladder, bot=bot)
    theirs = Entry.objects.create(competition=ladder, bot=make_bot(make_user()))
    # Its first rotation over, the second not made yet.
    LadderSet.objects.create(
        competition=ladder, entries=[mine.pk, theirs.pk], seed="s", size=2, made=1
    )

    response = api.delete(f"/api/me/bots/{bot.pk}")

    assert (response.status_code, response.json()["code"]) == (409, "bot-busy")
    assert response.json()["message"] == (
        "bot Gus cannot retire yet: its set in ladder Open Ladder still has games to play"
    )
    assert Bot.objects.get(pk=bot.pk).status == "active"
    assert Entry.objects.get(pk=mine.pk).active


@pytest.mark.parametrize(
    ("status", "says"),
    [
        (Season.Status.DRAFT, "not started yet (a club admin may withdraw it)"),
        (Season.Status.RUNNING, "still running"),
    ],
)
def test_a_club_season_not_over_holds_the_bot(api, owner, status, says):
    club, admin, _ = make_club(admin=owner)
    season = make_season(club, admin, name="Spring")
    bot = make_bot(owner)
    season_enter(season=season, actor=owner, bot=bot)
    Season.objects.filter(pk=season.pk).update(status=status)
    tournament = make_tournament(name="Winter Cup")
    tournament_enter(tournament, actor=owner, bot=bot)

    response = api.delete(f"/api/me/bots/{bot.pk}")

    assert (response.status_code, response.json()["code"]) == (409, "bot-busy")
    assert response.json()["message"] == (
        f"bot Gus cannot retire yet: it is entered in season Spring of {club.name}, {says}; "
        "it is entered in tournament Winter Cup, not started: withdraw it first"
    )
    assert Bot.objects.get(pk=bot.pk).status == "active"


def test_a_closed_season_and_a_withdrawn_entry_hold_nothing(api, owner):
    club, admin, _ = make_club(admin=owner)
    season = make_season(club, admin, name="Spring")
    bot = make_bot(owner)
    season_enter(season=season, actor=owner, bot=bot)
    Season.objects.filter(pk=season.pk).update(status=Season.Status.CLOSED)
    tournament = make_tournament(name="Winter Cup")
    tournament_enter(tournament, actor=owner, bot=bot)
    tournament.entries.update(withdrawn=True)

    response = api.delete(f"/api/me/bots/{bot.pk}")

    assert (response.status_code, response.json()["status"]) == (200, "retired")
