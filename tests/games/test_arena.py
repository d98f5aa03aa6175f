"""`manage.py arena` plays the example bots of docs/bots-api.md, unmodified, on loopback: the
webhook bot asked by the workers' client, the pull bot polling the API arena serves itself; on
the test database, and once as `make run` has it, on SQLite without Redis, in a process of its
own. URLs that are neither loopback nor pass the server's guard are refused."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from games.actors import actor_label
from games.models import Bot, Game, GameEvent
from tests.games.workers import assert_finished_whole

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
LOOPBACK = "127.0.0.1,localhost"
# The example's urllib must not send a loopback call through a proxy named in the environment.
NO_PROXY = {"NO_PROXY": LOOPBACK, "no_proxy": LOOPBACK}
# Two matches of one hand each: seconds, not minutes.
QUICK = ["--matches", "2", "--options", "scoring=single-hand"]


def example(name: str, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(EXAMPLES / name), *args],
        env={**os.environ, **NO_PROXY, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def webhook_bot() -> Iterator[str]:
    """The example webhook bot on a free loopback port, secret `s3cret`; its URL."""
    process = example("webhook_bot.py", "0", BOT_SECRET="s3cret")
    try:
        assert process.stdout is not None
        yield process.stdout.readline().strip()
    finally:
        process.terminate()
        process.communicate(timeout=10)


class PullBotLauncher(io.StringIO):
    """arena's stdout: when arena prints its API base, start the example pull bot with the
    token it printed, as its author would."""

    def __init__(self) -> None:
        super().__init__()
        self.process: subprocess.Popen[str] | None = None

    def write(self, text: str) -> int:
        written = super().write(text)
        if self.process is None and "API base:" in self.getvalue():
            self.process = launch_pull_bot(self.getvalue())
        return written

    def stop(self) -> str:
        assert self.process is not None, "arena never printed its API base"
        self.process.terminate()
        return self.process.communicate(timeout=10)[1]


def launch_pull_bot(printed: str) -> subprocess.Popen[str]:
    token = printed.split("pull bot token ", 1)[1].split()[0]
    base = printed.split("API base: ", 1)[1].split()[0]
    return example("pull_bot.py", base, "0.02", BOT_TOKEN=token)


def the_arena_bot() -> Bot:
    return Bot.objects.get(owner__username="arena")


def assert_played(bot: Bot, matches: int) -> None:
    """Every match is over and whole, each with the bot's own moves and no fallback for it."""
    games = Game.objects.filter(seats__registered_bot=bot).distinct()
    assert games.count() == matches
    for game in games:
        assert_finished_whole(game.pk)
        moves = GameEvent.objects.filter(game=game, actor=actor_label(bot))
        assert moves.exclude(command_id=None).exists()
    assert not GameEvent.objects.filter(type="fallback-played").exists()
    assert bot.calls > 0
    assert (bot.timeouts, bot.errors, bot.illegal_answers, bot.strikes) == (0, 0, 0, 0)
    assert bot.status == Bot.Status.ACTIVE


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
def test_arena_plays_the_example_webhook_bot(webhook_bot):
    out = io.StringIO()
    call_command(
        "arena", "--webhook", webhook_bot, "--secret", "s3cret", "--rules", "basic-plus",
        "--seats", "3", *QUICK, stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    printed = out.getvalue()
    bot = the_arena_bot()
    assert bot.kind == Bot.Kind.WEBHOOK and bot.url == webhook_bot
    assert_played(bot, 2)
    assert "your bot            2" in printed
    assert f"{bot.calls} calls, 0 timeouts, 0 errors, 0 illegal answers" in printed
    assert "fallback moves for your bot: none" in printed
    # The replays are where it says they are (the play page is /games/<id>/).
    assert "(replays at /games/<id>/replay/)" in printed
    first = printed.split("games: ", 1)[1].split()[0]
    assert reverse("web:replay", args=[int(first)]) == f"/games/{first}/replay/"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_tasks")
def test_arena_serves_the_api_to_the_example_pull_bot():
    # On SQLite the test database is in memory, with a cache shared between threads: a thread
    # that writes locks whole tables against the others ("database table is locked", which no
    # timeout waits out), so arena's API thread and its playing thread refuse each other's
    # writes. A SQLite file, as `make run` has, only makes them wait: the next test runs arena so.
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("threads share an in-memory SQLite's table locks")
    out = PullBotLauncher()
    try:
        call_command("arena", "--pull", "--rules", "newno", *QUICK, stdout=out)
    finally:
        errors = out.stop()
    # Nothing refused (arena closing its API at the end may show as a failed poll).
    assert "refused:" not in errors, errors
    printed = out.getvalue()
    assert "the bot polled: dealing" in printed
    bot = the_arena_bot()
    assert bot.kind == Bot.Kind.PULL
    assert_played(bot, 2)
    assert f"{bot.calls} calls, 0 timeouts, 0 errors, 0 illegal answers" in printed


def test_arena_on_sqlite_without_redis_as_make_run_has_it(tmp_path):
    """Out of this test's database: a process of its own, with the settings' embedded default
    (SQLite, tasks in-process), the pull bot polling the API arena serves."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL", "CI")
    }
    env.update(DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", **NO_PROXY)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, cwd=ROOT, check=True, timeout=120)
    arena = subprocess.Popen(
        [*manage, "arena", "--pull", "--wait", "30", *QUICK],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert arena.stdout is not None
    printed, bot = "", None
    try:
        for line in arena.stdout:
            printed += line
            if line.startswith("API base:"):
                bot = launch_pull_bot(printed)
                break
        output, errors = arena.communicate(timeout=60)
    finally:
        arena.kill()
        if bot is not None:
            bot.terminate()
            bot.communicate(timeout=10)
    printed += output
    assert arena.returncode == 0, errors[-3000:]
    assert "your bot            2" in printed
    assert "0 timeouts, 0 errors, 0 illegal answers" in printed
    assert "fallback moves for your bot: none" in printed
    assert "status: active" in printed


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url, refusal",
    [
        ("http://10.20.30.40:8080/", "private, link-local or reserved"),
        ("http://192.168.1.2/", "private, link-local or reserved"),
        ("ftp://127.0.0.1/", "not an http(s) URL"),
    ],
)
def test_arena_refuses_what_is_neither_loopback_nor_passes_the_guard(url, refusal, settings):
    settings.BOTS_ALLOW_LOOPBACK_URLS = False
    with pytest.raises(CommandError, match=re.escape(refusal)):
        call_command("arena", "--webhook", url, stdout=io.StringIO())
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_arena_gives_up_on_a_pull_bot_that_never_polls():
    with pytest.raises(CommandError, match="did not poll"):
        call_command("arena", "--pull", "--wait", "0.2", stdout=io.StringIO())
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_arena_refuses_an_unknown_opponent():
    with pytest.raises(CommandError, match="unknown bot 'shark'"):
        call_command("arena", "--pull", "--opponents", "greedy,shark", stdout=io.StringIO())
