"""A draft season's settings edited on the new-season form, prefilled (/seasons/<slug>/edit/),
a draft deleted after a confirmation (/seasons/<slug>/delete), both refused once the season has
started and to anyone but the club's admins and staff; and the season form saying its defaults
(web/season_edit.py, web/league_forms.py)."""

from __future__ import annotations

import datetime
from html import unescape

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games.variant_text import duration
from league.models import Season
from league.seasons import DivisionSpec, season_enter, season_start
from social.models import Notification
from tests.games.factories import make_user
from tests.league.factories import make_bot, make_club, make_season
from tests.web.clients import signed_in
from tests.web.league_pages import text

pytestmark = pytest.mark.django_db


def seen(response) -> str:
    """The page's text as a reader sees it."""
    return unescape(text(response.content.decode()))


def shown_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def draft():
    club, admin, (ben,) = make_club(members=1)
    season = make_season(
        club,
        admin,
        name="Autumn League",
        slug="autumn",
        seats_per_game=3,
        variant={"rules": "official", "options": {"target": 200}},
        start_date=datetime.date(2026, 3, 2),
        divisions=[DivisionSpec("Premier", relegate=1), DivisionSpec("Challenger", promote=1)],
    )
    season_enter(season=season, actor=ben, user=ben)
    return season, admin, ben


def form_data(**changes: str) -> dict[str, str]:
    data = {
        "name": "Autumn League",
        "slug": "autumn",
        "rules": "official",
        "hand_size": "7",
        "scoring": "winner-takes",
        "target": "200",
        "uno_penalty": "2",
        "dealer_draws": "",
        "lane": "1",
        "sight": "sighted",
        "seats_per_game": "3",
        "placement_points": "2, 1, 0",
        "start_date": "2026-03-02",
        "round_days": "7",
        "rounds": "",
        "turn_seconds": str(settings.GAMES_TURN_SECONDS),
        "vacation_days": "0",
        "division1_name": "Premier",
        "division1_promote": "",
        "division1_relegate": "1",
        "division2_name": "Challenger",
        "division2_promote": "1",
        "division2_relegate": "",
    }
    return data | changes


def test_the_organisers_panel_of_a_draft_offers_to_edit_and_delete_it():
    season, admin, _ = draft()

    shown = seen(signed_in(admin).get(reverse("web:season", args=["autumn"])))

    assert "Edit the settings" in shown and "Delete the season…" in shown


def test_the_edit_form_is_the_new_season_form_filled_with_the_drafts_settings():
    season, admin, _ = draft()

    response = signed_in(admin).get(reverse("web:season-edit", args=["autumn"]))

    assert response.status_code == 200
    form = response.context["form"]
    values = {name: form[name].value() for name in form.fields}
    assert values["name"] == "Autumn League" and values["slug"] == "autumn"
    assert (values["seats_per_game"], values["placement_points"]) == (3, "2, 1, 0")
    assert (values["target"], values["hand_size"]) == (200, 7)
    assert values["start_date"] == datetime.date(2026, 3, 2)
    assert (values["division1_name"], values["division1_relegate"]) == ("Premier", 1)
    assert (values["division2_name"], values["division2_promote"]) == ("Challenger", 1)
    shown = seen(response)
    assert "Settings of Autumn League" in shown and "Save the settings" in shown
    html = response.content.decode()
    assert 'value="2, 1, 0"' in html and 'value="Challenger"' in html


def test_saved_settings_are_what_the_season_page_says():
    season, admin, ben = draft()

    response = signed_in(admin).post(
        reverse("web:season-edit", args=["autumn"]),
        form_data(
            name="Winter League",
            slug="winter",
            target="300",
            placement_points="3, 1, 0",
            round_days="5",
            rounds="6",
            division2_name="Second",
        ),
        follow=True,
    )

    assert response.redirect_chain[-1][0] == reverse("web:season", args=["winter"])
    assert shown_messages(response) == ["Winter League's settings are saved."]
    shown = seen(response)
    assert "Winter League" in shown and "winner takes all to 300" in shown
    assert "Placement points 3 / 1 / 0" in shown and "Each round 5 days Rounds 6" in shown
    assert "Premier (1 down) · Second (1 up)" in shown
    # ben stays entered, in the same (renamed) division.
    assert Season.objects.get().divisions.get(tier=2).members.get().entry.user == ben


