"""The club pages and the season organiser's flows (web/clubs.py, web/season_page.py): clubs,
joining by the link (and a bad link refused), asking and approving, admins' actions refused to
everyone else, the season form and its errors, entrants, the start, closing and the next season."""

from __future__ import annotations

import datetime
import re
from urllib.parse import quote

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games.models import Bot, Game
from league.clubs import club_request, is_member, membership_of
from league.models import Club, Competition, Fixture, Membership, Season
from league.seasons import open_due_rounds, season_enter
from tests.games.factories import make_user
from tests.league.factories import make_bot, make_club, make_season, promotion_and_relegation
from tests.web.clients import signed_in
from tests.web.league_pages import autumn_season, play_season_out

pytestmark = pytest.mark.django_db


def page(response) -> str:
    return response.content.decode()


def shown_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# Clubs


def test_the_clubs_page_lists_clubs_and_offers_a_new_one_to_signed_in_people():
    club, admin, _ = make_club(members=2)

    anonymous = page(Client().get(reverse("web:clubs")))
    mine = page(signed_in(admin).get(reverse("web:clubs")))

    assert club.name in anonymous and "3 members" in anonymous
    assert reverse("web:club-new") not in anonymous.split("<main")[1].split("Sign in")[0]
    assert reverse("web:club-new") in mine and "you are an admin" in mine
    assert f'href="{reverse("web:clubs")}">Clubs</a>' in mine  # in the site's navigation


def test_a_person_creates_a_club_and_is_its_first_admin():
    ana = make_user("ana")

    response = signed_in(ana).post(
        reverse("web:club-new"),
        {"name": "Riverside UNO", "slug": "", "description": "Thursdays."},
        follow=True,
    )

    club = Club.objects.get()
    assert (club.name, club.slug, club.description) == (
        "Riverside UNO",
        "riverside-uno",
        "Thursdays.",
    )
    assert membership_of(club, ana).role == Membership.Role.ADMIN
    assert response.redirect_chain[-1][0] == reverse("web:club", args=["riverside-uno"])
    assert "Riverside UNO is open" in page(response)


@pytest.mark.parametrize(
    ("slug", "message"),
    [("taken", "the address &#x27;taken&#x27; is taken"), ("new", "is reserved")],
)
def test_a_club_address_taken_or_reserved_is_refused_by_its_field(slug, message):
    make_club()
    Club.objects.update(slug="taken")

    response = signed_in(make_user()).post(reverse("web:club-new"), {"name": "Mine", "slug": slug})

    assert response.status_code == 200
    assert message in page(response)
    assert response.context["form"].errors["slug"]
    assert Club.objects.count() == 1


def test_the_club_page_shows_members_admins_seasons_and_the_all_time_table():
    club, admin, (ben,) = make_club(members=1)
    season = make_season(club, admin)
    season_enter(season=season, actor=admin, user=ben)
    bot = make_bot(owner=admin)
    season_enter(season=season, actor=admin, bot=bot)

    shown = page(Client().get(reverse("web:club", args=[club.slug])))

    assert f'{admin.username} <span class="badge">admin</span>' in shown
    assert ben.username in shown
    assert reverse("web:season", args=[season.slug]) in shown and "Being set up" in shown
    player = reverse("web:player", args=[ben.username])
    assert "All-time table" in shown and f'<a href="{player}">{ben.username}</a>' in shown
    # A bot links to its own page, as a person to theirs.
    assert f'<a href="{reverse("web:bot", args=[bot.pk])}">{bot.name}</a>' in shown
    # The invitation link is for members only.
    assert club.invite_code not in shown


def test_members_see_the_invitation_link_and_only_admins_may_rotate_it():
    club, admin, (ben,) = make_club(members=1)
    link = f"http://testserver/clubs/{club.slug}/join/{club.invite_code}/"

    as_member = page(signed_in(ben).get(reverse("web:club", args=[club.slug])))
    as_admin = page(signed_in(admin).get(reverse("web:club", args=[club.slug])))

    assert link in as_member and link in as_admin
    rotate = reverse("web:club-rotate", args=[club.slug])
    assert rotate not in as_member and rotate in as_admin
    assert signed_in(ben).post(rotate).status_code == 403
    assert Club.objects.get().invite_code == club.invite_code

    signed_in(admin).post(rotate)
    assert Club.objects.get().invite_code != club.invite_code


# Joining


