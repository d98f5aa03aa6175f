"""The dispatcher: the one place that turns what was committed into work for the workers.

It listens to the store (every committed append, games/store.py `subscribe`) and to the domain's
outcomes (games/outbox.py), and sends tasks (games/tasks.py): advance a game whose next seat a
worker moves, start or stop people's turn clocks (and email a turn that started), settle a pull
bot's validation round when one of its games ends, play a validation round that opened, finish
the games of one that closed, and, when tasks run in-process (no broker), catch the projections
up. Nothing else sends a task on commit; the beat sweeps find again whatever a lost task should
have done (docs/workers.md).

A request does only its own work: an append made outside a worker's task (a person's or a pull
bot's command through the API or the play page) sends the one task `dispatch_append`, and the
worker decides and does the rest (`dispatch_game`). An append made inside a task (a bot run, a
sweep) is dispatched there and then; so is every append when tasks run in-process (`make run`),
where the tasks it sends are queued and run after the running one (config/celery.py).
"""

from __future__ import annotations

from collections.abc import Callable

from celery import current_task, shared_task

from clocks import deadlines
from games import outbox, reads, seats, store, tasks
from games.game_settings import GameSettings

# Called on commit with the id and settings of a game whose match is over: the league's
# dispatcher (league/dispatch.py) registers here, as games knows nothing of leagues.
MatchOverListener = Callable[[int, GameSettings], None]
_match_over: list[MatchOverListener] = []


def on_match_over(listener: MatchOverListener) -> None:
    """Call `listener(game_id, settings)` after the commit of an append that leaves a match
    over (at least once: an append after the end, a seat fact, calls it again)."""
    _match_over.append(listener)


def after_append(result: store.AppendResult) -> None:
    """Store listener (on commit): dispatch the game here inside a worker's task, else hand it
    to a worker (in-process, without a broker, `delay` runs it at once). An append its request
    marked quiet (seats.asks_no_worker: seats.work_for would find nothing) is not
    dispatched, except in-process, where the dispatch also catches the projections up."""
    if result.quiet and not tasks.run_projections.app.conf.task_always_eager:
        return
    if current_task:
        dispatch_game(result.game_id)
    else:
        dispatch_append.delay(result.game_id)


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
    """The dispatch of an append a request made: the request only sends this (docs/workers.md)."""
    dispatch_game(game_id)


def after_outcome(outcome: outbox.Outcome) -> None:
    """Outbox subscriber (on commit)."""
    if isinstance(outcome, outbox.RoundOpened):
        tasks.validate_bot.delay(outcome.bot_id, outcome.round)
    elif isinstance(outcome, outbox.RoundClosed):
        tasks.finish_validation_games.delay(outcome.bot_id, outcome.round)
    elif isinstance(outcome, outbox.TurnStarted):
        tasks.send_turn_email.delay(outcome.notice_id)


def connect() -> None:
    """Subscribe the dispatcher (GamesConfig.ready, once per process)."""
    store.subscribe(after_append)
    outbox.subscribe(after_outcome)
