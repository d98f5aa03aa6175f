"""The league's public reads (api/leagues.py): clubs, a season, its standings and fixtures, a
player's record, as an anonymous client sees them after real fixture games were played to the
end and the projections ran. Nothing private leaks: no invitation code, no pending member, no
card."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.test import Client

from bots import turns
from engine import MATCH_OVER
from games import projections, seat_facts
from games.actors import SYSTEM
from games.models import Bot, Game, HandResult, MatchResult
from league import standings
from league.clubs import club_create, club_join, club_request
from league.models import (
    Bye,
    Club,
    Competition,
    Division,
    DivisionEntry,
    Entry,
    Fixture,
    FixtureSeat,
    Season,
)
from league.seasons import (
    DivisionSpec,
    open_due_rounds,
    season_close,
    season_create,
    season_enter,
    season_next,
    season_start,
)
from league.services import competition_create, competition_game, competition_join
from tests.games.factories import SHORT, make_user, play_turn

pytestmark = pytest.mark.django_db

POINTS = [3, 1]
OPENS = datetime(2026, 3, 2, tzinfo=UTC)
# A card code anywhere in a body (a hand, a pile, a drawn card) would be a leak.
CARD = re.compile(r"\b(red|yellow|green|blue)-(\d|skip|reverse|draw2)\b|\bwild\b")


@dataclass
class League:
    club: Club
    season: Season
    premier: Division
    championship: Division
    entries: dict[str, Entry]
    fixtures: dict[tuple[int, int], Fixture]  # (tier, round)


def make_season(club: Club, name: str, slug: str, **fields) -> Season:
    competition = competition_create(
        name=name, slug=slug, kind=Competition.Kind.LEAGUE, variant=SHORT, seats_per_game=2
    )
    fields = {"placement_points": POINTS, "start_date": OPENS.date(), "rounds": 3, **fields}
    return Season.objects.create(club=club, competition=competition, **fields)


def bot(name: str, owner: Any = None) -> Bot:
    return Bot.objects.create(
        owner=owner or make_user(),
        name=name,
        kind=Bot.Kind.BUILTIN,
        strategy="greedy",
        status="active",
    )


def enter(season: Season, division: Division, **entrant) -> Entry:
    entry = competition_join(season.competition, **entrant)
    DivisionEntry.objects.create(division=division, entry=entry)
    return entry


def fixture(division: Division, number: int, *entries: Entry) -> Fixture:
    """Table 1 of round `number`, opening a week after the round before (the draw, by hand)."""
    opens = OPENS + timedelta(days=7 * (number - 1))
    made = Fixture.objects.create(
        division=division, round=number, table=1, opens_at=opens, deadline=opens + timedelta(7)
    )
    for seat, entry in enumerate(entries):
        FixtureSeat.objects.create(fixture=made, entry=entry, number=seat)
    return made


def open_game(season: Season, made: Fixture) -> Game:
    entries = [seat.entry for seat in made.seats.order_by("number")]
    made.game = competition_game(
        season.competition, entries, seed=f"{made.division.tier}:{made.round}", fixture=made.pk
    )
    made.save(update_fields=["game"])
    return made.game


def finish(game: Game) -> None:
    """Play the match out: bots (and forfeited seats) by the worker's code, people's turns with
    a bot's move sent as theirs."""
    rng = random.Random(0)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status == MATCH_OVER:
            return
        if turns.bot_to_act(game.pk):
            turns.advance_game(game_id=game.pk)
        else:
            play_turn(game.pk, rng)
    raise AssertionError(f"game {game.pk} did not end")


def run_projections() -> None:
    projections.run("game-results")
    projections.run("league-standings")
    projections.run("player-families")