def test_the_invitation_link_asks_then_joins():
    club, _, _ = make_club()
    cy = make_user("cy")
    url = reverse("web:club-join", args=[club.slug, club.invite_code])
    client = signed_in(cy)

    asked = client.get(url)
    assert asked.status_code == 200 and f"Join {club.name}?" in page(asked)
    assert membership_of(club, cy) is None

    joined = client.post(url, follow=True)

    assert membership_of(club, cy).status == Membership.Status.ACTIVE
    assert f"Welcome to {club.name}." in shown_messages(joined)


def test_a_signed_out_person_is_told_the_club_and_signs_up_or_in_back_to_the_link():
    club, _, _ = make_club()
    url = reverse("web:club-join", args=[club.slug, club.invite_code])
    visitor = Client()

    invitation = visitor.get(url)

    assert invitation.status_code == 200
    html = page(invitation)
    assert f"Join {club.name}?" in html and f"You were sent {club.name}" in html
    assert f'href="{reverse("web:signup")}?next={quote(url)}"' in html
    assert f'href="{reverse("login")}?next={quote(url)}"' in html
    # Not a member until they are signed in and confirm; a POST signed out asks for sign-in.
    joined = visitor.post(url)
    assert joined.status_code == 302
    assert joined["Location"] == f"{reverse('login')}?next={quote(url)}"
    assert Membership.objects.filter(club=club).count() == 1  # its admin alone
    # A link that is not the club's says so before anyone signs up for it.
    assert visitor.get(reverse("web:club-join", args=[club.slug, "nope"])).status_code == 404


def test_a_bad_or_rotated_link_is_refused_and_joins_nobody():
    club, admin, _ = make_club()
    old = club.invite_code
    signed_in(admin).post(reverse("web:club-rotate", args=[club.slug]))
    cy = signed_in(make_user("cy"))

    for code in ["not-the-code", old]:
        url = reverse("web:club-join", args=[club.slug, code])
        for response in (cy.get(url), cy.post(url)):
            assert response.status_code == 404
            assert "This invitation link is not (or no longer) the club&#x27;s" in page(response)
    assert Membership.objects.filter(club=club).count() == 1


def test_a_person_asks_to_join_and_an_admin_approves():
    club, admin, _ = make_club()
    dee = make_user("dee")

    signed_in(dee).post(reverse("web:club-ask", args=[club.slug]))
    waiting = page(signed_in(dee).get(reverse("web:club", args=[club.slug])))
    admins_page = page(signed_in(admin).get(reverse("web:club", args=[club.slug])))

    assert "You asked to join" in waiting
    assert "Asked to join" in admins_page and "Approve dee" in admins_page
    response = signed_in(admin).post(
        reverse("web:club-approve", args=[club.slug, dee.pk]), follow=True
    )
    assert membership_of(club, dee).status == Membership.Status.ACTIVE
    assert "dee is a member now." in shown_messages(response)


def test_an_admin_declines_a_request_and_the_person_may_ask_again():
    club, admin, _ = make_club()
    dee = make_user("dee")
    club_request(club=club, user=dee)

    signed_in(admin).post(reverse("web:club-decline", args=[club.slug, dee.pk]))

    assert membership_of(club, dee) is None
    shown = page(signed_in(dee).get(reverse("web:club", args=[club.slug])))
    assert reverse("web:club-ask", args=[club.slug]) in shown


def test_an_admin_makes_a_member_an_admin_and_the_last_admin_is_kept():
    club, admin, (ben,) = make_club(members=1)
    client = signed_in(admin)
    role = reverse("web:club-role", args=[club.slug, admin.pk])

    kept = client.post(role, {"role": "member", "confirm": "1"}, follow=True)
    assert "A club keeps at least one admin." in shown_messages(kept)
    assert '<li class="message error">A club keeps at least one admin.</li>' in page(kept)
    assert membership_of(club, admin).role == Membership.Role.ADMIN

    client.post(
        reverse("web:club-role", args=[club.slug, ben.pk]), {"role": "admin", "confirm": "1"}
    )
    assert membership_of(club, ben).role == Membership.Role.ADMIN


def member_rows(response) -> dict[str, str]:
    """The members list as a reader sees it: each member's line by username."""
    listed = page(response).split('id="members-title"')[1].split("</ul>")[0]
    rows = [words_of(row) for row in listed.split("<li>")[1:]]
    return {row.split()[0]: row for row in rows}


