"""The ladder pages (web/ladders.py): every ladder in words; a ladder's leaderboard from ratings
its bots earned by playing (matchmaking and the eager workers, then the projections), each line
linked and marked bot or person, with its trend drawn; the unranked entrants; entering and
leaving for a signed-in person and their bots, every refusal in words, nothing changed by a
refused or malformed form."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Profile
from games.errors import Forbidden
from games.models import Bot
from league.errors import CompetitionError
from league.ladder_reads import leaderboard
from league.models import Competition, Entry, Rating
from tests.games.factories import make_user
from tests.league.factories import make_competition
from tests.web.clients import signed_in
from tests.web.ladder_pages import ONE_HAND, board_rows, owned_bot, played_ladder
from tests.web.league_pages import text
from web.ladders import REFUSALS, refusal_text

# Transactional: the eager workers play the ladder's games when matchmaking commits.
pytestmark = pytest.mark.django_db(transaction=True)


def shown_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def active_entries(ladder: Competition) -> set[tuple[int | None, int | None]]:
    return set(
        Entry.objects.filter(competition=ladder, active=True).values_list("user_id", "bot_id")
    )


@pytest.fixture
def played(eager_tasks):
    return played_ladder()


# The list


def test_the_ladders_page_describes_every_ladder():
    make_competition(
        name="Open Ladder", slug="open", variant=ONE_HAND, seats_per_game=3, matchmaking=True
    )
    quiet = make_competition(
        name="Quiet Ladder",
        slug="quiet",
        variant={"rules": "newno"},
        seats_per_game=4,
        duplicate=False,
        matchmaking=False,
    )
    league = make_competition(kind=Competition.Kind.LEAGUE, name="A League", slug="a-league")
    Entry.objects.create(competition=quiet, bot=owned_bot(make_user(), "Solo"))

    html = Client().get(reverse("web:ladders")).content.decode()
    words = text(html)

    assert "Open Ladder matchmaking on Official · single hand" in words
    assert "Tables of 3 · duplicate deals on · 0 entrants" in words
    assert "Quiet Ladder matchmaking paused NEWNO" in words
    assert "Tables of 4 · duplicate deals off · 1 entrant" in words
    assert reverse("web:ladder", args=["open"]) in html
    assert league.name not in html  # a league is no ladder
    assert f'href="{reverse("web:ladders")}">Ladders</a>' in html  # in the site's navigation


def test_a_ladder_that_does_not_exist_or_is_a_league_is_not_found():
    make_competition(kind=Competition.Kind.LEAGUE, slug="a-league")
    assert Client().get(reverse("web:ladder", args=["nothing"])).status_code == 404
    assert Client().get(reverse("web:ladder", args=["a-league"])).status_code == 404


# The leaderboard


def test_the_leaderboard_ranks_the_rated_entrants_with_their_numbers_links_and_trend(played):
    board = leaderboard(played.ladder)

    html = Client().get(reverse("web:ladder", args=["open"])).content.decode()

    rows = board_rows(html)
    assert len(board.ranked) == 4
    # The rating in words, as the ladders list says it; mu and sigma stay for bot authors.
    assert ">Rating</abbr></th>" in html and "Ordinal" not in html
    assert (
        "Ranked by rating. A rating is a cautious estimate of skill: it rises with wins and as "
        "the record grows." in " ".join(html.split())
    )
    assert [cells[1] for _, cells in rows] == [line.name + " bot" for line in board.ranked]
    for (row, cells), line in zip(rows, board.ranked, strict=True):
        assert cells[2:9] == [
            line.owner,
            f"{line.ordinal:.2f}",
            f"{line.mu:.2f}",
            f"{line.sigma:.2f}",
            f"{line.sets} / {line.games}",
            f"{line.win_rate:.0%}",
            "just now",
        ]
        assert f'href="{reverse("web:bot", args=[line.bot_id])}"' in row
        assert f'href="{reverse("web:player", args=[line.owner])}"' in row
        assert '<span class="kind kind--bot">bot</span>' in row
        # The trend: an inline SVG line through the last ordinals (three sets each here).
        assert len(line.trend) == 3
        [points] = re.findall(r'<polyline points="([^"]+)"', row)
        assert len(points.split()) == 3
    ranks = [cells[0] for _, cells in rows]
    assert ranks == [str(line.rank) for line in board.ranked]
    # Each entrant's rank: one more than those rated strictly above it (ties share a rank; the
    # games' bots are seeded by game ids, so whether two entrants tie depends on the suite).
    ordinals = [round(line.ordinal, 6) for line in board.ranked]
    assert ranks == [str(1 + sum(other > mine for other in ordinals)) for mine in ordinals]
    assert "Every entrant is on the board." in html
    assert "data-card" not in html


def test_entrants_never_rated_or_away_too_long_are_listed_off_the_board(played):
    ada = played.ada
    Profile.objects.update_or_create(user=ada, defaults={"birth_date": datetime.date(1990, 1, 1)})
    Entry.objects.create(competition=played.ladder, user=ada)
    away = timezone.now() - datetime.timedelta(days=40)
    Rating.objects.filter(entry=played.entries["Rex"]).update(rated_at=away, last_played=away)

    html = Client().get(reverse("web:ladder", args=["open"])).content.decode()

    ranked, unranked = html.split('id="unranked-heading"')
    assert "Rex" not in text(ranked.split('id="board-heading"')[1])
    off = board_rows(unranked)
    # By name, as league.ladder_reads lists them.
    assert [cells[0] for _, cells in off] == ["Rex bot", "ada person"]
    rex, ada_line = off
    assert f'href="{reverse("web:player", args=["ada"])}"' in ada_line[0]
    assert '<span class="kind kind--person">person</span>' in ada_line[0]
    assert ada_line[1][-2:] == ["never", "–"]  # never played, no trend
    assert rex[1][-2] == away.strftime("%-d %b %Y")  # long ago: the day
    assert "standing__rank" not in unranked.split("</table>")[0]


def test_an_empty_ladder_says_so():
    make_competition(name="New Ladder", slug="new", variant=ONE_HAND)
    html = Client().get(reverse("web:ladder", args=["new"])).content.decode()
    assert "Nobody is ranked yet" in html
    assert "Sign in</a> to enter yourself or your bots" in html
    assert "<form" not in html.split('id="main"')[1]


# Entering and leaving


def test_a_signed_in_person_sees_a_form_for_themselves_and_each_bot(played):
    ada = played.ada
    owned_bot(ada, "Newbie", status=Bot.Status.VALIDATING)

    html = signed_in(ada).get(reverse("web:ladder", args=["open"])).content.decode()

    panel = html.split('id="enter-heading"')[1]
    assert "Enter yourself" in panel
    assert "Withdraw Greta" in panel and "Withdraw Rex" in panel
    assert "Enter Newbie" in panel and "validating" in panel
    assert "Cole" not in panel  # cy's bot
    forms = re.findall(r"<form .*?</form>", panel, re.S)
    assert len(forms) == 4
    assert all("csrfmiddlewaretoken" in form for form in forms)


def test_entering_and_leaving_in_person_and_with_a_bot(played, client):
    ada = played.ada
    Profile.objects.update_or_create(user=ada, defaults={"birth_date": datetime.date(1990, 1, 1)})
    client.force_login(ada)
    url = reverse("web:ladder", args=["open"])
    greta = played.bots["Greta"]

    left = client.post(reverse("web:ladder-leave", args=["open"]), {"bot": greta.pk}, follow=True)
    assert left.redirect_chain == [(url, 302)]
    assert shown_messages(left) == [
        "Bot Greta is out of Open Ladder; a set already being played plays on to its end."
    ]
    assert (None, greta.pk) not in active_entries(played.ladder)

    entered = client.post(reverse("web:ladder-enter", args=["open"]), {"bot": ""}, follow=True)
    assert shown_messages(entered) == ["You are entered in Open Ladder."]
    assert (ada.pk, None) in active_entries(played.ladder)
    assert "Leave</button>" in entered.content.decode()

    back = client.post(
        reverse("web:ladder-enter", args=["open"]),
        {"bot": greta.pk, "next": reverse("web:my-bot", args=[greta.pk])},
    )
    assert back.url == reverse("web:my-bot", args=[greta.pk])
    assert (None, greta.pk) in active_entries(played.ladder)


def test_a_ladder_with_matchmaking_paused_says_so_on_entering():
    ladder = make_competition(name="Quiet", slug="quiet", variant=ONE_HAND, matchmaking=False)
    ada = make_user("ada")
    bot = owned_bot(ada, "Greta")

    response = signed_in(ada).post(
        reverse("web:ladder-enter", args=["quiet"]), {"bot": bot.pk}, follow=True
    )

    assert shown_messages(response) == [
        "Bot Greta is entered in Quiet. Its matchmaking is paused: no new table is seated until "
        "it is on again."
    ]
    assert active_entries(ladder) == {(None, bot.pk)}


CODES = [
    (
        "not-owner",
        "enter",
        "Bot Cole is not your bot: only its owner enters it in a ladder or takes it out.",
    ),
    (
        "bot-validating",
        "enter",
        "Bot Newbie is still playing its validation games: a ladder takes validated bots only. "
        "Enter it once its status is active.",
    ),
    (
        "bot-suspended",
        "enter",
        "Bot Newbie is suspended after too many strikes in a row: ask for a new validation on "
        "its page to reinstate it, then enter it.",
    ),
    (
        "bot-failed",
        "enter",
        "Bot Newbie failed its validation: fix it and ask for a new validation on its page, "
        "then enter it.",
    ),
    ("bot-retired", "enter", "Bot Newbie is retired: a retired bot enters no ladder."),
    ("already-entered", "enter", "Bot Greta is already entered in Open Ladder."),
    (
        "not-entered",
        "leave",
        "You are not entered in Open Ladder, so there was nothing to leave.",
    ),
]


@pytest.mark.parametrize(("code", "action", "said"), CODES, ids=[c[0] for c in CODES])
def test_every_refusal_is_a_message_in_words_and_changes_nothing(code, action, said):
    ladder = make_competition(name="Open Ladder", slug="open", variant=ONE_HAND)
    ada, cy = make_user("ada"), make_user("cy")
    greta = owned_bot(ada, "Greta")
    Entry.objects.create(competition=ladder, bot=greta)
    status = {
        "bot-validating": "validating",
        "bot-suspended": "suspended",
        "bot-failed": "failed",
        "bot-retired": "retired",
    }
    if code in status:
        bot = owned_bot(ada, "Newbie", status=status[code])
    else:
        bot = {"not-owner": owned_bot(cy, "Cole"), "already-entered": greta}.get(code)
    before = active_entries(ladder)

    response = signed_in(ada).post(
        reverse(f"web:ladder-{action}", args=["open"]),
        {"bot": bot.pk if bot else ""},
        follow=True,
    )

    assert response.status_code == 200
    assert shown_messages(response) == [said]
    assert said in response.content.decode()
    assert active_entries(ladder) == before


def test_newno_needs_the_persons_birth_date():
    ladder = make_competition(name="Newno Ladder", slug="newno", variant={"rules": "newno"})
    ada = make_user("ada")

    response = signed_in(ada).post(reverse("web:ladder-enter", args=["newno"]), follow=True)

    assert shown_messages(response) == [
        "Newno Ladder plays NEWNO, whose Youngest Rule needs your birth date: add it on your "
        "profile, then enter."
    ]
    assert active_entries(ladder) == set()


def test_the_codes_the_forms_cannot_reach_have_words_too():
    ladder = make_competition(name="Open Ladder", slug="open", variant=ONE_HAND)
    person = Forbidden("x", code="not-a-person")
    league = CompetitionError("x", code="not-a-ladder")
    assert refusal_text(person, ladder, None) == "Only a signed-in person enters a ladder."
    assert refusal_text(league, ladder, None) == "Open Ladder is not a ladder."
    assert set(REFUSALS) == {code for code, _, _ in CODES} | {
        "not-a-person",
        "not-a-ladder",
        "birth-date-missing",
        "ladder-for-bots",
    }


# A value that is no id at all ("greta", "-1", "²") is a 400: tests/web/test_bad_input.py.
@pytest.mark.parametrize("value", ["999999", "0"])
def test_a_bot_that_does_not_exist_changes_nothing(value):
    ladder = make_competition(name="Open Ladder", slug="open", variant=ONE_HAND)
    ada = make_user("ada")

    response = signed_in(ada).post(
        reverse("web:ladder-enter", args=["open"]), {"bot": value}, follow=True
    )

    assert shown_messages(response) == ["There is no such bot: choose one of yours."]
    assert active_entries(ladder) == set()


def test_entering_needs_a_signed_in_person_a_post_and_never_leaves_the_site():
    make_competition(name="Open Ladder", slug="open", variant=ONE_HAND)
    url = reverse("web:ladder-enter", args=["open"])
    ada = make_user("ada")

    anonymous = Client().post(url)
    assert anonymous.status_code == 302 and reverse("login") in anonymous.url
    assert signed_in(ada).get(url).status_code == 405
    elsewhere = signed_in(ada).post(url, {"next": "https://evil.example/"})
    assert elsewhere.url == reverse("web:ladder", args=["open"])
    assert signed_in(ada).post(reverse("web:ladder-enter", args=["nothing"])).status_code == 404


def test_a_post_without_its_csrf_token_is_refused():
    ladder = make_competition(name="Open Ladder", slug="open", variant=ONE_HAND)
    ada = make_user("ada")
    client = Client(enforce_csrf_checks=True)
    client.force_login(ada)

    response = client.post(reverse("web:ladder-enter", args=["open"]), {"bot": ""})

    assert response.status_code == 403
    assert active_entries(ladder) == set()


def test_a_ladder_for_bots_offers_no_entry_in_person_and_refuses_one(settings):
    settings.LEAGUE_BOT_LADDERS = ["arena"]
    ladder = make_competition(name="Arena", slug="arena", variant=ONE_HAND)
    ada = make_user("ada")
    owned_bot(ada, "Greta")
    client = signed_in(ada)

    page = client.get(reverse("web:ladder", args=["arena"])).content.decode()
    assert "Enter Greta</button>" in page
    assert "Enter yourself</button>" not in page

    response = client.post(reverse("web:ladder-enter", args=["arena"]), {"bot": ""}, follow=True)
    assert shown_messages(response) == [
        "Arena is a ladder for bots: enter one of your bots, not yourself."
    ]
    assert active_entries(ladder) == set()


def test_a_ladder_for_bots_says_so_to_a_visitor_and_in_the_list(settings):
    settings.LEAGUE_BOT_LADDERS = ["arena"]
    make_competition(name="Arena", slug="arena", variant=ONE_HAND)

    words = text(Client().get(reverse("web:ladder", args=["arena"])).content.decode())
    assert "Bots only: people enter their bots, not themselves" in words
    assert "Sign in to enter one of your bots (this ladder is for bots" in words
    assert "yourself" not in words

    # The list's only ladder is for bots: it does not invite people in person.
    listed = text(Client().get(reverse("web:ladders")).content.decode())
    assert "Always open: bots enter (their owners enter them" in listed
    # Said in words, not as the model's formula (the ladder's own page gives it).
    assert "A rating is a cautious estimate of skill" in listed
    assert "sigma" not in listed
    assert "people and bots enter" not in listed
    assert "uno penalty 2 Bots only · Tables of 2" in listed

    # Beside a ladder for everyone, each says which it is.
    make_competition(name="Open", slug="open", variant=ONE_HAND)
    listed = text(Client().get(reverse("web:ladders")).content.decode())
    assert "Always open: people and bots enter (bots only where a ladder says so)" in listed
    assert "uno penalty 2 People and bots · Tables of 2" in listed
    open_page = text(Client().get(reverse("web:ladder", args=["open"])).content.decode())
    assert "People and bots · tables of" in open_page
    assert "Sign in to enter yourself or your bots." in open_page