@pytest.fixture(scope="class")
def league(class_transaction) -> League:
    """Riverside: ana (admin) and bea members, zed only asked to join. Spring 2026, official to
    50 at tables of two: Premier (ana, bea, bot Alder; the last goes down) and Championship
    (bots Birch and Cedar; the first goes up). Round 1 is over (Birch's seat ruled forfeited),
    round 2 has opened (Premier's table is over, Championship's is playing), round 3 waits.
    The draw is made by hand, so that the tests know every round's tables and byes."""
    ana, bea, zed = make_user("ana"), make_user("bea"), make_user("zed")
    club = club_create(name="Riverside", creator=ana, description="Thursday nights.")
    club_join(club=club, user=bea, code=club.invite_code)
    club_request(club=club, user=zed)
    season = make_season(club, "Spring 2026", "spring-2026", status=Season.Status.RUNNING)
    premier = Division.objects.create(season=season, tier=1, name="Premier", relegate=1)
    championship = Division.objects.create(season=season, tier=2, name="Championship", promote=1)
    entries = {
        "ana": enter(season, premier, user=ana),
        "bea": enter(season, premier, user=bea),
        "Alder": enter(season, premier, bot=bot("Alder")),
        "Birch": enter(season, championship, bot=bot("Birch")),
        "Cedar": enter(season, championship, bot=bot("Cedar")),
    }
    ana_, bea_, alder, birch, cedar = entries.values()
    fixtures = {
        (1, 1): fixture(premier, 1, ana_, bea_),
        (1, 2): fixture(premier, 2, bea_, alder),
        (1, 3): fixture(premier, 3, alder, ana_),
        (2, 1): fixture(championship, 1, birch, cedar),
        (2, 2): fixture(championship, 2, cedar, birch),
        (2, 3): fixture(championship, 3, birch, cedar),
    }
    for number, sitting in ((1, alder), (2, ana_), (3, bea_)):
        Bye.objects.create(division=premier, round=number, entry=sitting)
    for key in ((1, 1), (1, 2), (2, 1), (2, 2)):
        open_game(season, fixtures[key])
    seat_facts.seat_forfeit(game_id=fixtures[(2, 1)].game_id, seat=0, actor=SYSTEM, note="absent")
    for key in ((1, 1), (1, 2), (2, 1)):
        finish(fixtures[key].game)
    run_projections()
    return League(club, season, premier, championship, entries, fixtures)


def get(path: str) -> dict:
    response = Client().get(path)
    assert response.status_code == 200, response.content
    assert not CARD.search(response.content.decode()), response.content
    return response.json()


def expected_lines(league: League, division: Division) -> dict[str, dict]:
    """Each entrant's columns, added up from the match results by hand."""
    names = {entry.pk: name for name, entry in league.entries.items()}
    lines = {
        names[row.entry_id]: {"played": 0, "wins": 0, "placements": [0, 0], "league_points": 0}
        | {"hands_won": 0, "points_scored": 0, "forfeits": 0}
        for row in DivisionEntry.objects.filter(division=division)
    }
    for made in Fixture.objects.filter(division=division, game__status=MATCH_OVER):
        result = MatchResult.objects.get(game_id=made.game_id)
        for seat in made.seats.all():
            line, place = lines[names[seat.entry_id]], result.places[seat.number]
            line["played"] += 1
            line["placements"][place - 1] += 1
            line["hands_won"] += result.hands_won[seat.number]
            line["points_scored"] += result.scores[seat.number]
            if seat.number in result.forfeited:
                line["forfeits"] += 1
            else:
                line["wins"] += place == 1
                line["league_points"] += POINTS[place - 1]
    return lines


COLUMNS = ["played", "wins", "placements", "league_points", "hands_won", "points_scored"]


def entrant(league: League, name: str) -> dict:
    entry = league.entries[name]
    person = entry.user_id is not None
    return {
        "entry": entry.pk,
        "name": name,
        "kind": "person" if person else "bot",
        "user_id": entry.user_id,
        "username": name if person else None,
    }