def words_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_the_only_admin_is_told_why_they_cannot_step_down_and_two_admins_can():
    club, admin, (ben,) = make_club(admin=make_user("ada"), members=1)
    client = signed_in(admin)

    rows = member_rows(client.get(reverse("web:club", args=[club.slug])))
    assert rows["ada"] == (
        "ada (you) admin The only admin: make another member an admin before stepping down or "
        "leaving."
    )
    assert "Not an admin" not in page(client.get(reverse("web:club", args=[club.slug])))
    assert rows[ben.username] == (
        f"{ben.username} Make admin : {ben.username} Remove {ben.username} from the club"
    )

    client.post(
        reverse("web:club-role", args=[club.slug, ben.pk]), {"role": "admin", "confirm": "1"}
    )
    rows = member_rows(client.get(reverse("web:club", args=[club.slug])))
    assert rows["ada"] == "ada (you) admin Step down as admin Leave the club"
    assert rows[ben.username] == (
        f"{ben.username} admin Remove as admin : make {ben.username} a plain member "
        f"Remove {ben.username} from the club"
    )

    stepped = client.post(
        reverse("web:club-role", args=[club.slug, admin.pk]),
        {"role": "member", "confirm": "1"},
        follow=True,
    )
    assert shown_messages(stepped) == ["ada is a member (not an admin) now."]
    assert membership_of(club, admin).role == Membership.Role.MEMBER


# Admins' actions refused to everyone else


def test_a_member_who_is_not_an_admin_is_refused_every_admin_action():
    club, admin, (ben, cy) = make_club(members=2)
    club_request(club=club, user=(dee := make_user("dee")))
    season = make_season(club, admin)
    season_enter(season=season, actor=admin, user=cy)
    entry = season.competition.entries.get()
    client = signed_in(ben)
    posts = [
        (reverse("web:club-approve", args=[club.slug, dee.pk]), {}),
        (reverse("web:club-decline", args=[club.slug, dee.pk]), {}),
        (reverse("web:club-role", args=[club.slug, ben.pk]), {"role": "admin", "confirm": "1"}),
        (reverse("web:club-remove", args=[club.slug, cy.pk]), {"confirm": "1"}),
        (reverse("web:club-rotate", args=[club.slug]), {}),
        (reverse("web:season-new", args=[club.slug]), {"name": "Mine", "rules": "official"}),
        (reverse("web:season-enter-member", args=[season.slug]), {"username": admin.username}),
        (reverse("web:season-enter-bot", args=[season.slug]), {"bot_name": "greedy"}),
        (reverse("web:season-withdraw", args=[season.slug, entry.pk]), {}),
        (reverse("web:season-start", args=[season.slug]), {}),
        (reverse("web:season-close", args=[season.slug]), {}),
        (reverse("web:season-next", args=[season.slug]), {"name": "Next"}),
    ]

    for url, data in posts:
        response = client.post(url, data)
        assert response.status_code == 403, url
        assert f"Only an admin of {club.name} may do this." in page(response)
    assert client.get(reverse("web:season-new", args=[club.slug])).status_code == 403
    assert client.get(reverse("web:season-next", args=[season.slug])).status_code == 403
    assert membership_of(club, dee).status == Membership.Status.PENDING
    assert membership_of(club, ben).role == Membership.Role.MEMBER
    assert is_member(club, cy)
    assert Season.objects.count() == 1 and Bot.objects.count() == 0
    assert season.competition.entries.filter(active=True).count() == 1
    assert Season.objects.get().status == Season.Status.DRAFT
    # And the page shows them no organiser's panel.
    assert "Organiser" not in page(client.get(reverse("web:season", args=[season.slug])))


def test_a_post_without_its_csrf_token_is_refused():
    club, admin, _ = make_club()
    dee = make_user("dee")
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(dee)

    response = guarded.post(reverse("web:club-ask", args=[club.slug]))

    assert response.status_code == 403
    assert membership_of(club, dee) is None
    shown = page(signed_in(admin).get(reverse("web:club", args=[club.slug])))
    assert shown.count('name="csrfmiddlewaretoken"') == shown.count('method="post"')


def test_signed_out_people_are_sent_to_sign_in_and_unknown_clubs_are_404():
    club, _, _ = make_club()

    response = Client().post(reverse("web:club-rotate", args=[club.slug]))

    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Client().get(reverse("web:club", args=["nowhere"])).status_code == 404
    assert Client().get(reverse("web:season", args=["nowhere"])).status_code == 404


