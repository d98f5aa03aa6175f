"""The soak itself: set up people and bots, start games of every family through the API, play
them with simulated people, pull and webhook bots while faults are injected at set times, let
the workers settle, stop everything and check (soak/checks.py, soak/leaks.py)."""

from __future__ import annotations

import datetime
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.db import connections

from accounts.services import profile_of, token_issue
from bots.remote.tokens import issue_token
from games import event_reads
from games.models import Bot
from soak import checks, clients, infra, leaks

FAMILIES: dict[str, tuple[dict[str, Any], str]] = {
    "official": ({"rules": "official"}, "colour-control"),
    "basic-plus": ({"rules": "basic-plus"}, "greedy"),
    "newno": ({"rules": "newno"}, "stacker"),
    "censorship": ({"rules": "censorship"}, "censor"),
    "precognitive-blind": (
        {"rules": "official", "precognitive": {"lane": 2, "sight": "blind"}},
        "lane-planner",
    ),
    "precognitive-sighted": (
        {"rules": "basic-plus", "precognitive": {"lane": 2, "sight": "sighted"}},
        "lane-planner",
    ),
    "precognitive-telepathic": (
        {"rules": "official", "precognitive": {"lane": 2, "sight": "telepathic"}},
        "lane-planner",
    ),
}
# Short matches, so that many end (and their results reach the projections) within minutes.
TARGETS = [50, 100, 150]
# (name, fault) of the registered bots: honest webhook and pull bots, and three webhook bots
# that hang, answer garbage or answer 500 from their fault time on.
BOTS = [
    ("hook-a", "webhook", ""),
    ("pull-a", "pull", ""),
    ("hook-b", "webhook", ""),
    ("pull-b", "pull", ""),
    ("hook-hang", "webhook", "hang"),
    ("hook-garbage", "webhook", "garbage"),
    ("hook-500", "webhook", "error"),
]
# When each fault is injected, as a fraction of the soak's length.
FAULTS = {
    "webhook-hang": 0.10,
    "webhook-garbage": 0.15,
    "webhook-500": 0.20,
    "worker-sigkill": 0.30,
    "redis-restart": 0.45,
    "postgres-cut": 0.60,
    "postgres-restart": 0.75,
}
# Seconds the soak's PostgreSQL stays down in postgres-restart (between stop and start).
POSTGRES_DOWN = 5


@dataclass
class Options:
    games: int
    minutes: float
    workers: int
    faults: list[str]
    settle: float
    seed: int
    pause: float


@dataclass
class Soak:
    plan: infra.Plan
    options: Options
    record: clients.Record = field(default_factory=clients.Record)
    people: list[clients.Person] = field(default_factory=list)
    webhooks: dict[str, clients.WebhookBot] = field(default_factory=dict)
    pull_tokens: dict[int, str] = field(default_factory=dict)
    registered: list[Bot] = field(default_factory=list)
    game_ids: list[int] = field(default_factory=list)
    families: dict[str, int] = field(default_factory=dict)
    injected: list[str] = field(default_factory=list)
    workers: list[infra.Process] = field(default_factory=list)
    log: Callable[[str], None] = print


