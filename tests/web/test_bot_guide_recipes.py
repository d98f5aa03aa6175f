"""The bot author's guide's curl recipes (docs/bots-api.md), followed as written by someone who
uses curl and no browser: the sign-in stops loudly on a wrong password, and the practice match
of "Watching your bot" starts with a token of the scopes the guide tells its reader to tick.
The guide names no file of the repository a reader of the site cannot open."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import PersonalToken
from accounts.services import token_issue
from games.models import Bot
from tests.games.factories import make_user
from web.guides import BY_SLUG

pytestmark = pytest.mark.django_db

GUIDE = Path(settings.BASE_DIR) / "docs" / "bots-api.md"


def section(title: str) -> str:
    text = GUIDE.read_text()
    start = text.index(f"\n## {title}\n")
    return text[start : text.index("\n## ", start + 1)]


def shell_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", text, flags=re.S)


def commands(block: str) -> list[list[str]]:
    """The block's curl commands, each as the shell splits it (comments and `&&` left out)."""
    lines = [line for line in block.splitlines() if not line.lstrip().startswith("#")]
    found: list[list[str]] = []
    for word in shlex.split("\n".join(lines)):
        if word == "curl":
            found.append([])
        if found and word != "&&":
            found[-1].append(word)
    return found


def option(words: list[str], name: str) -> list[str]:
    return [words[i + 1] for i, word in enumerate(words) if word == name]


def test_the_sign_in_recipe_stops_on_a_wrong_password():
    ana = make_user("ana")
    ana.set_password("right-horse-battery")
    ana.save()
    recipe = next(
        block for block in shell_blocks(section("Registering a bot")) if "/accounts/login/" in block
    )
    sign_in = next(words for words in commands(recipe) if "--data-urlencode" in words)
    # curl stops on an error status, with the body printed: the next call is not made.
    assert "--fail-with-body" in sign_in
    assert re.search(r"\$UNO/accounts/login/ &&\n", recipe)
    headers = dict(header.split(": ", 1) for header in option(sign_in, "-H"))
    client = Client(enforce_csrf_checks=False)
    sent = {f"HTTP_{name.upper().replace('-', '_')}": value for name, value in headers.items()}

    refused = client.post("/accounts/login/", {"username": "ana", "password": "wrong"}, **sent)
    signed_in = client.post(
        "/accounts/login/", {"username": "ana", "password": "right-horse-battery"}, **sent
    )

    assert refused.status_code == 400  # curl --fail-with-body: exit status 22
    assert refused.json() == {
        "code": "invalid-login",
        "message": "Your username and password did not match. Please try again.",
    }
    assert (signed_in.status_code, signed_in.content) == (302, b"")


@pytest.mark.django_db(transaction=True)
def test_the_sign_in_recipe_run_by_curl_makes_the_token_or_stops_on_a_wrong_password(
    live_server, tmp_path
):
    """The recipe as written, by curl against the site (its CSRF token from the cookie jar, the
    sign-in, the token): a wrong password stops it with curl's exit status 22 and makes nothing."""
    gus = make_user("gus")
    gus.set_password("right-horse-battery")
    gus.save()
    recipe = next(
        block for block in shell_blocks(section("Registering a bot")) if "/accounts/login/" in block
    )
    script = recipe.replace("UNO=https://uno.example.org", f"UNO={live_server.url}")

    def run(password: str) -> subprocess.CompletedProcess[str]:
        env = {"PATH": os.environ["PATH"], "UNO_PASSWORD": password}
        return subprocess.run(
            ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip

    wrong = run("wrong")
    assert wrong.returncode == 22, (wrong.stdout, wrong.stderr)
    assert json.loads(wrong.stdout)["code"] == "invalid-login"
    assert not PersonalToken.objects.filter(user=gus, name="ci").exists()
    right = run("right-horse-battery")
    assert right.returncode == 0, (right.stdout, right.stderr)
    made = json.loads(right.stdout)
    assert made["name"] == "ci" and made["scopes"] == ["bots"] and made["token"]
    assert PersonalToken.objects.filter(user=gus, name="ci").exists()


def test_watching_your_bot_works_with_the_token_the_guide_says_to_make():
    ana = make_user("ana")
    bot = Bot.objects.create(
        owner=ana, name="Gus", kind=Bot.Kind.BUILTIN, strategy="greedy", status=Bot.Status.ACTIVE
    )
    watching = section("Watching your bot")
    [start] = commands(shell_blocks(watching)[0])
    body = json.loads(option(start, "-d")[0])
    body["seats"][0]["bot_id"] = bot.pk
    # The guide names the scopes the token needs for it: `play` beside `bots`.
    assert "needs the scope\n`play` as well as `bots`" in watching
    assert "`play` too if a script should also start games, a\n[practice match]" in section(
        "Registering a bot"
    )

    def started(scopes: list[str]):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=ana, scopes=scopes)}")
        return client.post("/api/games", body, format="json")

    refused = started(["bots"])
    assert (refused.status_code, refused.json()["code"]) == (403, "token-scope")
    answer = started(["bots", "play"])
    assert answer.status_code == 201, answer.json()
    assert answer.json()["my_seats"] == [] and answer.json()["watched_by"] == "ana"


# A file of the repository, which the site does not serve: the guide says the fact instead.
SOURCE_FILE = re.compile(
    r"(?<![\w/.-])(?:accounts|api|bots|engine|games|league|tests|web)/[\w/]+\.py\b"
)


def test_the_bot_guide_sends_no_reader_to_a_file_the_site_does_not_serve():
    text = GUIDE.read_text()
    # Training offline is for a clone of the repository (the engine as a Python package).
    for_the_site = text[: text.index("\n## Training offline\n")]
    assert SOURCE_FILE.findall(for_the_site) == []
    docs = {name for name in re.findall(r"(?<![\w/-])(?:docs/)?([\w-]+)\.md\b", text)}
    assert docs - set(BY_SLUG) - {"README"} == set()


def test_no_guide_names_the_maintainers_account_of_the_workers(client):
    for slug in BY_SLUG:
        assert "workers.md" not in client.get(f"/guides/{slug}/").content.decode(), slug
    assert client.get("/guides/workers/").status_code == 404


def test_the_kits_and_the_example_send_the_reader_to_the_tokens_as_the_site_names_them(client):
    ana = make_user("ana")
    client.force_login(ana)
    profile = client.get("/accounts/profile/").content.decode()
    heading = re.search(r'<h2 id="token-title">([^<]+)</h2>', profile)[1]
    for kit in ("python", "javascript"):
        readme = client.get(f"/guides/starters/{kit}/README.md").content.decode()
        assert f'(profile page, "{heading}")' in readme, kit
        # The guide's address on the site, for a reader of the kit's files as they were served.
        assert (
            "`/guides/bots-api/`" in readme and client.get("/guides/bots-api/").status_code == 200
        )
    example = client.get("/guides/examples/register_bot.py").content.decode()
    assert "(the profile page, or POST /api/me/tokens)" in example