# The season form


def season_data(**changes: str) -> dict[str, str]:
    data = {
        "name": "Spring League",
        "slug": "",
        "rules": "official",
        "hand_size": "",
        "scoring": "",
        "target": "200",
        "uno_penalty": "",
        "dealer_draws": "",
        "lane": "1",
        "sight": "sighted",
        "seats_per_game": "3",
        "placement_points": "",
        "start_date": "2026-03-02",
        "round_days": "7",
        "rounds": "",
        "turn_seconds": "86400",
        "vacation_days": "2",
        "division1_name": "Premier",
        "division1_promote": "",
        "division1_relegate": "1",
        "division2_name": "Challenger",
        "division2_promote": "1",
        "division2_relegate": "",
    }
    data.update(changes)
    return data


def test_an_admin_creates_a_season_with_its_settings_and_divisions():
    club, admin, _ = make_club()

    response = signed_in(admin).post(
        reverse("web:season-new", args=[club.slug]), season_data(), follow=True
    )

    season = Season.objects.get()
    competition = season.competition
    assert (competition.name, competition.slug) == ("Spring League", "spring-league")
    assert competition.kind == Competition.Kind.LEAGUE
    assert competition.variant["rules"] == "official"
    assert competition.variant["options"]["target"] == 200
    assert (competition.seats_per_game, competition.turn_seconds) == (3, 86400)
    assert competition.vacation_days == 2
    assert season.placement_points == [2, 1, 0]
    assert (season.start_date, season.round_days, season.rounds) == (
        datetime.date(2026, 3, 2),
        7,
        None,
    )
    assert [(d.tier, d.name, d.promote, d.relegate) for d in season.divisions.all()] == [
        (1, "Premier", 0, 1),
        (2, "Challenger", 1, 0),
    ]
    assert response.redirect_chain[-1][0] == reverse("web:season", args=["spring-league"])
    shown = page(response)
    assert "Spring League" in shown and "Official" in shown and "winner takes all to 200" in shown
    assert "Premier" in shown and "Challenger" in shown and "Organiser" in shown


def test_the_season_form_offers_every_family_and_the_default_points():
    club, admin, _ = make_club()

    shown = page(signed_in(admin).get(reverse("web:season-new", args=[club.slug])))

    for family in ["Official", "Basic-plus", "NEWNO", "Censorship"]:
        assert family in shown
    assert "Play precognitive" in shown and "4, 2, 1, 0 at 4 players" in shown
    assert 'name="division4_name"' in shown and 'name="division5_name"' not in shown
    # The columns said as what they count, not "the best promoted of a division".
    assert "Promoted: how many of a division's best go up a division next season" in " ".join(
        re.sub(r"<[^>]+>", "", shown).split()
    ).replace("&#x27;", "'")


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        # The service's own check, its message above the form.
        (
            {"rules": "censorship", "seats_per_game": "2"},
            None,
            "Players at a table: censorship needs 3",
        ),
        # The form's, at their fields, in the words of the rules' options.
        ({"placement_points": "3, 2"}, "placement_points", "Give 3 whole numbers of 0 or more"),
        ({"placement_points": "1, 2, 0"}, "placement_points", "A worse place never earns more"),
        ({"round_days": "400"}, "round_days", "Must be a whole number from 1 to 365, not 400."),
        ({"round_days": "0"}, "round_days", "Must be a whole number from 1 to 365, not 0."),
        ({"rounds": "0"}, "rounds", "Must be a whole number from 1 to 200, not 0."),
        (
            {"vacation_days": "-1"},
            "vacation_days",
            "Must be a whole number from 0 to 32767, not -1.",
        ),
        ({"division2_promote": "-1"}, "division2_promote", "from 0 to 32767, not -1."),
        ({"division1_promote": "3"}, "division1_promote", "The top division promotes nobody"),
        ({"division2_relegate": "2"}, "division2_relegate", "The bottom division relegates"),
        ({"placement_points": "4, two, 0"}, "placement_points", "whole numbers separated"),
        ({"target": "-5"}, "target", "Must be a whole number of at least 1, not -5."),
        ({"division1_name": "", "division2_name": ""}, "division1_name", "at least one division"),
        ({"division2_name": ""}, "division2_name", "Name the division"),
        ({"name": ""}, "name", "This field is required."),
    ],
)
def test_a_refused_season_shows_why_and_creates_nothing(changes, field, message):
    club, admin, _ = make_club()

    response = signed_in(admin).post(
        reverse("web:season-new", args=[club.slug]), season_data(**changes)
    )

    assert response.status_code == 200
    errors = response.context["form"].errors
    assert message in " ".join(errors[field if field else "__all__"])
    assert message.split(" ")[0] in page(response)
    assert 'id="form-errors"' in page(response)
    assert Season.objects.count() == 0 and Competition.objects.count() == 0


