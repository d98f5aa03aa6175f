"""The pages validate as HTML: the demo site (`seed_demo`) rendered by the test client, a page of
every kind, checked by html-validate (package.json, .htmlvalidate.json: the "standard" preset,
conformance to the HTML standard, which lets `hx-*` attributes pass as any unknown attribute).

html-validate comes from the npm registry (`make node_modules`, .ci/run); without it the test is
skipped, except under CI (CI=true), where it fails.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import timezone

from bots import registry
from games.models import Bot, Game
from league.models import Club, Season
from tables import services as tables
from tournaments import services as tournaments

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = ROOT / "node_modules" / ".bin" / "html-validate"

# The workers play the bot matches to their end on commit.
pytestmark = pytest.mark.django_db(transaction=True)

# HTML's date, and date-and-time strings with or without a zone (html.spec.whatwg.org, "Dates
# and times"): seconds at most to the millisecond. html-validate does not read the values.
TIME_VALUE = re.compile(
    r"\d{4}-\d\d-\d\d"
    r"([T ]\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:?\d\d)?)?"
)


def validator() -> Path:
    if not VALIDATOR.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but html-validate is missing: run `make node_modules`", False)
        pytest.skip("html-validate is missing: `make node_modules` installs it (npm)")
    return VALIDATOR


def pages(demo: User) -> list[tuple[User | None, str]]:
    """(who, path): a page of each kind, signed out and signed in (as demo, who is staff)."""
    game = Game.objects.filter(seats__user=demo, status=Game.Status.PLAYING).order_by("pk").first()
    finished = Game.objects.filter(status=Game.Status.MATCH_OVER).order_by("pk").first()
    club = Club.objects.order_by("pk").first()
    season = Season.objects.order_by("pk").first()
    assert game and finished and club and season
    bot = Bot.objects.order_by("pk").first()
    assert bot
    # An open table ana opened and a challenge from her to demo: the lobby lists both.
    ana = User.objects.get(username="ana")
    table = tables.open_table(opener=ana, variant_spec={"rules": "official"}, seats=3)
    tables.open_table(opener=ana, variant_spec={"rules": "official"}, seats=2, challenge="demo")
    # A running Swiss: ana and two bots at one table, waiting for ana.
    cup = tournaments.tournament_create(
        organiser=ana,
        name="Html Cup",
        slug="html-cup",
        variant={"rules": "official"},
        table_size=3,
        entry_closes=timezone.now() + datetime.timedelta(days=1),
    )
    tournaments.tournament_enter(cup, actor=ana, user=ana)
    for entrant in Bot.objects.filter(kind=Bot.Kind.BUILTIN).order_by("pk")[:2]:
        tournaments.tournament_enter(cup, actor=ana, bot=entrant)
    tournaments.tournament_start(cup, actor=ana)
    # demo's own bots: one in service (its page: rename, retire asked) and one retired, apart.
    mine = Bot.objects.create(owner=demo, name="Html Gus", kind="builtin", strategy="greedy",
                              status="active")  # fmt: skip
    old = Bot.objects.create(owner=demo, name="Html Old", kind="pull", status="active")
    registry.bot_retire(bot=old, owner=demo)
    signed_out = ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/",
                  "/ladders/", "/clubs/", f"/clubs/{club.slug}/", f"/seasons/{season.slug}/",
                  f"/bots/{bot.pk}/", "/players/ana/", f"/games/{finished.pk}/replay/",
                  "/api/docs/", "/ratings/", "/ratings/official/", "/tournaments/",
                  "/tournaments/html-cup/", "/tournaments/demo-cup/", "/guides/rules/",
                  f"/bots/{old.pk}/", "/players/", "/players/?q=a"]  # fmt: skip
    signed_in = ["/", "/play/", "/play/new/", f"/games/{game.pk}/", f"/games/{finished.pk}/",
                 "/accounts/profile/", "/me/bots/", f"/clubs/{club.slug}/", "/clubs/new/",
                 f"/seasons/{season.slug}/", "/staff/", f"/staff/games/{finished.pk}/",
                 "/players/demo/", "/players/ana/", "/notifications/", "/tables/new/",
                 "/tables/new/?challenge=ana", "/tables/new/?challenge=nobody", "/players/",
                 "/players/?q=an",
                 f"/tables/{table.pk}/", "/play/?family=chess", "/tournaments/new/",
                 "/tournaments/html-cup/", f"/me/bots/{mine.pk}/", f"/me/bots/{mine.pk}/retire",
                 f"/me/bots/{old.pk}/"]  # fmt: skip
    return [(None, path) for path in signed_out] + [(demo, path) for path in signed_in]


@override_settings(DEBUG=True)  # seed_demo refuses to run without it (known passwords)
def test_a_page_of_every_kind_validates(eager_tasks, tmp_path):
    call_command("seed_demo", verbosity=0)
    demo = User.objects.get(username="demo")
    files = []
    times = 0
    # demo signs in once for every page of theirs (a sign-in costs more CPU than many a page).
    signed_in = Client()
    signed_in.force_login(demo)
    for number, (who, path) in enumerate(pages(demo)):
        client = Client() if who is None else signed_in
        response = client.get(path)
        assert response.status_code == 200, (who, path, response.status_code)
        for value in re.findall(r'<time[^>]* datetime="([^"]*)"', response.content.decode()):
            assert TIME_VALUE.fullmatch(value), (path, value)
            times += 1
        file = tmp_path / f"{number:02d}.html"
        file.write_bytes(response.content)
        files.append((file, f"{'signed in' if who else 'signed out'} {path}"))

    run = subprocess.run(
        [str(validator()), "--config", str(ROOT / ".htmlvalidate.json"),
         "--formatter", "json", *(str(file) for file, _ in files)],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    names = {str(file): what for file, what in files}
    problems = [
        f"{names[result['filePath']]}:{message['line']}:{message['column']} "
        f"{message['ruleId']}: {message['message']}"
        for result in json.loads(run.stdout or "[]")
        for message in result["messages"]
    ]
    assert problems == [], "\n".join(problems)
    assert run.returncode == 0, run.stderr
    assert times > 10, (
        "the pages show moments; a changed page should not hide that they are checked"
    )