class TestSpring2026:
    """The reads of the `league` fixture's season, made once for the class."""

    def test_the_standings_rank_every_entrant_with_every_column(self, league):
        body = get("/api/seasons/spring-2026/standings")

        assert body["season"] == "spring-2026"
        assert body["final"] is False
        assert [(d["tier"], d["name"], d["promote"], d["relegate"]) for d in body["divisions"]] == [
            (1, "Premier", 0, 1),
            (2, "Championship", 1, 0),
        ]
        for division, table in zip(
            (league.premier, league.championship), body["divisions"], strict=True
        ):
            expected = expected_lines(league, division)
            lines = table["lines"]
            assert {
                line["entrant"]["name"]: {k: line[k] for k in [*COLUMNS, "forfeits"]}
                for line in lines
            } == expected
            keys = [
                (-line["league_points"], -line["wins"], -line["points_scored"]) for line in lines
            ]
            assert keys == sorted(keys)
            assert all(line["rank"] == i + 1 or line["shared"] for i, line in enumerate(lines))
            assert {"head_to_head", "shared", "zone"} <= set(lines[0])
        premier, championship = (d["lines"] for d in body["divisions"])
        assert [line["zone"] for line in premier] == ["", "", "down"]
        assert [line["zone"] for line in championship] == ["up", ""]
        # Birch's seat was ruled forfeited: last, no league points, counted as a forfeit.
        birch = next(line for line in championship if line["entrant"]["name"] == "Birch")
        assert (birch["rank"], birch["forfeits"], birch["league_points"]) == (2, 1, 0)
        ana = next(line for line in premier if line["entrant"]["name"] == "ana")
        user = league.entries["ana"].user
        assert ana["entrant"] == {
            "entry": league.entries["ana"].pk,
            "name": "ana",
            "kind": "person",
            "user_id": user.pk,
            "username": "ana",
        }
        assert birch["entrant"]["kind"] == "bot"
        assert (birch["entrant"]["user_id"], birch["entrant"]["username"]) == (None, None)

    def test_the_fixtures_show_each_rounds_tables_byes_results_and_links(self, league):
        body = get("/api/seasons/spring-2026/fixtures")

        assert [r["round"] for r in body["rounds"]] == [1, 2, 3]
        first = body["rounds"][0]
        assert [(f["division"], f["table"]) for f in first["fixtures"]] == [(1, 1), (2, 1)]
        assert [(b["division"], b["entrant"]["name"]) for b in first["byes"]] == [(1, "Alder")]
        forfeited = first["fixtures"][1]
        game = league.fixtures[(2, 1)].game_id
        result = MatchResult.objects.get(game_id=game)
        assert forfeited["status"] == "finished"
        assert forfeited["game"] == game
        assert [seat["name"] for seat in forfeited["seats"]] == ["Birch", "Cedar"]
        assert forfeited["result"] == {
            "winner": 1,
            "places": [2, 1],
            "forfeited": [0],
            "scores": result.scores,
            "hands_won": result.hands_won,
            "hands": result.hands,
        }
        assert forfeited["links"] == {"game": f"/games/{game}/", "replay": f"/games/{game}/replay/"}
        assert forfeited["opens_at"] == "2026-03-02T00:00:00Z"
        assert forfeited["deadline"] == "2026-03-09T00:00:00Z"

        second, third = body["rounds"][1:]
        playing = second["fixtures"][1]
        game = league.fixtures[(2, 2)].game_id
        assert (playing["status"], playing["game"], playing["result"]) == ("playing", game, None)
        assert playing["links"] == {"game": f"/games/{game}/", "replay": None}
        assert [f["status"] for f in third["fixtures"]] == ["scheduled", "scheduled"]
        assert [(f["game"], f["links"], f["result"]) for f in third["fixtures"]] == [
            (None, None, None)
        ] * 2
        assert [b["entrant"]["name"] for b in third["byes"]] == ["bea"]

    def test_the_fixtures_are_filtered_by_round_and_division(self, league):
        body = get("/api/seasons/spring-2026/fixtures?round=2&division=1")

        assert [r["round"] for r in body["rounds"]] == [2]
        (fixture_,) = body["rounds"][0]["fixtures"]
        assert [seat["name"] for seat in fixture_["seats"]] == ["bea", "Alder"]
        assert fixture_["status"] == "finished"
        assert [b["entrant"]["name"] for b in body["rounds"][0]["byes"]] == ["ana"]
        assert get("/api/seasons/spring-2026/fixtures?round=9") == {
            "season": "spring-2026",
            "rounds": [],
        }
        response = Client().get("/api/seasons/spring-2026/fixtures?round=first")
        assert response.status_code == 400
        assert response.json()["code"] == "invalid"
        assert "round" in response.json()["errors"]

    def test_a_season_shows_its_settings_neighbours_and_divisions(self, league):
        body = get("/api/seasons/spring-2026")

        assert body == {
            "slug": "spring-2026",
            "name": "Spring 2026",
            "club": {"slug": "riverside", "name": "Riverside"},
            "variant": league.season.competition.variant,
            "family": "official",
            "seats_per_game": 2,
            "placement_points": [3, 1],
            "round_days": 7,
            "rounds": 3,
            "rounds_drawn": 3,
            "start_date": "2026-03-02",
            "status": "running",
            "previous": None,
            "next": None,
            "divisions": [
                {
                    "tier": 1,
                    "name": "Premier",
                    "promote": 0,
                    "relegate": 1,
                    "entrants": [
                        entrant(league, "ana"),
                        entrant(league, "bea"),
                        entrant(league, "Alder"),
                    ],
                },
                {
                    "tier": 2,
                    "name": "Championship",
                    "promote": 1,
                    "relegate": 0,
                    "entrants": [entrant(league, "Birch"), entrant(league, "Cedar")],
                },
            ],
        }

    def test_a_club_shows_active_members_seasons_and_the_all_time_table(self, league):
        clubs = Client().get("/api/clubs")
        club = Client().get("/api/clubs/riverside")

        assert clubs.json() == [
            {
                "slug": "riverside",
                "name": "Riverside",
                "description": "Thursday nights.",
                "members": 2,
                "seasons": 1,
            }
        ]
        body = club.json()
        assert body["members"] == [
            {"username": "ana", "role": "admin"},
            {"username": "bea", "role": "member"},
        ]
        assert body["seasons"] == [
            {
                "slug": "spring-2026",
                "name": "Spring 2026",
                "family": "official",
                "status": "running",
                "start_date": "2026-03-02",
            }
        ]
        table = body["all_time"]
        assert [line["entrant"]["name"] for line in table] == [
            line.name for line in standings.club_all_time(league.club)
        ]
        assert len(table) == 5
        lines = {line["entrant"]["name"]: line for line in table}
        for name, expected in {
            **expected_lines(league, league.premier),
            **expected_lines(league, league.championship),
        }.items():
            line = lines[name]
            assert (line["seasons"], line["played"], line["wins"], line["league_points"]) == (
                1,
                expected["played"],
                expected["wins"],
                expected["league_points"],
            )
            assert line["titles"] == 0
        # Nobody who only asked to join, and never the invitation code.
        for response in (clubs, club):
            assert response.status_code == 200
            assert "zed" not in response.content.decode()
            assert league.club.invite_code not in response.content.decode()
            assert "invite" not in response.content.decode()

    def test_a_players_record_has_their_seasons_and_each_familys_numbers(self, league):
        body = get("/api/players/ana")

        standing = next(
            line
            for line in get("/api/seasons/spring-2026/standings")["divisions"][0]["lines"]
            if line["entrant"]["name"] == "ana"
        )
        assert body["username"] == "ana"
        assert body["seasons"] == [
            {
                "club": {"slug": "riverside", "name": "Riverside"},
                "season": {
                    "slug": "spring-2026",
                    "name": "Spring 2026",
                    "family": "official",
                    "status": "running",
                    "start_date": "2026-03-02",
                },
                "division": {"tier": 1, "name": "Premier"},
                "line": standing,
            }
        ]
        # One finished match: round 1 against bea (round 3 has not opened).
        game = league.fixtures[(1, 1)].game
        seat = game.seats.get(user__username="ana").number
        result = MatchResult.objects.get(game=game)
        gained = [hand.gained[seat] for hand in HandResult.objects.filter(game=game)]
        assert body["families"] == [
            {
                "family": "official",
                "matches": 1,
                "wins": int(result.places[seat] == 1),
                "win_rate": float(result.places[seat] == 1),
                "hands": result.hands,
                "mean_points_per_hand": round(sum(gained) / len(gained), 2),
            }
        ]
        assert get("/api/players/zed") == {
            "username": "zed",
            "kind": "person",
            "seasons": [],
            "families": [],
            "ratings": {},
        }

    @pytest.mark.parametrize(
        "path",
        [
            "/api/clubs/nowhere",
            "/api/seasons/nowhere",
            "/api/seasons/nowhere/standings",
            "/api/seasons/nowhere/fixtures",
            "/api/players/nobody",
        ],
    )
    def test_an_unknown_club_season_or_player_is_a_404(self, league, path):
        response = Client().get(path)

        assert response.status_code == 404
        assert response.json()["code"] == "not-found"
        assert response.json()["message"].startswith("there is no ")

    def test_the_answers_are_byte_identical_after_the_projections_are_rebuilt(self, league):
        paths = [
            "/api/clubs",
            "/api/clubs/riverside",
            "/api/seasons/spring-2026",
            "/api/seasons/spring-2026/standings",
            "/api/seasons/spring-2026/fixtures",
            "/api/players/ana",
            "/api/players/bea",
        ]
        before = [Client().get(path).content for path in paths]

        projections.rebuild("league-standings")
        projections.rebuild("game-results")
        projections.rebuild("player-families")

        assert [Client().get(path).content for path in paths] == before