def test_a_taken_season_address_is_shown_by_its_field():
    club, admin, _ = make_club()
    make_season(club, admin, slug="spring-league")

    response = signed_in(admin).post(reverse("web:season-new", args=[club.slug]), season_data())

    assert "is taken" in " ".join(response.context["form"].errors["slug"])
    assert Season.objects.count() == 1


# The season page: entrants and the start


def test_the_admin_adds_members_and_bots_and_sees_refusals_as_messages():
    club, admin, (ben,) = make_club(members=1)
    season = make_season(club, admin)
    outsider = make_user("outsider")
    mine = make_bot()
    Bot.objects.filter(pk=mine.pk).update(owner=admin, name="Greta")
    client = signed_in(admin)
    member_url = reverse("web:season-enter-member", args=[season.slug])
    bot_url = reverse("web:season-enter-bot", args=[season.slug])

    client.post(member_url, {"username": ben.username})
    client.post(bot_url, {"bot_name": "Greta"})
    client.post(bot_url, {"bot_name": "Rex", "strategy": "random"})
    client.post(bot_url, {"bot_name": "greedy"})
    refusals = [
        client.post(member_url, {"username": outsider.username}, follow=True),
        client.post(member_url, {"username": "nobody"}, follow=True),
        client.post(member_url, {"username": ben.username}, follow=True),
        client.post(bot_url, {"bot_name": "Nope"}, follow=True),
        client.post(bot_url, {"bot_name": "Greta", "strategy": "random"}, follow=True),
    ]

    entered = season.competition.entries.filter(active=True)
    assert {e.user.username for e in entered if e.user} == {ben.username}
    assert {e.bot.name for e in entered if e.bot} == {"Greta", "Rex", "greedy"}
    rex = Bot.objects.get(name="Rex")
    assert (rex.owner, rex.kind, rex.strategy) == (admin, Bot.Kind.BUILTIN, "random")
    said = [shown_messages(r)[-1] for r in refusals]
    assert said[0] == "outsider is not a member of " + club.name + "."
    assert said[1] == "Nobody is called 'nobody'."
    assert said[2].endswith("is already entered in " + season.name + ".")
    assert said[3].startswith("Bot's name: You have no bot called 'Nope'")
    assert said[4].startswith("Bot's name: Your bot Greta plays greedy")
    assert Bot.objects.filter(owner=admin).count() == 3


def test_a_member_typed_with_a_capital_as_a_phone_writes_it_is_entered():
    club, admin, (ben,) = make_club(members=1)
    season = make_season(club, admin)
    client = signed_in(admin)
    page = client.get(reverse("web:season", args=[season.slug])).content.decode()
    # The organiser's box (the admin's own "Enter me" sends her name in a hidden field).
    box = re.search(r'<input type="text"[^>]*name="username"[^>]*>', page).group(0)
    assert 'autocapitalize="none"' in box and 'spellcheck="false"' in box

    answer = client.post(
        reverse("web:season-enter-member", args=[season.slug]),
        {"username": ben.username.upper()},
        follow=True,
    )

    assert shown_messages(answer)[-1] == f"{ben.username} is entered."
    assert season.competition.entries.get(active=True).user == ben


def test_the_admin_cannot_enter_another_owners_bot_from_the_season_page():
    club, admin, (ben,) = make_club(members=1)
    season = make_season(club, admin)
    bens = make_bot(owner=ben, name="Gus")

    # The form takes a name among the admin's own bots; an id sent along changes nothing.
    response = signed_in(admin).post(
        reverse("web:season-enter-bot", args=[season.slug]),
        {"bot_name": "Gus", "bot": bens.pk},
        follow=True,
    )

    assert shown_messages(response)[-1].startswith("Bot's name: You have no bot called 'Gus'")
    assert not season.competition.entries.exists()
    assert not Bot.objects.filter(owner=admin).exists()


