"""A practice match for a bot's owner (games/lobby.py game_start, _check_watch): a game of bots
alone, one at least the creator's own registered bot and no one else's, which its creator starts
holding no seat and watches as a spectator. It moves nobody's rating and counts for no record;
at most GAMES_MAX_PRACTICE_MATCHES run at once per person."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from games import projections
from games.lobby import practice_matches
from games.models import Bot, Game
from league.models import PlayerFamilyRecord
from ratings.models import PersonRating, PersonRatingChange
from tests.games.conftest import needs_postgresql
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

ONE_HAND = {"rules": "official", "options": {"scoring": "single-hand"}}


def signed_in(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def registered(owner, name: str) -> Bot:
    """An active registered bot of `owner`'s that plays in-process (a built-in strategy)."""
    return Bot.objects.create(
        owner=owner, name=name, kind=Bot.Kind.BUILTIN, strategy="greedy", status=Bot.Status.ACTIVE
    )


def post(client: APIClient, seats: list[dict], variant: dict | None = None):
    return client.post(
        "/api/games", {"variant": variant or ONE_HAND, "seats": seats}, format="json"
    )


def test_an_owner_starts_a_game_of_bots_alone_watches_it_played_out_and_no_record_moves(
    eager_tasks, django_capture_on_commit_callbacks
):
    ana = make_user("ana")
    mine = registered(ana, "annabot")

    with django_capture_on_commit_callbacks(execute=True):
        response = post(signed_in(ana), [{"bot_id": mine.pk}, {"bot": "greedy"}, {"bot": "random"}])

    assert response.status_code == 201, response.json()
    body = response.json()
    # She holds no seat: she sees the game as a spectator, told it is her practice match.
    assert body["my_seats"] == [] and body["watched_by"] == "ana"
    assert [seat["name"] for seat in body["seats"]] == ["annabot", "greedy", "random"]
    game = Game.objects.get(pk=body["game"])
    # The bots played it to its end on commit (the suite's tasks run in-process).
    assert game.status == Game.Status.MATCH_OVER
    for name in ("game-results", "person-ratings", "player-families", "ladder-ratings"):
        projections.run(name)
    assert not PersonRating.objects.exists() and not PersonRatingChange.objects.exists()
    assert not PlayerFamilyRecord.objects.exists()
    assert signed_in(ana).get("/api/players/ana").json()["families"] == []
    # Her bot's games list it as what it is.
    recent = Client().get(f"/api/bots/{mine.pk}").json()["recent_games"]
    assert [(g["game"], g["what"]) for g in recent] == [(game.pk, "practice match")]
    # The finished game's page says so to whoever watches.
    page = signed_in(ana).get(f"/games/{game.pk}/").content.decode()
    assert "Practice match: ana watches their bot play" in page
    assert "counts for no record" in page


def test_while_it_runs_its_owner_sees_no_hidden_card():
    ana = make_user("ana")
    mine = registered(ana, "annabot")

    # No commit here: the bots have not moved; each seat holds its seven cards (nine for the
    # seat to act when the deal turned up a draw two: the deal's seed is the site's).
    body = post(signed_in(ana), [{"bot_id": mine.pk}, {"bot": "greedy"}]).json()

    assert body["status"] == "playing" and body["my_seats"] == []
    assert body["legal"] == []
    view = body["view"]
    assert view["seat"] is None and sorted(view["hand_sizes"]) in ([7, 7], [7, 9])
    assert "hand" not in view and "hands" not in view
    # The watch page shows the seats' card counts, never a face of a hand.
    page = signed_in(ana).get(f"/games/{body['game']}/").content.decode()
    assert "you are watching" in page and "Practice match: ana watches their bot play" in page
    assert 'class="hand__card' not in page


