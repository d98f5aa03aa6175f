"""Renaming and retiring a bot on its owner's pages (web/bots.py): the rename form on the bot's
page, checked as at registration; "Your bots" with a Retire link on each bot in service and the
retired bots listed apart; the retirement asked first (or refused, saying what holds the bot),
then done; a retired bot's pages say so and offer nothing to change. A refused form changes
nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from bots.remote.tokens import issue_token
from games.creation import SeatSpec, game_create
from games.models import Bot
from league.models import Entry, Season
from league.seasons import season_close, season_enter
from tests.games.factories import SHORT, make_user
from tests.league.factories import make_club, make_competition, make_season
from tests.web.clients import signed_in
from tests.web.ladder_pages import board_rows, owned_bot, played_ladder
from tests.web.league_pages import text

pytestmark = pytest.mark.django_db


def shown_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def row(bot: Bot) -> dict:
    return Bot.objects.filter(pk=bot.pk).values().get()


def forms(html: str) -> list[str]:
    return re.findall(r"<form .*?</form>", html.split('id="main"')[1], re.S)


def test_renaming_on_the_bots_page_shows_the_new_name_everywhere():
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta")
    client = signed_in(ada)

    page = client.get(reverse("web:my-bot", args=[greta.pk])).content.decode()
    [rename] = [form for form in forms(page) if "rename-name" in form]
    assert f'action="{reverse("web:my-bot-rename", args=[greta.pk])}"' in rename
    assert 'value="Greta"' in rename and "Rename it" in rename

    response = client.post(
        reverse("web:my-bot-rename", args=[greta.pk]), {"rename-name": " Greta II "}, follow=True
    )

    assert shown_messages(response) == [
        "Greta is renamed Greta II: its pages, ladders and games say so now."
    ]
    assert "<h1>Greta II</h1>" in response.content.decode()
    public = Client().get(reverse("web:bot", args=[greta.pk])).content.decode()
    assert "Greta II bot" in text(public)
    mine = client.get(reverse("web:my-bots")).content.decode()
    assert ">Greta II</a>" in mine and ">Greta</a>" not in mine


def test_a_closed_seasons_archived_table_keeps_the_name_it_closed_with():
    ada = make_user("ada")
    club, _, _ = make_club(admin=ada)
    closed = make_season(club, ada, name="Spring", slug="spring")
    running = make_season(club, ada, name="Summer", slug="summer")
    greta = owned_bot(ada, "Greta")
    for season in (closed, running):
        season_enter(season=season, actor=ada, bot=greta)
        Season.objects.filter(pk=season.pk).update(status=Season.Status.RUNNING)
    season_close(season=closed, admin=ada)

    signed_in(ada).post(reverse("web:my-bot-rename", args=[greta.pk]), {"rename-name": "Gretel"})

    spring = text(Client().get(reverse("web:season", args=["spring"])).content.decode())
    summer = text(Client().get(reverse("web:season", args=["summer"])).content.decode())
    assert "Greta" in spring and "Gretel" not in spring
    assert "Gretel" in summer and "Greta " not in summer


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("Rex", "You already have a bot named &#x27;Rex&#x27;."),
        ("Old", "Your retired bot is named &#x27;Old&#x27;, and a retired bot keeps its name"),
        ("", "This field is required."),
        ("x" * 65, "Ensure this value has at most 64 characters (it has 65)."),
    ],
    ids=["taken", "kept-by-a-retired-bot", "blank", "too-long"],
)
def test_a_refused_name_is_shown_on_the_rename_form_and_changes_nothing(name, error):
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta")
    owned_bot(ada, "Rex")
    owned_bot(ada, "Old", status=Bot.Status.RETIRED)
    before = row(greta)

    response = signed_in(ada).post(
        reverse("web:my-bot-rename", args=[greta.pk]), {"rename-name": name}
    )

    assert response.status_code == 200
    [rename] = [form for form in forms(response.content.decode()) if "rename-name" in form]
    assert 'class="errorlist' in rename and error in rename
    assert row(greta) == before


def test_your_bots_lists_the_retired_ones_apart():
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta")
    old = owned_bot(ada, "Old Rex", status=Bot.Status.RETIRED)
    client = signed_in(ada)

    html = client.get(reverse("web:my-bots")).content.decode()

    in_service, retired = html.split('id="retired-heading"')
    retired = retired.split('class="section-title"')[0]
    assert ">Greta</a>" in in_service and "Old Rex" not in in_service
    retire = reverse("web:my-bot-retire", args=[greta.pk])
    assert f'href="{retire}">retire<span class="visually-hidden"> Greta</span>…</a>' in html
    assert "Retired bots They play nothing new" in text(retired)
    assert ">Old Rex</a>" in retired and "Greta" not in retired
    assert reverse("web:my-bot-retire", args=[old.pk]) not in html
    assert f'href="{reverse("web:bot", args=[old.pk])}"' in retired


def test_retiring_is_asked_first_then_done():
    ada = make_user("ada")
    puller = owned_bot(ada, "Puller", kind=Bot.Kind.PULL, strategy="")
    issue_token(puller)
    ladder = make_competition(name="Open Ladder", slug="open")
    Entry.objects.create(competition=ladder, bot=puller)
    client = signed_in(ada)
    url = reverse("web:my-bot-retire", args=[puller.pk])

    asked = client.get(url).content.decode()
    words = text(asked)
    assert "Retire Puller?" in words and "Retiring is for good" in words
    assert "Its token stops working at once." in words
    [form] = forms(asked)
    assert "csrfmiddlewaretoken" in form and "Retire Puller</button>" in form
    assert Bot.objects.get(pk=puller.pk).status == "active"  # asking changes nothing

    response = client.post(url, follow=True)

    assert response.redirect_chain[-1][0] == reverse("web:my-bots")
    assert shown_messages(response) == [
        "Puller is retired: it plays nothing new; its games and ratings stay."
    ]
    assert not Entry.objects.get(competition=ladder, bot=puller).active
    public = text(Client().get(reverse("web:bot", args=[puller.pk])).content.decode())
    assert "Status retired (by its owner: it plays no more) Retired" in public
    # Its own page says so, and offers nothing to change.
    page = client.get(reverse("web:my-bot", args=[puller.pk])).content.decode()
    assert "Retired: it enters no ladder." in text(page)
    assert "its token opens nothing" in text(page)
    assert forms(page) == []
    assert "Make a new token" not in page and "Retire Puller" not in page
    again = client.get(url, follow=True)
    assert shown_messages(again) == ["Puller is retired already."]


def test_a_bot_held_by_a_running_game_is_not_offered_the_button_and_stays():
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta", kind=Bot.Kind.PULL, strategy="")
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(registered=greta), SeatSpec(bot="greedy")], seed=1
    )
    client = signed_in(ada)
    url = reverse("web:my-bot-retire", args=[greta.pk])
    before = row(greta)

    asked = client.get(url).content.decode()
    refused = client.post(url, follow=True)

    assert f"Greta cannot retire yet: It is seated in game {game.pk}, still being played." in (
        text(asked)
    )
    assert forms(asked) == []
    assert shown_messages(refused) == [
        f"Bot Greta cannot retire yet: it is seated in game {game.pk}, still being played."
    ]
    assert row(greta) == before


def test_a_retired_bots_changes_are_refused_in_words():
    ada = make_user("ada")
    puller = owned_bot(ada, "Puller", kind=Bot.Kind.PULL, strategy="", status=Bot.Status.RETIRED)
    client = signed_in(ada)
    before = row(puller)

    responses = [
        client.post(
            reverse("web:my-bot-rename", args=[puller.pk]), {"rename-name": "P2"}, follow=True
        ),
        client.post(reverse("web:my-bot", args=[puller.pk]), {"url": "x"}, follow=True),
        client.get(reverse("web:my-bot-token", args=[puller.pk]), follow=True),
        client.post(reverse("web:my-bot-token", args=[puller.pk]), follow=True),
    ]
    validated = client.post(reverse("web:my-bot-validate", args=[puller.pk]), follow=True)

    for response in responses:
        assert shown_messages(response) == ["Puller is retired: nothing about it changes any more."]
    assert shown_messages(validated) == ["Bot Puller is retired: it cannot be validated again."]
    assert row(puller) == before


def test_the_ladder_page_offers_no_entry_to_a_retired_bot():
    ada = make_user("ada")
    make_competition(name="Open Ladder", slug="open")
    owned_bot(ada, "Greta")
    owned_bot(ada, "Old Rex", status=Bot.Status.RETIRED)

    html = signed_in(ada).get(reverse("web:ladder", args=["open"])).content.decode()

    assert "Enter Greta" in text(html) and "Old Rex" not in html


@pytest.mark.django_db(transaction=True)
def test_a_retired_bot_keeps_its_place_on_the_leaderboard_marked_retired(eager_tasks):
    played = played_ladder(rounds=1)
    greta = played.bots["Greta"]
    client = signed_in(played.ada)

    response = client.post(reverse("web:my-bot-retire", args=[greta.pk]), follow=True)

    assert shown_messages(response)[0].startswith("Greta is retired")
    html = Client().get(reverse("web:ladder", args=["open"])).content.decode()
    [cells] = [cells for _, cells in board_rows(html) if cells[1].startswith("Greta")]
    assert cells[1] == "Greta bot retired"
    others = [cells[1] for _, cells in board_rows(html) if not cells[1].startswith("Greta")]
    assert others and all("retired" not in name for name in others)