def test_a_bot_registered_for_a_refused_entry_is_not_kept():
    club, admin, _ = make_club()
    season = make_season(club, admin)
    Season.objects.filter(pk=season.pk).update(status=Season.Status.RUNNING)

    response = signed_in(admin).post(
        reverse("web:season-enter-bot", args=[season.slug]), {"bot_name": "greedy"}, follow=True
    )

    assert shown_messages(response)[-1] == f"{season.name} has started."
    assert not Bot.objects.filter(owner=admin).exists()


def test_a_member_enters_and_withdraws_themselves():
    club, admin, (ben,) = make_club(members=1)
    season = make_season(club, admin)
    client = signed_in(ben)

    offered = page(client.get(reverse("web:season", args=[season.slug])))
    assert "Enter me" in offered and "Organiser" not in offered
    client.post(reverse("web:season-enter-member", args=[season.slug]), {"username": "ben"})
    client.post(reverse("web:season-enter-member", args=[season.slug]), {"username": ben.username})
    entry = season.competition.entries.get(active=True)
    assert entry.user == ben

    client.post(reverse("web:season-withdraw", args=[season.slug, entry.pk]))
    assert not season.competition.entries.filter(active=True).exists()


def test_a_member_entering_themselves_cannot_choose_a_division():
    season, _, up, down = promotion_and_relegation()
    url = reverse("web:season-enter-member", args=[season.slug])
    for person in (up, down):
        entry = season.competition.entries.get(user=person)
        signed_in(person).post(reverse("web:season-withdraw", args=[season.slug, entry.pk]))
    client = signed_in(down)

    offered = page(client.get(reverse("web:season", args=[season.slug])))
    refused = client.post(url, {"username": down.username, "tier": "1"}, follow=True)
    assert not season.competition.entries.filter(user=down, active=True).exists()
    entered = client.post(url, {"username": down.username}, follow=True)
    signed_in(up).post(url, {"username": up.username})

    assert "you will play in First, where the season's rules put you" in offered
    assert shown_messages(refused)[-1] == (
        f"Only an admin of {season.club.name} chooses a division; entering yourself, you go "
        "where the season's rules put you."
    )
    assert shown_messages(entered)[-1] == "You are entered."
    tiers = {
        e.user: e.division_entry.division.name
        for e in season.competition.entries.filter(active=True, user__isnull=False)
    }
    assert tiers == {up: "Premier", down: "First"}


def test_a_newno_season_asks_for_birth_dates():
    club, admin, (ben,) = make_club(members=1)
    season = make_season(club, admin, variant={"rules": "newno"})

    refused = signed_in(admin).post(
        reverse("web:season-enter-member", args=[season.slug]),
        {"username": ben.username},
        follow=True,
    )
    Profile.objects.update_or_create(user=ben, defaults={"birth_date": datetime.date(1990, 1, 1)})
    signed_in(admin).post(
        reverse("web:season-enter-member", args=[season.slug]), {"username": ben.username}
    )

    assert "has given no birth date" in shown_messages(refused)[-1]
    assert season.competition.entries.get().user == ben


def test_a_season_with_too_few_entrants_does_not_start_and_says_why():
    club, admin, (ben,) = make_club(members=1)
    season = make_season(club, admin, seats_per_game=3)
    season_enter(season=season, actor=admin, user=ben)

    response = signed_in(admin).post(reverse("web:season-start", args=[season.slug]), follow=True)

    assert "has 1 entrant; a table needs 3" in shown_messages(response)[-1]
    assert Season.objects.get().status == Season.Status.DRAFT


def test_an_admin_starts_a_season_and_its_first_games_open():
    club, admin, members = make_club(members=3)
    season = make_season(club, admin, seats_per_game=2, start_date=datetime.date(2020, 1, 6))
    for person in [admin, *members]:
        season_enter(season=season, actor=admin, user=person)

    response = signed_in(admin).post(reverse("web:season-start", args=[season.slug]), follow=True)

    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    opened = Fixture.objects.filter(division__season=season, game__isnull=False)
    assert opened.count() == 2
    assert Game.objects.filter(fixture__in=opened).count() == 2
    assert shown_messages(response)[-1] == f"{season.name} has started: 2 games open."
    shown = page(response)
    assert "Running since" in shown and "2 games started so far" in shown
    assert "Close the season" in shown