def set_up(soak: Soak, base: str) -> None:
    """People (each with a personal token and a birth date, for newno) and registered bots, made
    in the database."""
    users = get_user_model()
    count = max(6, soak.options.games // 3)
    for number in range(count):
        user = users.objects.create(username=f"p{number}", email=f"p{number}@soak.invalid")
        profile = profile_of(user)
        profile.birth_date = datetime.date(1960 + number % 40, 1 + number % 12, 1 + number % 28)
        profile.save()
        # One in ten never plays: their turns time out, and the third forfeits the seat.
        soak.people.append(
            clients.Person(
                user.pk, user.username, token_issue(user=user), signed_in(user), number % 10 == 9
            )
        )
    owner = users.objects.create(username="bot-owner")
    registered: list[Bot] = []
    for name, kind, fault in BOTS:
        bot = Bot.objects.create(owner=owner, name=name, kind=kind, status=Bot.Status.ACTIVE)
        if kind == "webhook":
            hook = clients.WebhookBot(name, soak.record, fault, seed=len(registered))
            hook.start()
            soak.webhooks[name] = hook
            bot.url, bot.secret = hook.url, f"secret-{name}"
            bot.save()
        else:
            soak.pull_tokens[bot.pk] = issue_token(bot)
        registered.append(bot)
    soak.registered = registered


def signed_in(user: Any) -> str:
    """The session cookie a sign-in would give `user` (django.contrib.auth.login's keys), made
    without a password: the soak's people have none."""
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "accounts.backends.AnyCaseModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def start_games(soak: Soak, base: str) -> None:
    """The games, started through the API by their first person (the clients already run, so
    that no pull bot misses its first decisions while the others are being made)."""
    rng = random.Random(soak.options.seed)
    count = len(soak.people)
    registered = soak.registered
    names = list(FAMILIES)
    plans = []
    for number in range(soak.options.games):
        family = names[number % len(names)]
        spec, builtin = FAMILIES[family]
        creator = soak.people[number % count]
        seats: list[dict[str, Any]] = [
            {"user": "me"},
            {"bot": builtin},
            {"bot_id": registered[number % len(registered)].pk},
            {"bot": "greedy"},
        ]
        other = None
        if number % 3 == 0:
            other = soak.people[(number * 7 + 3) % count]
            if other is creator:
                other = soak.people[(number + 1) % count]
            seats[3] = {"user": other.username}
        variant = {**spec, "options": {"target": rng.choice(TARGETS)}}
        # No "seed": a chosen seed is for practice alone (nobody else seated; games/lobby.py),
        # and every game here seats the bot-owner's bots.
        plans.append((family, creator, other, {"variant": variant, "seats": seats}))

    def create(plan: tuple[str, clients.Person, clients.Person | None, dict[str, Any]]) -> None:
        family, creator, other, body = plan
        status, answer = clients.call(base, "POST", "/api/games", f"Token {creator.token}", body)
        if status == 400 and answer.get("code") == "bot-not-active":
            # Suspended by its strikes while the games were being made (a fault bot, or an
            # honest one slowed by a loaded machine): the greedy bot takes the seat instead.
            body["seats"][2] = {"bot": "greedy"}
            status, answer = clients.call(
                base, "POST", "/api/games", f"Token {creator.token}", body
            )
        if status == 202 and other is not None:
            # Another person named: an invitation (tables/invitations.py), which they accept
            # as a person would; the last to accept starts the game.
            table = answer["id"]
            path = f"/api/tables/{table}/join"
            status, answer = clients.call(base, "POST", path, f"Token {other.token}", {})
            if status == 200 and answer.get("game") is not None:
                status = 201
        if status != 201:
            raise RuntimeError(f"POST /api/games answered {status}: {answer}")
        game = answer["game"]
        creator.seats[game] = 0
        if other is not None:
            other.seats[game] = 3
        with soak.record.lock:
            soak.game_ids.append(game)
            soak.families[family] = soak.families.get(family, 0) + 1

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(create, plans))
    soak.game_ids.sort()


def play(soak: Soak, base: str, redis: infra.Redis, cluster: infra.Cluster) -> None:
    """The clients for `minutes`, the faults at their times."""
    stop = threading.Event()
    options = soak.options
    threads = [
        threading.Thread(
            target=clients.person_loop,
            args=(base, soak.record, person, stop, options.seed + n, options.pause),
        )
        for n, person in enumerate(soak.people)
    ]
    threads += [
        threading.Thread(
            target=clients.pull_bot_loop,
            args=(base, soak.record, bot_id, token, stop, options.seed + bot_id),
        )
        for bot_id, token in soak.pull_tokens.items()
    ]
    threads += [
        threading.Thread(
            target=clients.spectator_loop,
            args=(base, soak.record, soak.game_ids, stop, options.seed - n),
        )
        for n in range(2)
    ]
    threads.append(threading.Thread(target=clients.health_loop, args=(base, soak.record, stop)))
    for thread in threads:
        thread.start()
    try:
        start_games(soak, base)
    except BaseException:
        stop.set()
        raise
    soak.log(f"soak: {len(soak.game_ids)} games started; playing {options.minutes:g} min")
    started = time.monotonic()
    length = options.minutes * 60
    due = sorted((FAULTS[name] * length, name) for name in options.faults)
    try:
        while (elapsed := time.monotonic() - started) < length:
            while due and due[0][0] <= elapsed:
                _, name = due.pop(0)
                detail = inject(soak, name, redis, cluster)
                line = f"{elapsed:6.1f} s  {name}: {detail}"
                soak.injected.append(line)
                soak.log(f"fault at {line}")
            time.sleep(0.2)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=clients.TIMEOUT * 2)