def test_a_season_run_by_the_services_reads_the_same_from_draft_to_its_next():
    """Oakfield's Winter 2026, drawn by season_start: oli and two bots at the top, three bots
    below; every round opened and played, then closed and followed by Spring 2027."""
    oli = make_user("oli")
    club = club_create(name="Oakfield", creator=oli)
    tiers = [DivisionSpec("Top", relegate=1), DivisionSpec("Bottom", promote=1)]
    winter = season_create(
        club=club,
        admin=oli,
        name="Winter 2026",
        slug="winter-2026",
        variant=SHORT,
        start_date=date(2026, 1, 5),
        seats_per_game=2,
        divisions=tiers,
        seed=3,
    )
    season_enter(season=winter, actor=oli, user=oli, tier=1)
    for tier, names in ((1, ["Ash", "Beech"]), (2, ["Elm", "Fir", "Yew"])):
        for name in names:
            season_enter(season=winter, actor=oli, bot=bot(name, oli), tier=tier)
    draft = get("/api/seasons/winter-2026")
    assert (draft["status"], draft["rounds"], draft["rounds_drawn"]) == ("draft", None, 0)
    assert get("/api/seasons/winter-2026/fixtures")["rounds"] == []

    now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    season_start(season=winter, admin=oli, now=now)
    # Started with no result in: nobody is marked to go up or down (entry order alone would
    # pick), as the season's page shows it.
    started = get("/api/seasons/winter-2026/standings")
    assert started["final"] is False
    assert [len(d["lines"]) for d in started["divisions"]] == [3, 3]
    assert {line["zone"] for d in started["divisions"] for line in d["lines"]} == {""}
    # Each round opens once the one before has finished (the beat task's open_due_rounds).
    while True:
        for made in Fixture.objects.filter(division__season=winter).exclude(game=None):
            finish(made.game)
        if not open_due_rounds(season=winter, now=now):
            break
    run_projections()
    live = get("/api/seasons/winter-2026/standings")
    season_close(season=winter, admin=oli)
    season_next(
        season=winter,
        admin=oli,
        name="Spring 2027",
        slug="spring-2027",
        start_date=date(2027, 3, 1),
    )

    closed = get("/api/seasons/winter-2026/standings")
    assert (live["final"], closed["final"]) == (False, True)
    assert closed["divisions"] == live["divisions"]
    top, bottom = ([line["entrant"]["name"] for line in d["lines"]] for d in closed["divisions"])
    assert [line["zone"] for line in closed["divisions"][0]["lines"]] == ["", "", "down"]
    assert [line["zone"] for line in closed["divisions"][1]["lines"]] == ["up", "", ""]
    # Three members a division, tables of two: a round robin of three rounds, a bye each.
    fixtures = get("/api/seasons/winter-2026/fixtures")["rounds"]
    assert len(fixtures) == get("/api/seasons/winter-2026")["rounds_drawn"] == 3
    for number, round_ in enumerate(fixtures, start=1):
        assert [f["division"] for f in round_["fixtures"]] == [1, 2]
        assert [b["division"] for b in round_["byes"]] == [1, 2]
        for made in round_["fixtures"]:
            assert made["round"] == number
            assert made["status"] == "finished"
            assert made["links"]["replay"] == f"/games/{made['game']}/replay/"
            assert sorted(made["result"]["places"]) == [1, 2]
    titles = {
        line["entrant"]["name"]: line["titles"] for line in get("/api/clubs/oakfield")["all_time"]
    }
    champions = {
        line["entrant"]["name"] for line in closed["divisions"][0]["lines"] if line["rank"] == 1
    }
    assert titles == {name: int(name in champions) for name in top + bottom}

    assert get("/api/seasons/winter-2026")["next"] == "spring-2027"
    spring = get("/api/seasons/spring-2027")
    assert (spring["status"], spring["previous"], spring["next"]) == ("draft", "winter-2026", None)
    assert [sorted(e["name"] for e in d["entrants"]) for d in spring["divisions"]] == [
        sorted([*top[:2], bottom[0]]),
        sorted([*bottom[1:], top[2]]),
    ]
    assert [s["slug"] for s in get("/api/clubs/oakfield")["seasons"]] == [
        "spring-2027",
        "winter-2026",
    ]
