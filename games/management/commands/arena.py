"""Rehearse a bot at home: play a local webhook or pull bot against the built-in strategies.

    manage.py arena --webhook http://127.0.0.1:8080/ [--secret S] [--rules newno] [--matches 5]
    manage.py arena --pull [--port 8001] [--opponents greedy,colour-control]

The bot plays real games on this site's database (db.sqlite3 by default) through the same code
as on the server: the webhook client, the pull API, the strikes, the fallback and the pull
deadline. Its games are created `inline`, so no dispatcher or worker touches them and this
command drives them itself, one at a time, whether tasks run in-process or on a broker.

A pull bot needs the API served while the games run: arena serves this project's WSGI
application on 127.0.0.1 in a thread of its own (`--port`, 0 for any free port), prints the
token and the API base, waits for the bot's first GET /api/bot/decisions and only then deals,
so the bot's first deadline does not run while its author starts it.

The bot is registered as the user `arena`'s, active from the start (validation is the server's
business); each run registers a new one, so its call stats are this run's. docs/bots-api.md
describes the protocols and the results.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.core.wsgi import get_wsgi_application
from django.test.utils import override_settings
from django.utils import timezone

from bots import turns
from bots.remote import tokens
from bots.remote.webhook import RefusedURL, check_url
from bots.strategies import find_strategy
from clocks import overdue
from clocks.fallback import bot_failure
from engine import MATCH_OVER, Variant
from engine.events import FALLBACK_PLAYED
from games import event_reads
from games.actors import actor_label
from games.creation import SeatSpec, game_create
from games.game_settings import GameSettings
from games.management.commands.simulate import add_variant_arguments, variant_spec
from games.models import Bot, Game, GameEvent
from games.seat_facts import FallbackReason

# The owner of the bots arena registers.
OWNER = "arena"
# Seconds between two looks at a game that waits for a pull bot.
POLL = 0.02
# Advances (each a run of built-in turns or one remote decision) before a match is given up.
MAX_ADVANCES = 100_000
YOUR_BOT = "your bot"


def loopback(url: str) -> bool:
    """Whether every address the URL's host resolves to is a loopback one (127.0.0.0/8, ::1)."""
    host = urlsplit(url).hostname
    if not host:
        return False
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return False
    addresses = {ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos}
    return bool(addresses) and all(address.is_loopback for address in addresses)


@dataclass
class Tally:
    """One contender's results over the matches (a strategy's summed over its seats)."""

    seats: int = 0
    wins: float = 0.0
    places: int = 0
    points: int = 0
    hands_won: int = 0

    def add(self, place: int, firsts: int, points: int, hands_won: int) -> None:
        self.seats += 1
        # A shared first place shares the win.
        self.wins += 1 / firsts if place == 1 else 0
        self.places += place
        self.points += points
        self.hands_won += hands_won


@dataclass
class Results:
    tallies: dict[str, Tally] = field(default_factory=dict)
    games: list[int] = field(default_factory=list)
    answered: int = 0
    fallbacks: dict[str, int] = field(default_factory=dict)

    def record(self, game: Game, bot: Bot, names: list[str]) -> None:
        """Read a finished match from its log: places, scores, the bot's moves and fallbacks."""
        events = event_reads.load(game.pk)
        state = Variant.from_spec(game.variant).replay(events)
        places = list(state.places or [])
        for seat, name in enumerate(names):
            tally = self.tallies.setdefault(name, Tally())
            tally.add(places[seat], places.count(1), state.scores[seat], state.hands_won[seat])
        seat = names.index(YOUR_BOT)
        for event in events:
            if event["type"] == FALLBACK_PLAYED and event["seat"] == seat:
                self.fallbacks[event["reason"]] = self.fallbacks.get(event["reason"], 0) + 1
        # Each decision the bot made is an append of its own, as the bot.
        self.answered += (
            GameEvent.objects.filter(game=game, actor=actor_label(bot))
            .exclude(command_id=None)
            .count()
        )
        self.games.append(game.pk)


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass  # a line per poll would bury the results


class ApiServer:
    """This project's WSGI application on 127.0.0.1 in a thread, for a pull bot to poll. It
    notes the bot's first poll for decisions."""

    def __init__(self, port: int, token: str) -> None:
        self.polled = threading.Event()
        # Django's handler itself: config.wsgi would also freeze this process's objects.
        app = get_wsgi_application()
        authorization = f"Bot {token}"

        # Requests still being answered: the counts are read once the last one has recorded its
        # call, not while the bot's final command is still being logged.
        self.busy = 0
        self.idle = threading.Condition()

        def watching(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
            if (
                environ.get("PATH_INFO") == "/api/bot/decisions"
                and environ.get("HTTP_AUTHORIZATION") == authorization
            ):
                self.polled.set()
            with self.idle:
                self.busy += 1
            try:
                return app(environ, start_response)
            finally:
                with self.idle:
                    self.busy -= 1
                    self.idle.notify_all()

        self.server = ThreadedWSGIServer(("127.0.0.1", port), _QuietHandler)
        self.server.daemon_threads = True
        self.server.set_app(watching)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
        )

    def __enter__(self) -> ApiServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
        with self.idle:
            self.idle.wait_for(lambda: self.busy == 0, timeout=5)


