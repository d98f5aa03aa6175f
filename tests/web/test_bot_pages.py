"""The bot pages (web/bots.py): a bot's public page (its ladders with rank, rating, the history
chart and head-to-head, its recent games linked to replays, never a card), and its owner's
pages: registering each kind (a pull bot's token and a secret we made shown once), changing it,
a new token, a new validation, stats and recent calls, and 404 for anyone else's bot. A refused
or malformed form changes nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bots.remote.tokens import issue_token, token_hash
from games.creation import SeatSpec, game_create
from games.models import Bot, BotCall, Game
from league.ladder_reads import head_to_head, history, leaderboard
from league.models import Entry, LadderMeeting
from league.services import competition_join
from staff.actions import bot_suspend
from tests.games.factories import SHORT, make_user
from tests.league.factories import make_competition
from tests.web.clients import signed_in
from tests.web.ladder_pages import owned_bot, played_ladder
from tests.web.league_pages import text

pytestmark = pytest.mark.django_db

HOOK = "http://127.0.0.1:9/move"


@pytest.fixture(autouse=True)
def quick_validation(settings):
    settings.BOTS_VALIDATION_MATCHES = 1
    settings.BOTS_ALLOW_LOOPBACK_URLS = True


def shown_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def bot_rows() -> list[tuple]:
    return list(Bot.objects.order_by("pk").values_list("owner", "name", "kind", "strategy", "url"))


# The public page


@pytest.mark.django_db(transaction=True)
def test_a_bots_public_page_shows_its_ladder_rating_chart_head_to_head_and_games(eager_tasks):
    played = played_ladder()
    greta = played.bots["Greta"]
    entry = played.entries["Greta"]
    [line] = [line for line in leaderboard(played.ladder).ranked if line.bot_id == greta.pk]
    changes = history(entry)

    html = Client().get(reverse("web:bot", args=[greta.pk])).content.decode()
    words = text(html)

    assert "Greta bot" in words
    assert "Owner ada Kind built-in strategy: greedy Status active" in words
    assert f'href="{reverse("web:player", args=["ada"])}"' in html
    assert f'href="{reverse("web:ladder", args=["open"])}"' in html
    # The rating as a player reads it, then the model's numbers for a bot's author.
    assert "Ordinal" not in words
    assert (
        f"Rank {line.rank} Rating {line.ordinal:.2f} · A rating is a cautious estimate of skill: "
        f"it rises with wins and as the record grows. (For bot authors: mu {line.mu:.2f} − 3 × "
        f"sigma {line.sigma:.2f}.)"
    ) in words
    assert f"{line.sets} sets, {line.games} games" in words
    # The chart: the start and one point per rating event, the band, both axes labelled.
    [chart] = re.findall(r'<figure class="rating-chart">.*?</figure>', html, re.S)
    # Drawn twice, wide and for a phone (the CSS shows one), the same history.
    drawings = re.findall(r'<polyline class="rating-chart__line" points="([^"]+)"', chart)
    assert [len(points.split()) for points in drawings] == [len(changes) + 1] * 2 == [4, 4]
    assert 'rating-chart__svg--wide" viewBox="0 0 640 ' in chart
    assert 'rating-chart__svg--narrow" viewBox="0 0 320 ' in chart
    assert 'class="rating-chart__band"' in chart
    assert "Rating events (0: the start)" in chart and "Rating (mu − 3σ)" in chart
    assert f"event 3: rating {changes[-1].mu - 3 * changes[-1].sigma:.2f}" in chart
    # Head to head, most met first, each opponent linked to its page.
    meetings = re.findall(r'<tr class="meeting">(.*?)</tr>', html, re.S)
    expected = head_to_head(entry)
    assert len(meetings) == len(expected) == 3
    for row, meeting in zip(meetings, expected, strict=True):
        assert text(row) == f"{meeting.name} bot {meeting.games} {meeting.ahead} {meeting.behind}"
        assert f'href="{reverse("web:bot", args=[meeting.bot_id])}"' in row
    # Its games, newest first, each linked to its replay, with its place.
    games = Game.objects.filter(seats__registered_bot=greta).order_by("-created_at", "-pk")
    links = re.findall(r'<li class="recent-game">\s*<span><a href="([^"]+)"', html)
    assert links == [reverse("web:replay", args=[game.pk]) for game in games]
    assert "data-card" not in html
    assert "Manage this bot" not in html


def test_a_playing_game_links_to_its_play_page_and_the_owner_gets_a_way_to_manage(client):
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta")
    game = game_create(
        variant_spec=SHORT, seats=[SeatSpec(registered=greta), SeatSpec(bot="random")], seed=1
    )

    html = signed_in(ada).get(reverse("web:bot", args=[greta.pk])).content.decode()

    assert f'<a href="{reverse("web:play", args=[game.pk])}">Watch game {game.pk}</a>' in html
    assert "playing" in text(html.split('id="games-heading"')[1])
    assert "Not in any ladder yet." in html
    assert f'href="{reverse("web:my-bot", args=[greta.pk])}"' in html
    assert "data-card" not in html


def test_the_public_page_keeps_the_owners_reasons_to_the_owner():
    greta = owned_bot(make_user("ada"), "Greta", status=Bot.Status.FAILED)
    Bot.objects.filter(pk=greta.pk).update(status_reason="validation game 4: illegal command")

    html = Client().get(reverse("web:bot", args=[greta.pk])).content.decode()

    assert "failed (did not pass its validation)" in text(html)
    assert "illegal command" not in html
    assert Client().get(reverse("web:bot", args=[999999])).status_code == 404


# The owner's list and registering


def test_my_bots_lists_only_mine_and_offers_a_form_for_each_kind():
    ada, cy = make_user("ada"), make_user("cy")
    owned_bot(ada, "Greta")
    owned_bot(cy, "Cole")

    assert Client().get(reverse("web:my-bots")).status_code == 302  # sign in first
    html = signed_in(ada).get(reverse("web:my-bots")).content.decode()

    assert "Greta" in html and "Cole" not in html
    # Its kind in the words of its public page, not the stored value ("builtin").
    assert '<span class="muted">built-in strategy: greedy</span>' in html
    forms = re.findall(r"<form .*?</form>", html.split('id="main"')[1], re.S)
    kinds = [re.search(r'name="kind" value="(\w+)"', form).group(1) for form in forms]
    assert kinds == ["builtin", "webhook", "pull"]
    assert all("csrfmiddlewaretoken" in form for form in forms)
    assert '<select name="builtin-strategy"' in html and "stacker" in html
    assert f'href="{reverse("web:my-bots")}">Bots</a>' in html  # in the site's navigation
    # The webhook's help links to the guide's section, not to a file of the repository.
    assert "docs/bots-api.md" not in html
    assert 'href="/guides/bots-api/#webhook-bots"' in html
    guide = Client().get("/guides/bots-api/").content.decode()
    assert 'id="webhook-bots"' in guide
    # The arena in one file, to try a bot at home, and the line that runs it.
    assert (
        '<a href="/downloads/uno-arena.pyz" download>Download the arena (one file, needs '
        "Python 3.11+)</a>" in html
    )
    assert '<code>python uno-arena.pyz --command "node my_bot.mjs"</code>' in html
    assert 'href="/guides/bots-api/#trying-a-bot-locally"' in html
    assert 'id="trying-a-bot-locally"' in guide


def test_registering_a_built_in_bot(eager_tasks):
    ada = make_user("ada")

    response = signed_in(ada).post(
        reverse("web:my-bots"),
        {"kind": "builtin", "builtin-name": "Greta", "builtin-strategy": "stacker"},
        follow=True,
    )

    bot = Bot.objects.get(owner=ada)
    assert (bot.name, bot.kind, bot.strategy) == ("Greta", "builtin", "stacker")
    html = response.content.decode()
    assert "Greta is registered" in html
    assert "bot-token" not in html and "bot-secret" not in html
    assert reverse("web:my-bot", args=[bot.pk]) in html


def test_a_pull_bots_token_is_shown_once_on_the_page_that_makes_it():
    ada = make_user("ada")
    client = signed_in(ada)

    response = client.post(
        reverse("web:my-bots"), {"kind": "pull", "pull-name": "Puller"}, follow=True
    )

    bot = Bot.objects.get(owner=ada)
    [token] = re.findall(r'id="bot-token" [^>]*>([^<]+)</textarea>', response.content.decode())
    assert token_hash(token) == bot.token_hash
    assert "no-store" in response["Cache-Control"]
    later = client.get(reverse("web:my-bot", args=[bot.pk])).content.decode()
    assert token not in later
    assert token not in client.get(reverse("web:my-bots")).content.decode()
    # Until its first poll it plays nothing: its page says what it waits for, not that its
    # validation games are under way.
    words = text(later)
    assert "validating (waiting for its first poll for decisions)" in words
    assert "Its validation games start at its first poll" in words
    assert "under way" not in words and "playing its validation games" not in words


def test_a_webhook_bots_secret_is_shown_once_when_we_made_it():
    ada = make_user("ada")
    client = signed_in(ada)

    made = client.post(
        reverse("web:my-bots"),
        {"kind": "webhook", "webhook-name": "Hook", "webhook-url": HOOK, "webhook-secret": ""},
        follow=True,
    ).content.decode()
    given = client.post(
        reverse("web:my-bots"),
        {"kind": "webhook", "webhook-name": "Hook2", "webhook-url": HOOK, "webhook-secret": "s3"},
        follow=True,
    ).content.decode()

    hook, hook2 = Bot.objects.filter(owner=ada).order_by("pk")
    assert (hook.url, hook.status) == (HOOK, "validating")
    assert re.search(rf'id="bot-secret" [^>]*>{re.escape(hook.secret)}</textarea>', made)
    assert hook2.secret == "s3" and "bot-secret" not in given
    assert hook.secret not in client.get(reverse("web:my-bot", args=[hook.pk])).content.decode()


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"kind": "builtin", "builtin-name": "", "builtin-strategy": "greedy"}, "required"),
        ({"kind": "builtin", "builtin-name": "X", "builtin-strategy": "cheat"}, "valid choice"),
        ({"kind": "webhook", "webhook-name": "X", "webhook-url": "ftp://x"}, "valid URL"),
        ({"kind": "builtin", "builtin-name": "Greta", "builtin-strategy": "greedy"}, "named"),
    ],
    ids=["blank-name", "unknown-strategy", "bad-url", "name-taken"],
)
def test_a_refused_registration_is_shown_on_its_form_and_registers_nothing(data, error):
    ada = make_user("ada")
    owned_bot(ada, "Greta")
    before = bot_rows()

    response = signed_in(ada).post(reverse("web:my-bots"), data)

    assert response.status_code == 200
    kind = data["kind"]
    form = response.content.decode().split(f'id="register-{kind}"')[1].split("</form>")[0]
    assert error in form and 'class="errorlist' in form
    assert bot_rows() == before


def test_a_private_webhook_address_is_refused_by_the_registry(settings):
    settings.BOTS_ALLOW_LOOPBACK_URLS = False
    ada = make_user("ada")

    response = signed_in(ada).post(
        reverse("web:my-bots"), {"kind": "webhook", "webhook-name": "Hook", "webhook-url": HOOK}
    )

    form = response.content.decode().split('id="register-webhook"')[1].split("</form>")[0]
    assert "127.0.0.1" in form and 'class="errorlist' in form
    assert not Bot.objects.exists()


def test_an_unknown_kind_registers_nothing():
    ada = make_user("ada")
    response = signed_in(ada).post(reverse("web:my-bots"), {"kind": "robot"}, follow=True)
    assert shown_messages(response) == ["Choose a kind of bot: built-in, webhook or pull."]
    assert not Bot.objects.exists()


def test_bot_changes_share_the_apis_budget(settings):
    settings.API_BOT_CHANGES_RATE = "1/hour"
    ada = make_user("ada")
    client = signed_in(ada)

    client.post(reverse("web:my-bots"), {"kind": "pull", "pull-name": "One"})
    second = client.post(reverse("web:my-bots"), {"kind": "pull", "pull-name": "Two"})

    assert list(Bot.objects.values_list("name", flat=True)) == ["One"]
    assert "You have registered or changed bots often lately" in second.content.decode()


# The owner's page of one bot


def test_someone_elses_bot_is_not_found_on_every_owners_page():
    ada, cy = make_user("ada"), make_user("cy")
    cole = owned_bot(cy, "Cole", kind=Bot.Kind.PULL, strategy="")
    before = bot_rows()
    client = signed_in(ada)

    for name in ("web:my-bot", "web:my-bot-token", "web:my-bot-shown"):
        assert client.get(reverse(name, args=[cole.pk])).status_code == 404
    for name in ("web:my-bot", "web:my-bot-validate", "web:my-bot-token"):
        assert client.post(reverse(name, args=[cole.pk]), {"url": HOOK}).status_code == 404
    assert bot_rows() == before
    assert Client().get(reverse("web:my-bot", args=[cole.pk])).status_code == 302


def test_the_owners_page_shows_status_reason_stats_calls_games_and_ladders():
    ada = make_user("ada")
    hook = owned_bot(ada, "Hook", kind=Bot.Kind.WEBHOOK, strategy="", url=HOOK, secret="k")
    Bot.objects.filter(pk=hook.pk).update(
        status=Bot.Status.SUSPENDED,
        status_reason="suspended after 3 strikes in a row; the last: timeout",
        calls=8,
        total_latency=2.0,
        timeouts=3,
        errors=1,
        illegal_answers=2,
        strikes=3,
    )
    now = timezone.now()
    BotCall.objects.create(bot=hook, game_id=41, at=now, outcome="timeout", latency=1.002)
    BotCall.objects.create(bot=hook, game_id=41, at=now, outcome="ok", latency=0.125)
    ladder = make_competition(name="Quiet Ladder", slug="quiet", matchmaking=False)
    Entry.objects.create(competition=ladder, bot=hook)

    html = signed_in(ada).get(reverse("web:my-bot", args=[hook.pk])).content.decode()
    words = text(html)

    assert "suspended after 3 strikes in a row; the last: timeout" in words
    assert (
        "Decisions asked 8 Mean latency 0.250 s Timeouts 3 Errors 1 Illegal answers 2 "
        "Strikes in a row 3" in words
    )
    calls = re.findall(r'<tr class="call call--(\w+)">(.*?)</tr>', html, re.S)
    latencies = [(outcome, re.findall(r"(\d+\.\d{3}) s", row)) for outcome, row in calls]
    assert latencies == [("ok", ["0.125"]), ("timeout", ["1.002"])]
    # A failed call names its reason code and what it means.
    assert "timeout" in text(calls[1][1]) and "the default bot moved" in text(calls[1][1])
    assert f'value="{HOOK}"' in html  # the change form, filled in
    assert "Withdraw from Quiet Ladder" in html and "Validate it again" in html
    forms = re.findall(r"<form .*?</form>", html.split('id="main"')[1], re.S)
    # Validate it again, rename it, change how it plays, withdraw it from its ladder.
    assert len(forms) == 4 and all("csrfmiddlewaretoken" in form for form in forms)
    assert "data-card" not in html


def test_changing_a_built_in_bots_strategy_validates_it_again(eager_tasks):
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta", strategy="greedy")

    response = signed_in(ada).post(
        reverse("web:my-bot", args=[greta.pk]), {"strategy": "stacker"}, follow=True
    )

    greta.refresh_from_db()
    assert greta.strategy == "stacker" and greta.validation_round == 1
    assert shown_messages(response)[0].startswith("Greta is changed; it plays its validation")


def test_a_new_secret_alone_keeps_the_webhook_bot_as_it_is():
    ada = make_user("ada")
    hook = owned_bot(ada, "Hook", kind=Bot.Kind.WEBHOOK, strategy="", url=HOOK, secret="old")

    response = signed_in(ada).post(
        reverse("web:my-bot", args=[hook.pk]), {"url": HOOK, "secret": "new"}, follow=True
    )

    hook.refresh_from_db()
    assert (hook.secret, hook.status, hook.validation_round) == ("new", "active", 0)
    assert shown_messages(response) == ["Hook is changed."]


@pytest.mark.parametrize(
    ("kind", "data"),
    [("webhook", {"url": "not a url"}), ("webhook", {"url": ""}), ("builtin", {"strategy": "x"})],
)
def test_a_bad_change_changes_nothing(kind, data, settings):
    ada = make_user("ada")
    fields = {"url": HOOK, "secret": "k", "strategy": ""} if kind == "webhook" else {}
    bot = owned_bot(ada, "B", kind=kind, **fields)
    before = bot_rows()

    response = signed_in(ada).post(reverse("web:my-bot", args=[bot.pk]), data)

    assert response.status_code == 200 and 'class="errorlist' in response.content.decode()
    assert bot_rows() == before


def test_a_private_url_change_is_refused_by_the_registry(settings):
    settings.BOTS_ALLOW_LOOPBACK_URLS = False
    ada = make_user("ada")
    hook = owned_bot(
        ada, "Hook", kind=Bot.Kind.WEBHOOK, strategy="", url="https://example.org/", secret="k"
    )

    response = signed_in(ada).post(reverse("web:my-bot", args=[hook.pk]), {"url": HOOK})

    assert "127.0.0.1" in text(response.content.decode().split('id="change-heading"')[1])
    hook.refresh_from_db()
    assert hook.url == "https://example.org/"


def test_a_pull_bots_new_token_is_asked_for_then_shown_once():
    ada = make_user("ada")
    puller = owned_bot(ada, "Puller", kind=Bot.Kind.PULL, strategy="")
    old = issue_token(puller)
    client = signed_in(ada)
    url = reverse("web:my-bot-token", args=[puller.pk])

    asked = client.get(url).content.decode()
    assert "A new token for Puller?" in asked and "csrfmiddlewaretoken" in asked
    puller.refresh_from_db()
    assert puller.token_hash == token_hash(old)  # asking changes nothing

    response = client.post(url, follow=True)

    [token] = re.findall(r'id="bot-token" [^>]*>([^<]+)</textarea>', response.content.decode())
    puller.refresh_from_db()
    assert puller.token_hash == token_hash(token) != token_hash(old)
    assert "no-store" in response["Cache-Control"]
    assert client.get(url.replace("token", "")).status_code == 200
    # A built-in bot has no token to make.
    greta = owned_bot(ada, "Greta")
    assert client.post(reverse("web:my-bot-token", args=[greta.pk])).status_code == 404


def test_asking_for_a_new_validation(eager_tasks):
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta", status=Bot.Status.FAILED)
    client = signed_in(ada)

    response = client.post(reverse("web:my-bot-validate", args=[greta.pk]), follow=True)

    greta.refresh_from_db()
    assert greta.validation_round == 1
    assert shown_messages(response)[0].startswith("Greta plays its validation games again")
    Bot.objects.filter(pk=greta.pk).update(status=Bot.Status.VALIDATING)
    again = client.post(reverse("web:my-bot-validate", args=[greta.pk]), follow=True)
    assert shown_messages(again) == ["Greta is playing its validation games already."]
    greta.refresh_from_db()
    assert greta.validation_round == 1


def test_the_owner_cannot_lift_a_staff_suspension(eager_tasks):
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta")
    staff = make_user("operator")
    type(staff).objects.filter(pk=staff.pk).update(is_staff=True)
    staff.refresh_from_db()
    bot_suspend(
        bot_id=greta.pk, user=staff, reason="a note for the staff", message="spamming the ladder"
    )
    client = signed_in(ada)

    words = text(client.get(reverse("web:my-bot", args=[greta.pk])).content.decode())
    refused = client.post(reverse("web:my-bot-validate", args=[greta.pk]), follow=True)

    assert "suspended by the staff: spamming the ladder" in words
    assert "a note for the staff" not in words
    assert "strikes in a row" not in words.replace("Strikes in a row", "")
    assert "Validate it again" not in words
    assert "Only the staff can lift this suspension" in words
    assert shown_messages(refused) == [
        "Bot Greta was suspended by the staff: only the staff can lift the suspension, so it "
        "cannot be validated again until they do."
    ]
    greta.refresh_from_db()
    assert (greta.status, greta.validation_round) == (Bot.Status.SUSPENDED, 0)


def test_the_player_page_links_the_persons_bots():
    ada = make_user("ada")
    greta = owned_bot(ada, "Greta")

    theirs = Client().get(reverse("web:player", args=["ada"])).content.decode()
    mine = signed_in(ada).get(reverse("web:player", args=["ada"])).content.decode()

    assert f'<a href="{reverse("web:bot", args=[greta.pk])}">Greta</a>' in theirs
    assert "Manage your bots" not in theirs
    assert f'href="{reverse("web:my-bots")}">Manage your bots' in mine


def test_an_opponent_of_the_bots_own_name_is_told_apart_by_its_owner():
    # Ana's Gus met bob's Gus: on ana's Gus's page the opponent is bob's, said so.
    ladder = make_competition()
    ana, bob, cy = make_user("ana"), make_user("bob"), make_user("cy")
    mine, theirs, rex = (
        competition_join(ladder, bot=owned_bot(owner, name))
        for owner, name in ((ana, "Gus"), (bob, "gus"), (cy, "Rex"))
    )
    for other, games in ((theirs, 2), (rex, 1)):
        LadderMeeting.objects.create(
            competition=ladder, entry=mine, other=other, games=games, ahead=1
        )

    html = Client().get(reverse("web:bot", args=[mine.bot_id])).content.decode()

    meetings = re.findall(r'<tr class="meeting">(.*?)</tr>', html, re.S)
    assert [text(row) for row in meetings] == ["gus (bob) bot 2 1 0", "Rex bot 1 1 0"]
