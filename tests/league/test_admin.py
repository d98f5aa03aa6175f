"""league admin: competitions listed, added and checked like competition_create, their rules as
the new-game form asks for them; entries added only through competition_join and withdrawn;
seasons and ladders read-only."""

from __future__ import annotations

import datetime

import pytest
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from bots import turns
from engine import Variant
from games import projections
from games.models import Bot, Game
from league.models import (
    Competition,
    Entry,
    Fixture,
    LadderMeeting,
    LadderSet,
    Rating,
    RatingChange,
)
from league.seasons import season_enter, season_start
from league.services import competition_game, competition_join, competition_leave
from tests.league.factories import enter_bots, make_bot, make_club, make_competition, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    user = django_user_model.objects.create_superuser("admin", password="pw")
    client.force_login(user)
    return client


@pytest.mark.parametrize("model", ["competition", "entry"])
def test_every_league_page_lists_its_rows(staff, model):
    enter_bots(make_competition(), 2)

    response = staff.get(reverse(f"admin:league_{model}_changelist"))

    assert response.status_code == 200
    assert b"Competition " in response.content


def add_form(**fields):
    return {
        "name": "Club night",
        "slug": "club-night",
        "kind": "league",
        "rules": "official",
        "lane": "1",
        "sight": "sighted",
        "seats_per_game": "4",
        "turn_seconds": "3600",
        "bot_timeout": "1.0",
        "pull_timeout": "30",
        "grace_seconds": "4",
        "vacation_days": "3",
        **fields,
    }


def test_a_competition_added_in_the_admin_is_checked_and_normalised(staff):
    response = staff.post(reverse("admin:league_competition_add"), add_form())

    assert response.status_code == 302
    competition = Competition.objects.get()
    assert competition.variant["options"]["target"] == 500
    assert competition.created_by.username == "admin"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"rules": "speed-uno"}, "rules"),
        ({"rules": "censorship", "seats_per_game": "2"}, "seats_per_game"),
        ({"kind": "league", "matchmaking": "on"}, "matchmaking"),
    ],
)
def test_the_admin_refuses_what_competition_create_refuses(staff, fields, field):
    response = staff.post(reverse("admin:league_competition_add"), add_form(**fields))

    assert response.status_code == 200
    assert list(form_errors(response)) == [field]
    assert not Competition.objects.exists()


def form_errors(response):
    return response.context["adminform"].form.errors


def test_the_add_page_starts_from_official_rules_not_null(staff):
    page = staff.get(reverse("admin:league_competition_add")).content.decode()

    assert 'value="official" required id="id_rules_0" checked' in page
    assert "null" not in page


FAMILIES = [
    ({"rules": "official", "target": "200"}, {"rules": "official", "options": {"target": 200}}),
    (
        {"rules": "basic-plus", "scoring": "running-total", "uno_penalty": "4"},
        {"rules": "basic-plus", "options": {"scoring": "running-total", "uno_penalty": 4}},
    ),
    ({"rules": "newno", "hand_size": "5"}, {"rules": "newno", "options": {"hand_size": 5}}),
    (
        {"rules": "censorship", "dealer_draws": "no", "seats_per_game": "3"},
        {"rules": "censorship", "options": {"dealer_draws": False}},
    ),
    (
        {"rules": "official", "precognitive": "on", "lane": "2", "sight": "blind"},
        {"rules": "official", "precognitive": {"lane": 2, "sight": "blind"}},
    ),
    (
        {"rules": "basic-plus", "precognitive": "on", "lane": "1", "sight": "telepathic"},
        {"rules": "basic-plus", "precognitive": {"lane": 1, "sight": "telepathic"}},
    ),
]


