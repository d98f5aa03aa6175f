"""The seed_demo command: demo data for a local site, safe to run again."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client, TestCase, override_settings

from accounts.services import profile_of
from engine import MATCH_OVER, PLAYING, Variant
from games import event_reads, projections
from games.models import Game
from games.visibility import game_view
from league import demo as league_demo
from league.ladder_reads import leaderboard
from league.models import Club, Competition, Fixture, Season
from tournaments import demo as tournament_demo
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FAMILIES = ["basic-plus", "censorship", "newno", "official", "precognitive"]


def seed_demo() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_it_creates_the_demo_staff_user(settings):
    settings.DEBUG = True

    output = seed_demo()

    user = get_user_model().objects.get(username="demo")
    assert user.is_staff
    assert user.check_password("demo")
    assert "Created staff user 'demo' with password 'demo'" in output


def test_it_is_idempotent_and_leaves_an_existing_user_alone(settings):
    settings.DEBUG = True
    seed_demo()
    user = get_user_model().objects.get(username="demo")
    user.set_password("changed-by-hand")
    user.save()

    output = seed_demo()

    assert get_user_model().objects.filter(username="demo").count() == 1
    assert get_user_model().objects.get(username="demo").check_password("changed-by-hand")
    assert "already exists" in output


def test_it_refuses_to_run_without_debug(settings):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="DEBUG=1"):
        seed_demo()

    assert not get_user_model().objects.filter(username="demo").exists()


@pytest.fixture(scope="class")
def seeded(class_transaction, class_eager_tasks) -> Iterator[dict[str, Game]]:
    """seed_demo run once for the class, its commits' listeners (the bots' turns) run in-process:
    the games by name. DEBUG stays on for the class's tests, which run seed_demo again."""
    with override_settings(DEBUG=True):
        with TestCase.captureOnCommitCallbacks(execute=True):
            seed_demo()
        yield {game.context["demo"]: game for game in Game.objects.all() if "demo" in game.context}


def family(game: Game) -> str:
    return "precognitive" if game.variant.get("precognitive") else game.variant["rules"]


def first_hand(game: Game, username: str) -> tuple[str, ...] | None:
    """The cards `username`'s seat was dealt in the game's first hand (None: not seated)."""
    seat = next(
        (s.number for s in game.seats.all() if s.user and s.user.username == username), None
    )
    if seat is None:
        return None
    events = event_reads.load(game.pk)
    dealt = next(n for n, event in enumerate(events) if event["type"] == "prompted")
    state = Variant.from_spec(game.variant).replay(events[: dealt + 1])
    return tuple(sorted(state.hands[seat]))