def inject(soak: Soak, name: str, redis: infra.Redis, cluster: infra.Cluster) -> str:
    if name.startswith("webhook-"):
        hook = soak.webhooks[{"webhook-hang": "hook-hang", "webhook-garbage": "hook-garbage",
                              "webhook-500": "hook-500"}[name]]  # fmt: skip
        hook.fault_at = time.monotonic()
        return f"{hook.name} now answers {hook.fault} to every call"
    if name == "worker-sigkill":
        victim = soak.workers[0]
        victim.kill()
        replacement = infra.celery_worker(f"soak-{len(soak.workers) + 1}", victim.env,
                                          soak.plan.logs)  # fmt: skip
        replacement.start()
        soak.workers[0] = replacement
        soak.workers.append(victim)  # kept for its log
        return (
            f"SIGKILL to {victim.name} (pid {victim.process.pid if victim.process else '?'}); "
            f"{replacement.name} started"
        )
    if name == "redis-restart":
        redis.kill()
        time.sleep(3)
        redis.start()
        return "redis-server SIGKILLed (no persistence: queued tasks lost), down 3 s, restarted"
    if name == "postgres-cut":
        terminated = cluster.cut()
        time.sleep(5)
        cluster.restore()
        return (
            f"connections to the soak database refused for 5 s (ALLOW_CONNECTIONS false) and "
            f"its {terminated} backends terminated (pg_terminate_backend)"
        )
    if name == "postgres-restart":
        return "the soak's PostgreSQL restarted: " + cluster.restart(POSTGRES_DOWN)
    raise ValueError(f"no fault {name!r}")


def settle(soak: Soak, beat: infra.Process) -> list[str]:
    """Let the workers finish what the clients left: first with beat (the reconciler re-drives
    games whose task a fault lost), then without it, until nothing moves. Without beat no turn
    times out, so a game stops where a person (they have stopped) or a pull bot is to act; a
    game whose seats are all played by workers now (its person's seat handed to the default bot
    after three timeouts, its registered bot suspended) plays on to its end first. Each phase
    has the --settle budget."""
    notes = []
    connections.close_all()  # the harness's own connection died with the database fault
    budget = soak.options.settle
    deadline = time.monotonic() + budget
    while checks.waiting_for_workers(timedelta(seconds=8)) and time.monotonic() < deadline:
        time.sleep(1)
    beat.stop()
    quiet_since, head = time.monotonic(), event_reads.head()
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = event_reads.head()
        if now != head:
            quiet_since, head = time.monotonic(), now
        elif time.monotonic() - quiet_since > 3 and not checks.waiting_for_workers(timedelta(0)):
            break
    else:
        if time.monotonic() - quiet_since <= 3:
            notes.append(f"the log still moved {budget:g} s after beat stopped")
        else:
            notes.append(f"games still waited for a worker {budget:g} s after beat stopped")
    return notes


def emails(soak: Soak) -> list[str]:
    """Every email the service wrote (Django's file backend: one file per connection, each
    message followed by a line of 79 dashes)."""
    found: list[str] = []
    for path in sorted(soak.plan.mail.glob("*.log")):
        text = path.read_text(errors="replace")
        found += [message for message in text.split("-" * 79 + "\n") if message.strip()]
    return found


def report(soak: Soak, result: checks.Checks, found: leaks.Leaks, seconds: float) -> list[str]:
    record = soak.record
    counts = record.counts
    lines = [
        f"soak: {soak.options.games} games, {soak.options.minutes:g} min of play, "
        f"{seconds:.0f} s in all; logs in {soak.plan.logs}",
        "families: " + ", ".join(f"{name} {n}" for name, n in sorted(soak.families.items())),
        f"people: {len(soak.people)} ({sum(p.sleepy for p in soak.people)} never play); "
        f"registered bots: {', '.join(name for name, _, _ in BOTS)}",
        "games: " + ", ".join(f"{k} {v}" for k, v in sorted(result.figures["games"].items())),
        f"commands sent: {counts['commands sent']}",
        f"accepted: {counts['accepted']} (of them sent twice on purpose: {counts['sent twice']})",
        f"refused by rule: {counts['refused by rule']}",
        f"version conflicts: {counts['version conflicts']}",
        "errors seen by clients: "
        + (", ".join(f"{k}: {v}" for k, v in sorted(record.errors.items())) or "none"),
        "health answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(record.health.items())),
        "webhook calls: "
        + ", ".join(
            f"{h.name} {h.requests} ({h.faulty_answers} faulty)" for h in soak.webhooks.values()
        ),
        "bots now: "
        + ", ".join(f"{b.name} {b.status} ({b.strikes} strikes)" for b in Bot.objects.all()),
    ]
    lines += [f"{k}: {v}" for k, v in result.figures.items() if k != "games"]
    lines.append(f"faults injected: {len(soak.injected)}")
    lines += [f"  {line}" for line in soak.injected]
    checked = sum(found.checked.values())
    lines.append(
        f"payloads checked for hidden cards: {checked} ("
        + ", ".join(f"{k} {v}" for k, v in sorted(found.checked.items()))
        + f"); leaks: {len(found.failures)}"
    )
    for failure in [*result.failures, *found.failures][:30]:
        lines.append(f"FAILED: {failure}")
    return lines
