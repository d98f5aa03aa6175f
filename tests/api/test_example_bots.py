"""The bot author's kit (docs/bots-api.md): its example bots, unmodified, pass validation on a
live server.

docs/examples/register_bot.py registers each bot with the owners' API over HTTP, with a personal
token only (no cookie, no CSRF token);
docs/examples/webhook_bot.py and pull_bot.py run as their own processes on loopback. A real
`celery worker` (PostgreSQL, Redis) plays the validation rounds: the webhook bot's in the
`validate_bot` task, the pull bot's games moved by `advance_game` while the bot polls
pytest-django's live server. Each bot must end `active`, its three games over, its moves in
their logs. The doc must quote the examples exactly, and each stays under 60 lines.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from accounts.services import token_issue
from bots.remote import validation
from engine.events import FALLBACK_PLAYED
from games.actors import actor_label
from games.models import Bot, GameEvent
from tests.games.conftest import needs_postgresql
from tests.games.factories import make_user
from tests.games.workers import Worker, assert_finished_whole, sending_to, wait_for

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
DOC = ROOT / "docs" / "bots-api.md"
BOTS = ["pull_bot.py", "webhook_bot.py"]
LOOPBACK = "127.0.0.1,localhost"
# The examples' HTTP clients must not go through a proxy named in the environment.
NO_PROXY = {"NO_PROXY": LOOPBACK, "no_proxy": LOOPBACK}

spec = importlib.util.spec_from_file_location("register_bot", EXAMPLES / "register_bot.py")
assert spec is not None and spec.loader is not None
register_bot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(register_bot)


def quoted_blocks(text: str) -> dict[str, str]:
    """The doc's code blocks that open with a `# docs/examples/<file>` line, by file."""
    blocks = re.findall(r"```python\n# (docs/examples/\S+)\n(.*?)```", text, flags=re.S)
    return {path: code for path, code in blocks}


@pytest.mark.parametrize("name", [*BOTS, "register_bot.py"])
def test_the_doc_quotes_each_example_whole_and_it_is_short(name):
    code = (EXAMPLES / name).read_text()
    assert quoted_blocks(DOC.read_text()).get(f"docs/examples/{name}") == code
    assert len(code.splitlines()) < 60
    assert "from __future__ import annotations" in code


def test_the_examples_import_only_the_standard_library():
    for name in [*BOTS, "register_bot.py"]:
        code = (EXAMPLES / name).read_text()
        modules = re.findall(r"^(?:from|import) (\w+)", code, flags=re.M)
        assert set(modules) <= sys.stdlib_module_names | {"__future__"}, name


@pytest.fixture(scope="module")
def worker(django_db_setup, redis_url) -> Iterator[Worker]:
    # The webhook bot listens on loopback, which the worker refuses without this.
    worker = Worker(redis_url, BOTS_ALLOW_LOOPBACK_URLS="1", **NO_PROXY)
    worker.start()
    with sending_to(worker):
        yield worker


def start(name: str, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(EXAMPLES / name), *args],
        env={**os.environ, **NO_PROXY, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop(process: subprocess.Popen[str]) -> str:
    """Stop an example bot; what it printed on stderr (a refused command, say)."""
    process.terminate()
    _, errors = process.communicate(timeout=10)
    return errors


def owner(username: str = "author") -> str:
    """A person's personal token with scope `bots` (what register_bot.py takes)."""
    return token_issue(user=make_user(username), scopes=["bots"])


def register(live_server, key: str, **bot: str) -> dict:
    return register_bot.register(live_server.url, key, bot)


def wait_for_validation(bot_id: int, worker: Worker, process: subprocess.Popen[str]) -> Bot:
    wait_for(
        lambda: (
            Bot.objects.get(pk=bot_id).status != Bot.Status.VALIDATING or process.poll() is not None
        ),
        timeout=45,
        what=lambda: f"bot {bot_id}'s validation; worker log:\n{worker.output()[-3000:]}",
    )
    return Bot.objects.get(pk=bot_id)


def assert_played_its_round(bot: Bot) -> None:
    assert bot.status == Bot.Status.ACTIVE, bot.status_reason
    assert bot.status_reason == "passed 3 validation matches"
    games = list(validation.validation_games(bot.pk, bot.validation_round))
    assert len(games) == 3
    for game in games:
        assert_finished_whole(game.pk)
        seat = game.seats.get(registered_bot=bot).number
        # Its own moves are in the log, as the bot; the default bot never moved for it.
        moves = GameEvent.objects.filter(game=game, actor=actor_label(bot)).exclude(command_id=None)
        assert moves.exists(), game.pk
        fallbacks = GameEvent.objects.filter(game=game, type=FALLBACK_PLAYED)
        assert not [e for e in fallbacks if e.data.get("seat") == seat]
    assert (bot.timeouts, bot.errors, bot.illegal_answers, bot.strikes) == (0, 0, 0, 0)
    assert bot.calls > 0


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_the_example_webhook_bot_passes_validation(worker, live_server, settings):
    # The owners' API checks the URL as the worker will: loopback only with this on.
    settings.BOTS_ALLOW_LOOPBACK_URLS = True
    key = owner()
    process = start("webhook_bot.py", "0", BOT_SECRET="the webhook secret")
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), url
        answer = register(
            live_server, key, name="Hooky", kind="webhook", url=url,
            secret="the webhook secret",
        )  # fmt: skip
        assert answer["status"] == "validating" and answer["secret"] == "the webhook secret"
        bot = wait_for_validation(answer["id"], worker, process)
    finally:
        errors = stop(process)
    assert_played_its_round(bot)
    assert "Traceback" not in errors, errors


@needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_the_example_pull_bot_passes_validation(worker, live_server):
    key = owner()
    answer = register(live_server, key, name="Poller", kind="pull")
    assert answer["status"] == "validating" and answer["token"]
    # Polls every 0.05 s when idle, so the test takes seconds, not minutes.
    process = start("pull_bot.py", live_server.url, "0.05", BOT_TOKEN=answer["token"])
    try:
        bot = wait_for_validation(answer["id"], worker, process)
    finally:
        errors = stop(process)
    assert_played_its_round(bot)
    # Its every command was taken: nothing refused, no error.
    assert errors == "", errors


@pytest.mark.django_db(transaction=True)
def test_a_wrong_or_unscoped_token_is_refused_by_the_registration_script(live_server):
    with pytest.raises(SystemExit, match="refused: 401 .*token-invalid"):
        register_bot.register(live_server.url, "not-a-key", {"name": "x", "kind": "pull"})
    player = token_issue(user=make_user("player"), scopes=["play"])
    with pytest.raises(SystemExit, match="refused: 403 .*token-scope"):
        register_bot.register(live_server.url, player, {"name": "x", "kind": "pull"})
    assert not Bot.objects.exists()


def test_the_webhook_example_refuses_an_unsigned_request():
    process = start("webhook_bot.py", "0", BOT_SECRET="s")
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        body = json.dumps({"view": {"uncalled": []}, "legal": []}).encode()
        request = urllib.request.Request(url, body, {"X-Uno-Signature": "sha256=0"})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(request, timeout=5)
        assert refused.value.code == 401
    finally:
        stop(process)