class Command(BaseCommand):
    help = (
        "Play a local webhook bot (--webhook URL) or pull bot (--pull) against the built-in "
        "strategies and print its results, timeouts, errors, illegal answers and latency."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        kind = parser.add_mutually_exclusive_group(required=True)
        kind.add_argument("--webhook", metavar="URL", help="the bot's URL (loopback, or public)")
        kind.add_argument(
            "--pull", action="store_true", help="serve the API here and wait for the bot to poll"
        )
        parser.add_argument(
            "--secret",
            default=os.environ.get("BOT_SECRET", "arena"),
            help="the webhook bot's HMAC secret (default: $BOT_SECRET, else 'arena')",
        )
        add_variant_arguments(parser)
        parser.add_argument("--seats", type=int, default=4)
        parser.add_argument("--matches", type=int, default=3)
        parser.add_argument(
            "--opponents",
            default="greedy,colour-control",
            help="built-in strategies cycled over the other seats",
        )
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--timeout",
            type=float,
            help="seconds the bot has for a decision (default: BOTS_WEBHOOK_TIMEOUT for a "
            "webhook bot, BOTS_PULL_TIMEOUT for a pull bot)",
        )
        parser.add_argument(
            "--port", type=int, default=0, help="--pull: the API's port on 127.0.0.1 (0: any)"
        )
        parser.add_argument(
            "--wait",
            type=float,
            default=300,
            help="--pull: seconds to wait for the bot's first poll",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        spec = variant_spec(opts)
        seats, matches = opts["seats"], opts["matches"]
        opponents = [name.strip() for name in opts["opponents"].split(",") if name.strip()]
        try:
            variant = Variant.from_spec(spec)
            variant.start(seats, seed=0)
            for name in opponents:
                find_strategy(name)
        except ValueError as error:
            raise CommandError(str(error)) from None
        if matches < 1 or not opponents:
            raise CommandError("--matches must be at least 1, and --opponents name a strategy")
        if opts["timeout"] is not None and opts["timeout"] <= 0:
            raise CommandError("--timeout must be more than 0 seconds")
        if opts["verbosity"] < 2:
            # Without a broker every task runs here, and Celery logs a line for each (one per
            # append): they would bury the results.
            for name in ("celery.app.trace", "kombu.connection"):
                logging.getLogger(name).setLevel(logging.ERROR)

        with self._bot(opts) as (bot, serve):
            game_settings = GameSettings(
                kind="arena",
                inline=True,
                bot_timeout=opts["timeout"] if bot.kind == Bot.Kind.WEBHOOK else None,
                pull_timeout=opts["timeout"] if bot.kind == Bot.Kind.PULL else None,
            )
            results = Results()
            with serve():
                for match in range(matches):
                    # The bot sits in a different place each match; the strategies fill the rest.
                    names = [opponents[i % len(opponents)] for i in range(seats - 1)]
                    names.insert(match % seats, YOUR_BOT)
                    specs = [
                        SeatSpec(registered=bot) if name == YOUR_BOT else SeatSpec(bot=name)
                        for name in names
                    ]
                    game = game_create(
                        variant_spec=variant.spec,
                        seats=specs,
                        seed=f"arena:{opts['seed']}:{match}",
                        settings=game_settings,
                    )
                    self._drive(game, bot)
                    results.record(Game.objects.get(pk=game.pk), bot, names)
                    self.stderr.write(f"match {match + 1} of {matches}: game {game.pk} over")
                    bot.refresh_from_db()
                    if bot.status != Bot.Status.ACTIVE:
                        self.stdout.write(
                            f"the bot is {bot.status} ({bot.status_reason}): the default bot "
                            "played its seats; no more matches"
                        )
                        break
            bot.refresh_from_db()
            self._report(variant, opponents, bot, results)

    @contextmanager
    def _bot(self, opts: dict[str, Any]) -> Iterator[tuple[Bot, Callable[[], Any]]]:
        """The bot to play, and a context that serves it while the matches run."""
        name = f"arena-{uuid.uuid4().hex[:8]}"
        if opts["webhook"]:
            url = opts["webhook"]
            # A bot on this machine is what arena is for; anything else must pass the guard the
            # workers apply to a registered bot's URL (never a private address; loopback only
            # with BOTS_ALLOW_LOOPBACK_URLS).
            local = loopback(url)
            if not local:
                try:
                    check_url(url)
                except RefusedURL as error:
                    raise CommandError(f"refused: {error}") from None
            elif urlsplit(url).scheme not in ("http", "https"):
                raise CommandError(f"{url!r} is not an http(s) URL")
            bot = Bot.objects.create(
                owner=_owner(),
                name=name,
                kind=Bot.Kind.WEBHOOK,
                url=url,
                secret=opts["secret"],
                status=Bot.Status.ACTIVE,
            )
            self.stdout.write(f"arena: webhook bot at {url}")
            # The workers' check runs again at every call: let it pass this loopback URL here.
            with override_settings(BOTS_ALLOW_LOOPBACK_URLS=True) if local else _nothing():
                yield bot, _nothing
            return
        bot = Bot.objects.create(
            owner=_owner(), name=name, kind=Bot.Kind.PULL, status=Bot.Status.ACTIVE
        )
        token = tokens.issue_token(bot)
        server = ApiServer(opts["port"], token)

        @contextmanager
        def serve() -> Iterator[None]:
            # Answer requests for 127.0.0.1 whatever ALLOWED_HOSTS says (it is empty without
            # DEBUG).
            with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "127.0.0.1"]), server:
                self.stdout.write(
                    f"arena: pull bot token {token}\n"
                    f"API base: {server.base}\n"
                    f"run your bot, e.g.  BOT_TOKEN={token} python docs/examples/pull_bot.py "
                    f"{server.base}\n"
                    f"waiting up to {opts['wait']:.0f} s for its first GET /api/bot/decisions"
                )
                self.stdout.flush()
                if not server.polled.wait(opts["wait"]):
                    raise CommandError(
                        f"the bot did not poll {server.base} within {opts['wait']} s"
                    )
                self.stdout.write("the bot polled: dealing")
                yield
            self.stdout.write("the API is closed: stop the bot")

        yield bot, serve

    def _drive(self, game: Game, bot: Bot) -> None:
        """Play the match to its end: the built-in seats in-process, the webhook bot asked by
        the workers' own code; a pull bot's decisions wait for its commands until their
        deadline, when the overdue sweep's fallback and strike are played."""
        for _ in range(MAX_ADVANCES):
            if Game.objects.filter(pk=game.pk, status=MATCH_OVER).exists():
                return
            advance = turns.advance_game(game_id=game.pk)
            if advance.commands or advance.conflict:
                continue
            if advance.busy:
                # Another run holds the game's lease (the reconciler, a resent task): it moves
                # the game, or its lease runs out; wait and try again.
                time.sleep(POLL)
                continue
            if bot.kind != Bot.Kind.PULL:
                raise CommandError(f"game {game.pk} stopped: no bot could move")
            for late in overdue.overdue_pull_bots(timezone.now()):
                if late.game_id == game.pk:
                    overdue.time_out(late, bot_failure(FallbackReason.BOT_TIMEOUT))
            time.sleep(POLL)
        raise CommandError(f"game {game.pk} did not finish in {MAX_ADVANCES} advances")

    def _report(self, variant: Variant, opponents: list[str], bot: Bot, results: Results) -> None:
        played = len(results.games)
        self.stdout.write(
            f"{variant.spec}: {played} match{'es' if played != 1 else ''} against "
            f"{', '.join(opponents)}"
        )
        width = max(len(name) for name in results.tallies)
        self.stdout.write(
            f"{'':<{width}} {'seats':>6} {'wins':>6} {'win rate':>9} {'mean place':>11} "
            f"{'points':>8} {'hands won':>10}"
        )
        for name in [YOUR_BOT, *dict.fromkeys(opponents)]:
            tally = results.tallies.get(name)
            if tally is None:
                continue
            self.stdout.write(
                f"{name:<{width}} {tally.seats:>6} {tally.wins:>6g} "
                f"{tally.wins / tally.seats:>9.1%} {tally.places / tally.seats:>11.2f} "
                f"{tally.points / tally.seats:>8.1f} {tally.hands_won / tally.seats:>10.2f}"
            )
        latency = f"{bot.total_latency / bot.calls:.3f} s" if bot.calls else "-"
        fallbacks = ", ".join(f"{n} {reason}" for reason, n in sorted(results.fallbacks.items()))
        self.stdout.write(
            f"your bot: {results.answered} decisions played, {bot.calls} calls, "
            f"{bot.timeouts} timeouts, {bot.errors} errors, {bot.illegal_answers} illegal "
            f"answers, mean latency {latency}"
        )
        self.stdout.write(f"fallback moves for your bot: {fallbacks or 'none'}")
        self.stdout.write(f"status: {bot.status} {bot.status_reason}".rstrip())
        self.stdout.write(
            f"games: {' '.join(map(str, results.games))} (replays at /games/<id>/replay/)"
        )


def _owner() -> Any:
    """The local user who owns arena's bots (no password: nobody signs in as it)."""
    owner, created = get_user_model().objects.get_or_create(username=OWNER)
    if created:
        owner.set_unusable_password()
        owner.save(update_fields=["password"])
    return owner


@contextmanager
def _nothing() -> Iterator[None]:
    yield