@pytest.mark.parametrize(("fields", "spec"), FAMILIES)
def test_each_family_is_saved_as_its_normalised_variant(staff, fields, spec):
    response = staff.post(reverse("admin:league_competition_add"), add_form(**fields))

    assert response.status_code == 302, form_errors(response)
    variant = Competition.objects.get().variant
    assert variant == Variant.from_spec(spec).spec
    assert set(variant["options"]) >= {"hand_size", "scoring", "target", "uno_penalty"}


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"rules": "official", "hand_size": "16"}, "hand_size"),
        ({"rules": "basic-plus", "uno_penalty": "-1"}, "uno_penalty"),
        ({"rules": "newno", "target": "0"}, "target"),
        ({"rules": "censorship", "seats_per_game": "3", "hand_size": "0"}, "hand_size"),
        ({"rules": "official", "dealer_draws": "no"}, "dealer_draws"),
        ({"rules": "newno", "precognitive": "on"}, "precognitive"),
    ],
)
def test_a_bad_option_is_refused_on_its_field(staff, fields, field):
    response = staff.post(reverse("admin:league_competition_add"), add_form(**fields))

    assert response.status_code == 200
    assert list(form_errors(response)) == [field]
    assert not Competition.objects.exists()


def test_editing_shows_the_stored_rules_and_keeps_them_normalised(staff):
    competition = make_competition(
        kind="league",
        variant={"rules": "censorship", "options": {"target": 300}},
        seats_per_game=3,
    )
    url = reverse("admin:league_competition_change", args=[competition.pk])

    form = staff.get(url).context["adminform"].form
    response = staff.post(
        url,
        add_form(
            name=competition.name,
            slug=competition.slug,
            seats_per_game="3",
            rules="censorship",
            target="300",
            uno_penalty="6",
        ),
    )

    # Options at the family's defaults stay blank: they follow the family if it changes.
    assert {name: form[name].value() for name in ("rules", "target", "uno_penalty")} == {
        "rules": "censorship",
        "target": 300,
        "uno_penalty": None,
    }
    assert response.status_code == 302, form_errors(response)
    competition.refresh_from_db()
    assert (
        competition.variant
        == Variant.from_spec(
            {"rules": "censorship", "options": {"target": 300, "uno_penalty": 6}}
        ).spec
    )


def test_entries_are_withdrawn_in_the_admin(staff):
    entries = enter_bots(make_competition(), 2)

    response = staff.post(
        reverse("admin:league_entry_changelist"),
        {"action": "withdraw", "_selected_action": [entries[0].pk]},
    )

    assert response.status_code == 302
    assert list(Entry.objects.filter(active=True)) == [entries[1]]
    assert staff.get(reverse("admin:league_entry_delete", args=[entries[0].pk])).status_code == 403


def add_entry(staff, competition, **entrant):
    fields = {"competition": competition.pk, **{k: v.pk for k, v in entrant.items()}}
    return staff.post(reverse("admin:league_entry_add"), fields)


def test_an_entry_added_in_the_admin_goes_through_competition_join(staff):
    ladder = make_competition()
    bot = make_bot()
    again = make_bot()
    competition_join(ladder, bot=again)
    competition_leave(ladder, bot=again)

    added = add_entry(staff, ladder, bot=bot)
    rejoined = add_entry(staff, ladder, bot=again)
    twice = add_entry(staff, ladder, bot=bot)

    assert (added.status_code, rejoined.status_code) == (302, 302)
    assert set(Entry.objects.filter(active=True).values_list("bot", flat=True)) == {
        bot.pk,
        again.pk,
    }
    # Joining again turns the old entry back on, as the service does: no second row.
    assert Entry.objects.filter(bot=again).count() == 1
    assert twice.status_code == 200
    assert [e.code for e in form_errors(twice).as_data()["__all__"]] == ["already-entered"]


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (Bot.Status.VALIDATING, "bot-validating"),
        (Bot.Status.SUSPENDED, "bot-suspended"),
        (Bot.Status.FAILED, "bot-failed"),
    ],
)
def test_adding_an_entry_refuses_what_competition_join_refuses_with_its_code(staff, status, code):
    ladder = make_competition()

    response = add_entry(staff, ladder, bot=make_bot(status=status))

    assert response.status_code == 200
    assert [e.code for e in form_errors(response).as_data()["bot"]] == [code]
    assert f"({code})" in response.content.decode()
    assert not Entry.objects.exists()


def test_a_person_without_a_birth_date_cannot_enter_newno(staff, django_user_model):
    league = make_competition(kind="league", variant={"rules": "newno"})

    response = add_entry(staff, league, user=django_user_model.objects.create_user("nobirth"))

    assert [e.code for e in form_errors(response).as_data()["user"]] == ["birth-date-missing"]
    assert not Entry.objects.exists()