class TestTheSeededDemo:
    """One seed_demo run (about a minute of bots' play) read by every test here."""

    def test_it_creates_ana_with_a_birth_date_too(self, seeded):
        ana = get_user_model().objects.get(username="ana")
        assert ana.check_password("ana")
        assert not ana.is_staff
        assert profile_of(ana).birth_date is not None
        assert profile_of(get_user_model().objects.get(username="demo")).birth_date is not None

    def test_the_bots_play_one_match_of_every_family_to_the_end(self, seeded):
        matches = [game for name, game in seeded.items() if name.startswith("bots-")]
        assert sorted(family(game) for game in matches) == FAMILIES
        assert all(game.status == MATCH_OVER for game in matches)

    @pytest.mark.parametrize("name", [f"waiting-{f}" for f in FAMILIES] + ["people-official"])
    def test_demo_has_a_decision_to_make_in_every_family_and_against_ana(self, seeded, name):
        demo = get_user_model().objects.get(username="demo")
        game = seeded[name]
        view = game_view(game_id=game.pk, viewer=demo)
        assert game.status == PLAYING
        assert view["legal"]
        if name.startswith("waiting-"):
            assert view["seat"] in view["to_act"]
        else:
            assert {seat.user.username for seat in game.seats.all()} == {"demo", "ana"}

    def test_in_censorship_demo_is_the_censor_and_rules_on_a_submission(self, seeded):
        demo = get_user_model().objects.get(username="demo")
        view = game_view(game_id=seeded["waiting-censorship"].pk, viewer=demo)
        assert view["dealer"] == view["seat"]
        assert view["pending"]["type"] == "ruling"
        assert view["submission"]["card"]

    def test_in_precognitive_demo_owes_the_precommit_that_fills_their_lane(self, seeded):
        demo = get_user_model().objects.get(username="demo")
        view = game_view(game_id=seeded["waiting-precognitive"].pk, viewer=demo)
        assert view["pending"] == {**view["pending"], "type": "precommit", "seat": view["seat"]}
        assert {command["type"] for command in view["legal"]} >= {"precommit"}

    def test_a_second_run_creates_nothing_until_a_waiting_game_is_over(self, seeded):
        games = Game.objects.count()
        assert "already exist" in seed_demo()
        assert Game.objects.count() == games

        Game.objects.filter(pk=seeded["waiting-newno"].pk).update(status=MATCH_OVER)
        assert "Created demo games: waiting-newno." in seed_demo()
        assert Game.objects.filter(context__demo="waiting-newno").count() == 2
        assert Game.objects.count() == games + 1
        again = Game.objects.filter(context__demo="waiting-newno").latest("pk")
        assert first_hand(again, "demo") != first_hand(seeded["waiting-newno"], "demo")

    def test_no_two_games_waiting_for_demo_deal_demo_the_same_hand(self, seeded):
        waiting = [game for name, game in seeded.items() if not name.startswith("bots-")]
        hands = [first_hand(game, "demo") for game in waiting]
        assert len(waiting) == len(FAMILIES) + 1
        assert len(set(hands)) == len(hands)

    def test_demo_runs_a_club_with_seasons_in_progress_in_two_families(self, seeded):
        demo = get_user_model().objects.get(username="demo")
        club = Club.objects.get(slug="riverside")
        seasons = club.seasons.select_related("competition")
        assert {s.competition.variant["rules"] for s in seasons} == {"official", "newno"}
        assert {s.status for s in seasons} == {Season.Status.RUNNING}
        fixtures = Fixture.objects.filter(division__season__club=club).exclude(game=None)
        # The bots' fixtures have been played; demo's wait for demo's decision.
        assert fixtures.filter(game__status=MATCH_OVER).exists()
        waiting = [
            f for f in fixtures.filter(game__status=PLAYING) if f.seats.filter(entry__user=demo)
        ]
        assert {f.division.season.competition.variant["rules"] for f in waiting} == {
            "official",
            "newno",
        }
        for fixture in waiting:
            view = game_view(game_id=fixture.game_id, viewer=demo)
            assert view["seat"] in view["to_act"] and view["legal"]

    def test_a_second_run_leaves_the_club_alone(self, seeded):
        assert "The demo club already exists" in seed_demo()
        assert Club.objects.count() == 1

    def test_a_newcomer_sees_a_finished_tournament_of_bots_and_one_taking_entries(self, seeded):
        finished = Tournament.objects.get(slug=tournament_demo.CUP_SLUG)
        assert finished.status == Tournament.Status.FINISHED
        assert finished.entries.count() >= finished.table_size * 2
        assert not finished.entries.filter(bot=None).exists()
        games = Game.objects.filter(context__tournament=finished.pk)
        assert games.count() == tournament_demo.CUP_ROUNDS * 2
        assert all(game.status == MATCH_OVER for game in games)
        open_one = Tournament.objects.get(slug=tournament_demo.OPEN_SLUG)
        assert open_one.status == Tournament.Status.OPEN

        client = Client()
        listed = client.get("/tournaments/").content.decode()
        assert "No tournament yet." not in listed
        assert finished.name in listed and open_one.name in listed
        page = client.get(f"/tournaments/{finished.slug}/").content.decode()
        assert "Final standings" in page
        assert all(entry.bot.name in page for entry in finished.entries.all())

    def test_a_second_run_leaves_the_tournaments_alone(self, seeded):
        tournaments = Tournament.objects.count()
        assert "The demo tournaments already exist" in seed_demo()
        assert Tournament.objects.count() == tournaments

    def test_the_demo_ladder_exists_once(self, seeded):
        assert Competition.objects.filter(slug="bot-arena", kind=Competition.Kind.LADDER).exists()
        assert "The demo ladder already exists" in seed_demo()
        assert Competition.objects.filter(kind=Competition.Kind.LADDER).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_demo_ladder_has_rated_history_of_several_rounds(eager_tasks):
    # As under `make run` (autocommit, tasks in-process): each round's tables play to the end
    # before the next round is drawn.
    owners = [get_user_model().objects.create_user(username=name) for name in ("demo", "ana")]
    ladder = league_demo.seed_ladder(admin=owners[0], members=owners[1:])
    assert ladder.kind == Competition.Kind.LADDER and ladder.duplicate
    projections.run("ladder-ratings")
    board = leaderboard(ladder)
    assert len(board.ranked) == 8 and board.unranked == []
    assert all(line.sets == league_demo.LADDER_ROUNDS for line in board.ranked)
    assert all(len(line.trend) == line.sets for line in board.ranked)
    assert {line.owner for line in board.ranked} == {"demo", "ana"}