def test_blank_fields_of_an_edit_say_the_defaults_they_took():
    season, admin, _ = draft()

    response = signed_in(admin).post(
        reverse("web:season-edit", args=["autumn"]),
        form_data(placement_points="", turn_seconds="", target=""),
        follow=True,
    )
    (message,) = shown_messages(response)
    assert message == (
        "Autumn League's settings are saved (left blank, so the defaults: the family's defaults "
        "for the rules' other options (so winner takes all to 500 · 7 cards · uno penalty 2); "
        "placement "
        "points 2 / 1 / 0; enough rounds for every pair of a division to meet; the site's time "
        f"for a turn ({duration(settings.GAMES_TURN_SECONDS)}))."
    )


def test_a_refused_edit_is_said_on_the_form_and_changes_nothing():
    season, admin, _ = draft()

    response = signed_in(admin).post(
        reverse("web:season-edit", args=["autumn"]),
        form_data(division2_name="", division2_promote="", division1_relegate=""),
    )

    assert response.status_code == 200
    assert (
        "Challenger has 1 entrant: move or withdraw them before taking the division away."
        in seen(response)
    )
    assert Season.objects.get().divisions.count() == 2


def test_a_started_season_cannot_be_edited_or_deleted_and_says_why():
    season, admin, ben = draft()
    for tier in (1, 1, 1, 2, 2):
        season_enter(season=season, actor=admin, bot=make_bot(owner=admin), tier=tier)
    season_start(season=season, admin=admin)
    client = signed_in(admin)

    edit = client.get(reverse("web:season-edit", args=["autumn"]))
    posted = client.post(reverse("web:season-edit", args=["autumn"]), form_data(name="Other"))
    delete = client.get(reverse("web:season-delete", args=["autumn"]))
    confirmed = client.post(reverse("web:season-delete", args=["autumn"]), {"confirm": "1"})

    assert (edit.status_code, posted.status_code, delete.status_code) == (409, 409, 409)
    # In words: the code (the API's) is no text of the page, only its data-code.
    for page, doing in ((edit, "its settings change"), (delete, "it can be deleted")):
        assert f"Autumn League has started: {doing} only while a season is a draft." in seen(page)
        assert "not-draft" not in seen(page)
        assert 'data-code="not-draft"' in page.content.decode()
    assert confirmed.status_code == 302
    after = client.get(confirmed["Location"])
    assert "Autumn League has started: it can be deleted only while a season is a draft." in (
        seen(after)
    )
    assert Season.objects.get().competition.name == "Autumn League"
    assert "Edit the settings" not in seen(after)


def test_only_the_clubs_admins_and_staff_may_edit_or_delete():
    season, admin, ben = draft()
    for person in (ben, make_user()):
        client = signed_in(person)
        assert client.get(reverse("web:season-edit", args=["autumn"])).status_code == 403
        assert (
            client.post(
                reverse("web:season-edit", args=["autumn"]), form_data(name="Mine")
            ).status_code
            == 403
        )
        assert (
            client.post(reverse("web:season-delete", args=["autumn"]), {"confirm": "1"}).status_code
            == 403
        )
    assert Season.objects.get().competition.name == "Autumn League"

    staff = make_user()
    staff.is_staff = True
    staff.save()
    assert signed_in(staff).get(reverse("web:season-edit", args=["autumn"])).status_code == 200


def test_deleting_asks_first_then_deletes_the_draft_and_tells_the_entrants():
    season, admin, ben = draft()
    client = signed_in(admin)
    url = reverse("web:season-delete", args=["autumn"])

    question = client.get(url)
    unconfirmed = client.post(url, {})

    assert "Delete Autumn League?" in seen(question)
    assert (
        "Deleting it takes away its settings and divisions and its one entrant; the person "
        "entered is told under the bell. This cannot be undone." in seen(question)
    )
    assert unconfirmed.status_code == 302 and unconfirmed["Location"] == url
    assert Season.objects.exists()

    done = client.post(url, {"confirm": "1"}, follow=True)

    assert done.redirect_chain[-1][0] == reverse("web:club", args=[season.club.slug])
    assert shown_messages(done) == ["Autumn League is deleted."]
    assert "Autumn League" not in seen(done).replace("Autumn League is deleted.", "")
    assert not Season.objects.exists()
    assert client.get(reverse("web:season", args=["autumn"])).status_code == 404
    assert Notification.objects.get(user=ben).text.startswith("Autumn League of ")


