"""The player page (/players/<username>/): every season the person entered, their record per
family over every finished match, and their latest finished games with links to the replays."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.creation import SeatSpec, game_create
from games.models import Game, HandResult, MatchResult, Seat
from league.seasons import season_close, season_enter, season_start
from league.standings import division_table
from tests.games.factories import make_user, play_to_end
from tests.league.factories import make_club, make_season
from tests.web.league_pages import (
    autumn_season,
    days_later,
    play_season_out,
    table_rows,
    text,
    with_on_commit,
)

pytestmark = pytest.mark.django_db


def page(username: str, viewer=None) -> str:
    client = Client()
    if viewer is not None:
        client.force_login(viewer)
    response = client.get(reverse("web:player", args=[username]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture(scope="class")
def played(class_transaction, class_eager_tasks):
    """ada's autumn season played out and closed (her seats ruled forfeit, the bots played on
    commit), a draft season of another club she entered, and a basic-plus match of hers
    against cy, outside any league: made once for the class's tests, which only read it."""
    season, ada, _ = with_on_commit(autumn_season)
    with_on_commit(lambda: season_start(season=season, admin=ada))
    play_season_out(season, ada, committed=with_on_commit)
    with_on_commit(lambda: season_close(season=season, admin=ada))
    other, owner, _ = make_club()
    other.memberships.create(user=ada)
    spring = make_season(
        other, owner, name="Spring Cup", slug="spring-cup", start_date=days_later(60).date()
    )
    season_enter(season=spring, actor=ada, user=ada)

    def friendly_match():
        return game_create(
            variant_spec={"rules": "basic-plus", "options": {"scoring": "single-hand"}},
            seats=[SeatSpec(user=ada), SeatSpec(user=make_user("cy"))],
            seed=2,
        )

    friendly = with_on_commit(friendly_match)
    with_on_commit(lambda: play_to_end(friendly.pk, seed=2))
    return season, ada, friendly


class TestAdasPage:
    """One played-out season and match (`played`) read by each test."""

    def test_every_season_the_person_entered_with_division_rank_and_points(self, played):
        season, ada, _ = played
        premier = season.divisions.get(tier=1)
        (line,) = [line for line in division_table(premier) if line.name == "ada"]

        html = page("ada")

        rows = table_rows(html)
        # Latest start first: the spring draft (not started: no rank yet), then the closed autumn.
        assert [cells[0] for _, cells in rows[:2]] == [
            "Spring Cup (not started)",
            "Autumn League (final)",
        ]
        spring, autumn = rows[0][1], rows[1][1]
        assert spring[4:6] == ["–", "0"]
        rank = f"{line.rank}{'=' if line.shared else ''}"
        assert autumn[1:] == [
            season.club.name,
            "Official",
            "Premier" + (" ↓ relegated" if line.zone == "down" else ""),
            rank,
            str(line.league_points),
            "2",
        ]
        assert 'href="/seasons/autumn/"' in html
        assert f'href="/clubs/{season.club.slug}/"' in html

    def test_the_record_per_family_counts_every_finished_match(self, played):
        _, ada, friendly = played
        seats = Seat.objects.filter(user=ada, game__status=Game.Status.MATCH_OVER)
        official = [seat for seat in seats if seat.game.variant["rules"] == "official"]
        results = {r.game_id: r for r in MatchResult.objects.filter(game__seats__user=ada)}
        wins = sum(results[seat.game_id].places[seat.number] == 1 for seat in official)
        seat_of = {seat.game_id: seat.number for seat in official}
        hands = list(HandResult.objects.filter(game_id__in=seat_of))
        points = sum(hand.gained[seat_of[hand.game_id]] for hand in hands)

        rows = {
            cells[0]: cells[1:] for _, cells in table_rows(page("ada"), row_class="family-record")
        }

        # Her league seats were ruled forfeit: a forfeited seat never wins.
        assert wins == 0
        # Ruled forfeit in two-seat fixtures, each match ended at the ruling, before a hand
        # ended: no points per hand to say.
        per_hand = f"{points / len(hands):.1f}" if hands else "–"
        assert rows["Official"] == ["2", "0", "0%", per_hand]
        mine = results[friendly.pk].places[0]
        assert rows["Basic-plus"][:3] == [
            "1",
            "1" if mine == 1 else "0",
            "100%" if mine == 1 else "0%",
        ]

    def test_the_latest_finished_games_link_to_their_replays(self, played):
        season, ada, friendly = played
        html = page("ada", viewer=ada)
        assert "this is you" in html
        finished = Game.objects.filter(seats__user=ada, status=Game.Status.MATCH_OVER)
        assert finished.count() == 3
        for game in finished:
            assert f'<a href="/games/{game.pk}/replay/">Replay of game {game.pk}</a>' in html
        said = text(html)
        assert "with cy" in said
        assert "Autumn League, Premier, round" in said
        place = MatchResult.objects.get(game=friendly).places[0]
        assert f"{'1st' if place == 1 else '2nd'} · " in said


def test_someone_who_played_nothing_has_an_empty_page_and_nobody_is_not_found(db):
    make_user("dee")
    said = text(page("dee"))
    assert "dee has entered no season yet." in said
    assert "No finished match yet." in said
    assert "No finished game yet." in said
    assert Client().get(reverse("web:player", args=["nobody"])).status_code == 404