def test_someone_elses_registered_bot_is_refused_and_nothing_is_written():
    ana, ben = make_user("ana"), make_user("ben")
    mine, bens = registered(ana, "annabot"), registered(ben, "benbot")

    response = post(signed_in(ana), [{"bot_id": mine.pk}, {"bot_id": bens.pk}])

    assert response.status_code == 403
    assert response.json()["code"] == "not-your-bot"
    assert "benbot, which is not yours" in response.json()["message"]
    assert not Game.objects.exists()
    # Seated herself, she may play against ben's bot as before.
    assert post(signed_in(ana), [{"user": "me"}, {"bot_id": bens.pk}]).status_code == 201


@pytest.mark.parametrize(
    ("seats", "said"),
    [
        # Built-in bots alone: none of hers to watch.
        ([{"bot": "greedy"}, {"bot": "random"}], "one of your own registered bots"),
        # A person seated who is not the creator, and no seat of hers.
        ([{"bot_id": "MINE"}, {"user": "ben"}], "ben sits at seat 1"),
        ([{"user": "ben"}, {"bot": "greedy"}], "ben sits at seat 0"),
    ],
)
def test_a_game_without_the_creator_that_is_no_practice_match_is_still_creator_not_seated(
    seats, said
):
    ana = make_user("ana")
    make_user("ben")
    mine = registered(ana, "annabot")
    seats = [{"bot_id": mine.pk} if seat == {"bot_id": "MINE"} else seat for seat in seats]

    response = post(signed_in(ana), seats)

    assert (response.status_code, response.json()["code"]) == (400, "creator-not-seated")
    assert said in response.json()["message"]
    assert not Game.objects.exists()


def test_at_most_the_limit_of_practice_matches_run_at_once(settings):
    settings.GAMES_MAX_PRACTICE_MATCHES = 2
    ana, ben = make_user("ana"), make_user("ben")
    mine, bens = registered(ana, "annabot"), registered(ben, "benbot")
    client = signed_in(ana)
    started = [post(client, [{"bot_id": mine.pk}, {"bot": "greedy"}]) for _ in range(2)]
    assert [r.status_code for r in started] == [201, 201]

    refused = post(client, [{"bot_id": mine.pk}, {"bot": "greedy"}])

    assert refused.status_code == 409
    assert refused.json()["code"] == "too-many-practice-matches"
    assert "at most 2" in refused.json()["message"]
    assert Game.objects.count() == 2
    # Games she sits in are not practice matches, and ben's limit is his own.
    assert post(client, [{"user": "me"}, {"bot_id": mine.pk}]).status_code == 201
    assert post(signed_in(ben), [{"bot_id": bens.pk}, {"bot": "greedy"}]).status_code == 201
    # One over, and she may start another.
    Game.objects.filter(pk=started[0].json()["game"]).update(status=Game.Status.MATCH_OVER)
    assert post(client, [{"bot_id": mine.pk}, {"bot": "greedy"}]).status_code == 201


@needs_postgresql
def test_the_practice_matches_of_a_person_are_read_through_their_index():
    """practice_matches (the cap above, the lobby's list) reads the partial index
    game_watched_by, the practice matches alone, not every game: its has-key condition is the
    index's. The planner is told a scan costs too much, as on a site with many games, where a
    handful of rows makes it scan anyway."""
    ana = make_user("ana")
    mine = registered(ana, "annabot")
    post(signed_in(ana), [{"bot_id": mine.pk}, {"bot": "greedy"}])
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")

    plan = practice_matches(ana).explain()

    assert "game_watched_by" in plan, plan
    assert practice_matches(ana).count() == 1


def test_the_watch_page_names_one_bot_or_several_truly():
    """Two of her own bots in one practice match: the page says she watches her bots, not one."""
    ana = make_user("ana")
    one, two = registered(ana, "annabot"), registered(ana, "bertbot")

    body = post(signed_in(ana), [{"bot_id": one.pk}, {"bot_id": two.pk}, {"bot": "random"}])

    page = signed_in(ana).get(f"/games/{body.json()['game']}/").content.decode()
    assert "Practice match: ana watches their bots play." in page
    assert "watches their bot play" not in page