def words(response) -> str:
    """The page's text as a reader sees it: no tags, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page(response))).strip()


def test_a_season_started_after_its_planned_day_says_one_first_day_everywhere():
    """Planned for yesterday and started today, the first round opens today: the settings, the
    status line, the round's dates and the club's list of seasons all say today."""
    club, admin, members = make_club(members=1)
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    season = make_season(club, admin, seats_per_game=2, start_date=yesterday)
    for person in [admin, *members]:
        season_enter(season=season, actor=admin, user=person)
    client = signed_in(admin)

    shown = words(client.post(reverse("web:season-start", args=[season.slug]), follow=True))

    today = timezone.localdate()
    assert f"Running since {today:%-d %b %Y}:" in shown
    assert f"First round opened {today:%a %-d %b %Y}" in shown
    assert f"Round 1 opened {today:%a %-d %b}" in shown
    assert f"{yesterday:%-d %b}" not in shown
    listed = words(client.get(reverse("web:club", args=[club.slug])))
    assert f"{season.name} Official · from {today:%-d %b %Y}" in listed


def test_a_season_started_before_its_day_opens_its_first_round_on_that_day():
    club, admin, members = make_club(members=1)
    later = timezone.localdate() + datetime.timedelta(days=3)
    season = make_season(club, admin, seats_per_game=2, start_date=later)
    for person in [admin, *members]:
        season_enter(season=season, actor=admin, user=person)

    response = signed_in(admin).post(reverse("web:season-start", args=[season.slug]), follow=True)

    shown = words(response)
    assert f"First round opens {later:%a %-d %b %Y}" in shown
    assert f"Round 1 opens {later:%a %-d %b}" in shown
    # Its table opens on that day: there is no round before the first to finish sooner.
    assert f"Opens {later:%a %-d %b} ." in shown and "the round before it" not in shown
    assert "0 games started so far" in shown
    assert not Fixture.objects.filter(division__season=season, game__isnull=False).exists()
    with time_machine.travel(later.isoformat() + " 00:00:30Z", tick=False):
        open_due_rounds(season=season)
        shown = words(signed_in(admin).get(reverse("web:season", args=[season.slug])))
    assert f"First round opened {later:%a %-d %b %Y}" in shown
    assert f"Round 1 opened {later:%a %-d %b}" in shown
    assert "1 game started so far" in shown


def test_a_running_season_closes_only_when_its_fixtures_are_done():
    club, admin, members = make_club(members=1)
    season = make_season(club, admin, seats_per_game=2, start_date=datetime.date(2020, 1, 6))
    for person in [admin, *members]:
        season_enter(season=season, actor=admin, user=person)
    client = signed_in(admin)
    client.post(reverse("web:season-start", args=[season.slug]))

    response = client.post(
        reverse("web:season-close", args=[season.slug]), {"confirm": "1"}, follow=True
    )

    assert "fixtures have not finished" in shown_messages(response)[-1]
    assert Season.objects.get().status == Season.Status.RUNNING


@pytest.mark.django_db(transaction=True)
def test_an_admin_closes_a_finished_season_and_sets_up_the_next(eager_tasks):
    season, ada, _ = autumn_season()
    client = signed_in(ada)
    client.post(reverse("web:season-start", args=[season.slug]))
    play_season_out(season, ada)

    closed = client.post(
        reverse("web:season-close", args=[season.slug]), {"confirm": "1"}, follow=True
    )

    assert shown_messages(closed)[-1] == "Autumn League is closed; its final tables are kept."
    assert reverse("web:season-next", args=[season.slug]) in page(closed)
    asked = client.get(reverse("web:season-next", args=[season.slug]))
    assert asked.status_code == 200 and "Set up the next season" in page(asked)

    response = client.post(
        reverse("web:season-next", args=[season.slug]),
        {"name": "Winter League", "slug": "", "start_date": "2027-01-04"},
        follow=True,
    )

    following = Season.objects.get(competition__slug="winter-league")
    assert following.previous_id == season.pk and following.status == Season.Status.DRAFT
    assert following.competition.entries.filter(active=True).count() == 6
    assert response.redirect_chain[-1][0] == reverse("web:season", args=["winter-league"])
    assert "Follows <a" in page(response) and "Start the season" in page(response)
    again = client.post(
        reverse("web:season-next", args=[season.slug]),
        {"name": "Another", "slug": "", "start_date": "2027-01-04"},
    )
    assert "already has a next season" in page(again)
    assert Season.objects.count() == 2