@pytest.fixture(scope="class")
def played_season(class_transaction):
    """A club's season of two bots whose one fixture has been played to the end and projected:
    made once for TestClubsAndSeasons."""
    club, admin, _ = make_club()
    season = make_season(club, admin)
    for _ in range(2):
        season_enter(season=season, actor=admin, bot=make_bot(owner=admin))
    season_start(season=season, admin=admin)
    (fixture,) = Fixture.objects.filter(division__season=season)
    while Game.objects.get(pk=fixture.game_id).status != Game.Status.MATCH_OVER:
        turns.advance_game(game_id=fixture.game_id)
    for name in projections.PROJECTIONS:
        projections.run(name)
    return club, season


class TestClubsAndSeasons:
    @pytest.mark.parametrize("model", ["club", "season", "fixture", "standing"])
    def test_clubs_and_seasons_are_listed_and_never_added_here(self, staff, played_season, model):
        club, season = played_season

        response = staff.get(reverse(f"admin:league_{model}_changelist"))

        assert response.status_code == 200
        assert club.name.encode() in response.content or season.name.encode() in response.content
        assert staff.get(reverse(f"admin:league_{model}_add")).status_code == 403


def inspector(game_id):
    try:
        return reverse("staff:game", kwargs={"game_id": game_id})
    except NoReverseMatch:
        return reverse("admin:games_game_change", args=[game_id])


@pytest.fixture
def ladder_rows():
    """A ladder's set, its game, ratings, a rating change and a meeting, written as the
    matchmaking and the ratings projection write them (the admin only reads them)."""
    ladder = make_competition(seats_per_game=2, duplicate=False)
    first, second = enter_bots(ladder, 2)
    ladder_set = LadderSet.objects.create(
        competition=ladder, entries=[first.pk, second.pk], seed="abc", size=1, made=1
    )
    game = competition_game(
        ladder, [first, second], seed="abc", ladder_set=ladder_set.pk, rotation=0
    )
    now = timezone.now()
    for entry, mu in ((first, 27.0), (second, 23.0)):
        Rating.objects.create(
            competition=ladder, entry=entry, mu=mu, sigma=8.0, events=1, games=1, last_played=now
        )
        RatingChange.objects.create(
            competition=ladder,
            entry=entry,
            ladder_set=ladder_set,
            position=1,
            recorded_at=now - datetime.timedelta(minutes=1),
            mu_before=25.0,
            sigma_before=8.3,
            mu=mu,
            sigma=8.0,
            place=1 if mu > 25 else 2,
            places=[1 if mu > 25 else 2],
            games=[game.pk],
        )
    LadderMeeting.objects.create(competition=ladder, entry=first, other=second, games=1, ahead=1)
    return ladder_set, game


@pytest.mark.parametrize("model", ["ladderset", "rating", "ratingchange", "laddermeeting"])
def test_ladder_models_are_read_only(staff, ladder_rows, model):
    ladder_set, game = ladder_rows
    row = {
        "ladderset": ladder_set,
        "rating": Rating.objects.first(),
        "ratingchange": RatingChange.objects.first(),
        "laddermeeting": LadderMeeting.objects.get(),
    }[model]

    listing = staff.get(reverse(f"admin:league_{model}_changelist"))
    change = reverse(f"admin:league_{model}_change", args=[row.pk])

    assert listing.status_code == 200
    assert listing.context["cl"].result_count >= 1
    assert staff.get(change).status_code == 200
    assert staff.get(reverse(f"admin:league_{model}_add")).status_code == 403
    assert staff.post(change, {}).status_code == 403
    assert staff.get(reverse(f"admin:league_{model}_delete", args=[row.pk])).status_code == 403


def test_a_ladder_set_and_its_rating_changes_link_to_their_games_inspector(staff, ladder_rows):
    ladder_set, game = ladder_rows

    page = staff.get(reverse("admin:league_ladderset_change", args=[ladder_set.pk]))
    changes = staff.get(reverse("admin:league_ratingchange_changelist"))

    link = f'href="{inspector(game.pk)}"'
    assert link in page.content.decode()
    assert link in changes.content.decode()
