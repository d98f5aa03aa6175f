"""Out-of-turn windows for remote bots: calling uno, catching, newno jump-ins.

Built-in bots get these chances from the driver after every command (bots/driver.py). A webhook
or pull bot gets them as a **window**: when an append opens a chance for one of its seats (a new
uno debt it may call or catch, a newno jump-in on a card it holds) the worker offers it, and
holds the game's in-process moves until the window is over:

- a webhook bot is POSTed the usual body with `"optional": true`, with one deadline of
  BOTS_WINDOW_SECONDS (at most its game's webhook limit) for the whole exchange; every webhook
  seat with a chance is asked at once, and their answers are tried in the driver's order;
- a pull bot finds the decision in GET /api/bot/decisions with `"optional": true` and a
  `deadline` BOTS_PULL_WINDOW_SECONDS after the append; the game holds until then
  (`Offer.hold`: games/tasks.py comes back when it ends).

A window is optional: `null` declines, and a late, absent, failed or refused answer is no strike
and is left out of the bot's call stats (an accepted one is a command in the log like any
other). Which chances are new is read from the log: the uno debts and card plays of the game's
last append, so a window is offered once for each chance, and a chance that outlives its window
(a newno debt no one caught) holds nothing again. A window's answer is appended as the bot with
the command id `window:<version>:<seat>` in the bot's namespace, expecting the version asked at.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from bots.driver import chances
from bots.remote import webhook
from bots.remote.leases import Lease
from bots.remote.webhook_turns import request_body, submit_answer, webhook_turn
from engine import State, Variant
from engine.events import CARD_PLAYED, UNO_OWED
from games import event_reads
from games.game_settings import GameSettings
from games.models import Bot, Game, GameEvent
from games.repository import repository

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Offer:
    """What offering the windows at a version did: the version after it, the commands appended
    (a bot's answer, or an in-turn decision), and how many seconds the game still holds for a
    pull bot's window."""

    version: int
    commands: int = 0
    hold: float = 0.0
    conflict: bool = False
    strike: str = ""


def new_chances(game: Game, variant: Variant, state: State, seats: Collection[int]) -> list[int]:
    """The seats of `seats` with an out-of-turn chance the game's last append opened and a
    command for it that costs them nothing (a skipped newno seat holding the skip has only
    catches that would cost it cards: it is offered no window), in the driver's order. Reads the
    log only when one of them has any chance, so most calls cost no query."""
    if not any(seat in seats for seat in chances(state)):
        return []
    first = (
        GameEvent.objects.filter(game_id=game.pk, command_id__isnull=False)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    if first is None:
        return []
    last = event_reads.load(game.pk, after=first - 1, types=(UNO_OWED, CARD_PLAYED))
    owed = frozenset(event["seat"] for event in last if event["type"] == UNO_OWED)
    # A jump-in window never outlives the command after the play that opened it.
    jump = any(event["type"] == CARD_PLAYED for event in last)
    return [
        seat
        for seat in chances(state, owed=owed, jump=jump)
        if seat in seats and variant.free_commands(state, seat)
    ]


def pull_window_end(game: Game) -> datetime:
    """A pull bot's window closes this long after the append that opened it."""
    opened = game.last_activity or game.created_at
    return opened + timedelta(seconds=settings.BOTS_PULL_WINDOW_SECONDS)


def offer(
    *,
    game: Game,
    variant: Variant,
    state: State,
    version: int,
    webhooks: Mapping[int, Bot],
    pulls: Mapping[int, Bot],
    in_turn: int | None,
    lease: Lease | None = None,
) -> Offer | None:
    """Offer the windows the game's last append opened for remote seats; None when the game need
    not wait for any (none, or all declined or over): the worker's run goes on."""
    seats = new_chances(game, variant, state, webhooks.keys() | pulls.keys())
    if not seats:
        return None
    if in_turn is not None and in_turn in seats:
        # The webhook seat the game waits for owes the call: its own turn comes first, ahead of
        # anyone who would catch it (the driver's order), and it may call there.
        turn = webhook_turn(
            game=game, variant=variant, state=state, version=version, seat=in_turn,
            bot=webhooks[in_turn], lease=lease,
        )  # fmt: skip
        return Offer(turn.version, turn.commands, conflict=turn.conflict, strike=turn.strike)
    optional = {seat: webhooks[seat] for seat in seats if seat in webhooks}
    optional = {seat: bot for seat, bot in optional.items() if seat not in state.to_act}
    if optional:
        answered = _ask_webhooks(game, variant, state, version, optional, lease)
        if answered is not None:
            return answered
    if any(seat in pulls for seat in seats):
        left = (pull_window_end(game) - timezone.now()).total_seconds()
        if left > 0:
            return Offer(version, hold=left)
    return None


def _ask_webhooks(
    game: Game,
    variant: Variant,
    state: State,
    version: int,
    bots: Mapping[int, Bot],
    lease: Lease | None,
) -> Offer | None:
    """POST the optional window to every seat of `bots` at once; append the first answer (in
    the driver's order) the rules accept. None when none does. The hosts are resolved first,
    then the game's `lease` is renewed (leases.LeaseLost, nothing sent, when it is gone), then
    the requests go out."""
    timeout = min(settings.BOTS_WINDOW_SECONDS, GameSettings.of(game.context).webhook_limit)
    deadline = timezone.now() + timedelta(seconds=timeout)
    payloads = {
        seat: request_body(
            game_id=game.pk,
            variant=game.variant,
            seat=seat,
            version=version,
            view=variant.view(state, seat),
            legal=variant.legal_commands(state, seat),
            deadline=deadline,
            optional=True,
        )
        for seat in bots
    }

    # HTTP only, no database: safe in threads of their own.
    def begin(seat: int) -> webhook.Call:
        return webhook.begin(bots[seat].url, timeout=timeout)

    def send(seat: int) -> webhook.Answer:
        return webhook.send(calls[seat], secret=bots[seat].secret, payload=payloads[seat])

    if len(bots) == 1:
        calls = {seat: begin(seat) for seat in bots}
        if lease is not None:
            lease.renew()
        answers = {seat: send(seat) for seat in bots}
    else:
        # One window for all: asked one after another, a slow bot would eat the next one's.
        with ThreadPoolExecutor(max_workers=len(bots)) as pool:
            calls = dict(zip(bots, pool.map(begin, bots), strict=True))
            if lease is not None:
                lease.renew()
            answers = dict(zip(bots, pool.map(send, bots), strict=True))
    for seat, bot in bots.items():
        answer = answers[seat]
        command = answer.command
        if answer.outcome != webhook.OK or command is None or command == {}:
            _declined(game, seat, bot, f"{answer.outcome} {answer.detail}".strip())
            continue
        submitted = submit_answer(
            game=game,
            seat=seat,
            bot=bot,
            command=command,
            version=version,
            command_id=f"window:{version}:{seat}",
        )
        if submitted.refused is not None:
            _declined(game, seat, bot, f"refused {command!r}: {submitted.refused}")
            continue
        return Offer(submitted.version, submitted.commands, conflict=submitted.conflict)
    return None


def _declined(game: Game, seat: int, bot: Bot, why: str) -> None:
    # No strike and no stats: a window is the bot's to let go. The log line is for its owner's
    # questions ("why did my catch not count?").
    log.info("bot %s, game %s seat %s: window let go (%s)", bot.pk, game.pk, seat, why)


def optional_decision(game: Game, seat: int) -> dict[str, Any] | None:
    """A pull bot's open window in `game` for `seat` (out of turn), as GET /api/bot/decisions
    lists it, or None. The view is the one game_view gives the seat."""
    end = pull_window_end(game)
    if end <= timezone.now():
        return None
    events = event_reads.load(game.pk)
    variant = repository.variant(game, events)
    state = variant.replay(events)
    if seat in state.to_act or seat not in new_chances(game, variant, state, {seat}):
        return None
    view = variant.view(state, seat)
    view["version"] = len(events)
    view["legal"] = variant.legal_commands(state, seat)
    return {
        "game": game.pk,
        "variant": game.variant,
        "seat": seat,
        "version": view["version"],
        "view": view,
        "legal": view["legal"],
        "deadline": end.isoformat(timespec="microseconds"),
        "optional": True,
    }
