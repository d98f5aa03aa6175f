"""The dispatcher: the one place that turns what was committed into work for the workers.

It listens to the store (every committed append, games/appends.py `subscribe`) and to the domain's
outcomes (games/outbox.py), and sends tasks (games/tasks.py): advance a game whose next seat a
worker moves, start or stop people's turn clocks (and email a turn that started), settle a pull
bot's validation round when one of its games ends, play a validation round that opened, finish
the games of one that closed, tell the people of a game whose match is over how they placed
(their turn notices become it: games/match_end_notice.py), email a challenge (tables/tasks.py),
and, when tasks run in-process (no broker), catch the projections up. Nothing else sends a task
on commit; the beat sweeps find again whatever a lost task should have done (docs/workers.md).

A request does only its own work: an append made outside a worker's task (a person's or a pull
bot's command through the API or the play page) hands its game to the workers (`hand_over`: the
game's id added to a set in the broker's Redis, and one task `dispatch_pending` sent when none
is on its way), and a worker decides and does the rest (`dispatch_game`) for every game handed
over. An append made inside a task (a bot run, a
sweep) is dispatched there and then; so is every append when tasks run in-process (`make run`),
where the tasks it sends are queued and run after the running one (config/celery.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import redis
from celery import current_task, shared_task

from clocks import deadlines
from games import appends, match_end_notice, outbox, reads, seats, tasks
from games.game_settings import GameSettings
from games.redis_scripts import kept_script
from tables import tasks as table_tasks

log = logging.getLogger(__name__)

# Called on commit with the id and settings of a game whose match is over: the league's
# dispatcher (league/dispatch.py) registers here, as games knows nothing of leagues.
MatchOverListener = Callable[[int, GameSettings], None]
_match_over: list[MatchOverListener] = []


def on_match_over(listener: MatchOverListener) -> None:
    """Call `listener(game_id, settings)` after the commit of an append that leaves a match
    over (at least once: an append after the end, a seat fact, calls it again)."""
    _match_over.append(listener)


def after_append(result: appends.AppendResult) -> None:
    """Store listener (on commit): dispatch the game here inside a worker's task, else hand it
    to a worker (`hand_over`; in-process, without a broker, `dispatch_append` runs at once).
    An append its request marked quiet (seats.asks_no_worker: seats.work_for would find
    nothing) is not dispatched, except in-process, where the dispatch also catches the
    projections up."""
    in_process = tasks.run_projections.app.conf.task_always_eager
    if result.quiet and not in_process:
        return
    if current_task:
        dispatch_game(result.game_id)
    elif in_process:
        dispatch_append.delay(result.game_id)
    else:
        hand_over(result.game_id)


# A request hands its game to the workers through the broker's Redis: the game's id added to
# the set PENDING, and, when no drain is on its way (ARMED, set for at most ARMED_SECONDS), one
# `dispatch_pending` task sent. Celery's `delay` costs about ten times the script's one
# command (docs/performance.md, "API"); under load one task carries many games, so the workers
# receive, acknowledge and trace one task for them all. ARMED's expiry bounds the wait of games
# handed over when a drain was lost: the next hand-over sends another (and the beat sweeps find
# a game nothing moved, docs/workers.md).
ARMED_SECONDS = 5
# Games a drain takes from the set at a time, and how many times before it makes way.
DRAIN_BATCH = 50
DRAIN_PASSES = 4
# (the broker's URL and the queue) -> the client and keys built for them, the latest only.
_handoff: tuple[tuple[str, str], tuple[Any, str, str]] | None = None


def _broker() -> tuple[Any, str, str] | None:
    """The broker's Redis client (kept while the broker and queue stay the same) with the set's
    and the mark's keys, named after the queue; None when the broker is not Redis (the memory
    broker of tests)."""
    global _handoff
    conf = dispatch_pending.app.conf
    named = (str(conf.broker_url or ""), str(conf.task_default_queue))
    if _handoff is None or _handoff[0] != named:
        url, queue = named
        if not url.startswith(("redis://", "rediss://")):
            return None
        client = redis.Redis.from_url(url)
        _handoff = (
            named,
            (client, f"games.dispatch.pending:{queue}", f"games.dispatch.armed:{queue}"),
        )
    return _handoff[1]


def hand_over(game_id: int) -> None:
    """Hand the dispatch of the game's append to a worker (from a request, after its commit):
    one round trip to Redis, and a task only when no drain is on its way."""
    broker = _broker()
    if broker is None:
        dispatch_append.delay(game_id)
        return
    client, pending, armed = broker
    if kept_script(client, "uno_hand_over_script", _HAND_OVER)(
        keys=[pending, armed], args=[game_id, ARMED_SECONDS], client=client
    ):
        dispatch_pending.delay()


# The hand-over in one command (EVALSHA): the game's id into PENDING and ARMED set unless it is;
# 1 when this call set it (the task is to be sent). A pipeline of the two cost redis-py two
# commands' packing and parsing (docs/performance.md, "API"); redis-py's Script sends the script
# again to a Redis that lost it (a restart).
_HAND_OVER = """
redis.call('SADD', KEYS[1], ARGV[1])
if redis.call('SET', KEYS[2], 1, 'NX', 'EX', ARGV[2]) then return 1 end
return 0
"""


@shared_task(ignore_result=True, name="games.dispatch.dispatch_pending")
def dispatch_pending() -> None:
    """Dispatch the games handed over (`hand_over`) until none is left, or DRAIN_PASSES
    batches. The mark comes off before the last look at the set: a game added after that look
    finds no mark and sends a drain of its own; one added before it is taken here. A drain that
    still finds games after its passes sends the next one, behind the tasks queued meanwhile
    (a bot's run), so that a steady stream of commands never holds a worker for itself."""
    broker = _broker()
    if broker is None:
        return
    client, pending, armed = broker
    for _ in range(DRAIN_PASSES):
        ids = client.spop(pending, DRAIN_BATCH)
        if not ids:
            client.delete(armed)
            ids = client.spop(pending, DRAIN_BATCH)
            if not ids:
                return
        for game_id in sorted(int(raw) for raw in ids):
            try:
                dispatch_game(game_id)
            except Exception:
                # As a failed task: logged, the others still dispatched; the sweeps find it again.
                log.exception("the dispatch of game %s failed", game_id)
    client.set(armed, 1, ex=ARMED_SECONDS)
    dispatch_pending.delay()


def dispatch_game(game_id: int) -> None:
    """What the game's last append asks for, from the game as it is now (a later append's
    dispatch may find the same work: every task is safe twice). One query, and one decision
    (seats.work_for, which a request asks before it sends this: seats.asks_no_worker), decide
    everything; most appends need only it."""
    # With the seats' people: the clocks below notify from the same read.
    read = reads.seats_of(game_id, names=True)
    rows = seats.rows_of(read)
    work = seats.work_for(rows)
    # Clocks first: a person's turn that ended here must have stopped before the next one starts
    # (in-process the tasks sent here run after this dispatch, queued: config/celery.py).
    if work.clocks:
        deadlines.sync_deadlines(game_id, seats=read)
    # A webhook seat out of turn may have been given a window to call, catch or jump in: only a
    # worker offers it (bots/remote/windows.py). Games without one never come here for it.
    if work.advance:
        tasks.advance_game.delay(game_id)
    if work.match_over:
        # Its people hear it ended and how they placed (their turn notices become it), once.
        match_end_notice.tell_ended(
            game_id, [(seat.user_id, seat.number) for seat in read if seat.user_id is not None]
        )
        found = GameSettings.of(rows[0].game__context)
        # A validation game always names its bot (bots/remote/validation.py makes it so).
        if found.is_validation and not found.inline and found.bot is not None:
            tasks.settle_validation.delay(found.bot, found.round)
        for listener in _match_over:
            listener(game_id, found)
    if tasks.run_projections.app.conf.task_always_eager:
        # In-process (`make run`, no broker), so the read models are fresh when the request that
        # appended answers. With a broker beat's 10 s run is enough: a task per append would be
        # one per bot run, each waiting on the checkpoints' locks to find a few events.
        tasks.run_projections.delay()


# Named as it was when it lived in games/tasks.py, so that a message queued by an older process
# still finds it; defined here so that tasks.py, which the dispatcher sends, imports nothing back.
@shared_task(ignore_result=True, name="games.tasks.dispatch_append")
def dispatch_append(game_id: int) -> None:
    """The dispatch of one game's append (a request sends it when the broker is not Redis; a
    message queued by an older process)."""
    dispatch_game(game_id)


def after_outcome(outcome: outbox.Outcome) -> None:
    """Outbox subscriber (on commit)."""
    if isinstance(outcome, outbox.RoundOpened):
        tasks.validate_bot.delay(outcome.bot_id, outcome.round)
    elif isinstance(outcome, outbox.RoundClosed):
        tasks.finish_validation_games.delay(outcome.bot_id, outcome.round)
    elif isinstance(outcome, outbox.TurnStarted):
        tasks.send_turn_email.delay(outcome.notice_id)
    elif isinstance(outcome, outbox.ChallengeSent):
        table_tasks.send_challenge_email.delay(outcome.table_id)
    elif isinstance(outcome, outbox.InvitationSent):
        table_tasks.send_invitation_emails.delay(outcome.table_id)


def connect() -> None:
    """Subscribe the dispatcher (GamesConfig.ready, once per process)."""
    appends.subscribe(after_append)
    outbox.subscribe(after_outcome)