def test_the_season_form_says_its_defaults():
    club, admin, _ = make_club()

    shown = seen(signed_in(admin).get(reverse("web:season-new", args=[club.slug])))

    assert "Players at a table" in shown and "Default: 4." in shown
    assert (
        "Blank: halving down to 1, then 0 for last: 1, 0 at 2 players; 2, 1, 0 at 3 players; "
        "4, 2, 1, 0 at 4 players; 8, 4, 2, 1, 0 at 5 players; and so on." in shown
    )
    assert "Default: 7. A round's fixtures have this long to finish." in shown
    assert "Default: 0. Days each player may pause their clock" in shown
    assert "Default: today (" in shown
    assert "(default: one, “Division 1”)" in shown


def test_a_new_season_with_some_options_chosen_says_the_rules_it_has():
    """Scoring "single hand" chosen, the other options blank: the message says the rules the
    settings box says, not the family's defaults (once "winner takes all to 500")."""
    club, admin, _ = make_club()

    response = signed_in(admin).post(
        reverse("web:season-new", args=[club.slug]),
        form_data(name="Spring League", slug="", hand_size="", scoring="single-hand", target=""),
        follow=True,
    )

    (message,) = shown_messages(response)
    assert "winner takes all" not in message
    assert (
        "the family's defaults for the rules' other options (so single hand · 7 cards · uno "
        "penalty 2)" in message
    )
    assert "single hand · 7 cards · uno penalty 2" in seen(response)


def test_a_new_seasons_errors_are_all_said_at_their_fields_in_one_pass():
    """Days 0 and rounds 0 were said only once the other errors were fixed, in a banner above
    the form; Division 1 "Promoted: 3" was dropped without a word."""
    club, admin, _ = make_club()

    response = signed_in(admin).post(
        reverse("web:season-new", args=[club.slug]),
        form_data(name="", round_days="0", rounds="0", division1_promote="3", vacation_days="-2"),
    )

    errors = response.context["form"].errors
    assert errors["name"] == ["This field is required."]
    assert errors["round_days"] == ["Must be a whole number from 1 to 365, not 0."]
    assert errors["rounds"] == ["Must be a whole number from 1 to 200, not 0."]
    assert errors["vacation_days"] == ["Must be a whole number from 0 to 32767, not -2."]
    assert errors["division1_promote"] == ["The top division promotes nobody: leave it blank or 0."]
    assert "__all__" not in errors
    shown = seen(response)
    assert "greater than or equal" not in shown
    assert "Must be a whole number from 1 to 365, not 0." in shown
    assert not Season.objects.exists()
    # Past what the columns hold: at the field too, not the model's words in a banner.
    response = signed_in(admin).post(
        reverse("web:season-new", args=[club.slug]),
        form_data(name="Big", vacation_days="99999", division1_relegate="40000"),
    )
    errors = response.context["form"].errors
    assert errors["vacation_days"] == ["Must be a whole number from 0 to 32767, not 99999."]
    assert errors["division1_relegate"] == ["Must be a whole number from 0 to 32767, not 40000."]
    assert "__all__" not in errors and "less than or equal" not in seen(response)
    assert not Season.objects.exists()


def test_a_new_season_says_the_defaults_its_blank_fields_took():
    club, admin, _ = make_club()

    response = signed_in(admin).post(
        reverse("web:season-new", args=[club.slug]),
        form_data(
            name="Spring League",
            slug="",
            hand_size="",
            scoring="",
            target="",
            uno_penalty="",
            placement_points="",
            start_date="",
            round_days="",
            turn_seconds="",
            vacation_days="",
        ),
        follow=True,
    )

    today = timezone.localdate()
    assert shown_messages(response) == [
        "Spring League is set up (left blank, so the defaults: the address "
        "/seasons/spring-league/, made from the name; the rules' options as the family's "
        "defaults (winner takes all to 500 · 7 cards · uno penalty 2); placement points "
        f"2 / 1 / 0; the first round on {today:%a %-d %b %Y}, today; 7 days a round; enough "
        "rounds for every pair of a division to meet; the site's time for a turn "
        f"({duration(settings.GAMES_TURN_SECONDS)}); no vacation days): add its entrants, then "
        "start it."
    ]
    season = Season.objects.get(competition__slug="spring-league")
    assert (season.start_date, season.round_days, season.competition.vacation_days) == (
        today,
        7,
        0,
    )
