"""Work the domain asks for once its transaction commits, without knowing who does it.

Domain modules publish an outcome (`publish(RoundOpened(...))`); after the commit, every
subscriber is called with it. The workers' dispatcher (games/dispatch.py) is the subscriber
that turns outcomes, like committed events (games/appends.py `subscribe`), into tasks, so no
domain module imports the task layer. A subscriber that fails is logged and does not stop the
others; a lost outcome is made good by a beat sweep (docs/workers.md), because an outcome is a
hint and the database is the truth.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from django.db import transaction


@dataclass(frozen=True, slots=True)
class RoundOpened:
    """A built-in or webhook bot's validation round opened: a task plays it."""

    bot_id: int
    round: int


@dataclass(frozen=True, slots=True)
class RoundClosed:
    """A validation round failed or was replaced: its unfinished games need finishing."""

    bot_id: int
    round: int


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A person's turn started and they want an email for it: TurnNotice `notice_id`."""

    notice_id: int


@dataclass(frozen=True, slots=True)
class ChallengeSent:
    """A person challenged another (tables/services.py open_table): the challenged one's email,
    Table `table_id` (tables/challenge_emails.py)."""

    table_id: int


@dataclass(frozen=True, slots=True)
class InvitationSent:
    """A person invited others to a game (tables/invitations.py): each one's email, Table
    `table_id` (tables/challenge_emails.py)."""

    table_id: int


Outcome = RoundOpened | RoundClosed | TurnStarted | ChallengeSent | InvitationSent
Subscriber = Callable[[Outcome], None]
_subscribers: list[Subscriber] = []


def subscribe(subscriber: Subscriber) -> Callable[[], None]:
    """Call `subscriber(outcome)` after the commit of every published outcome; returns the
    unsubscribe function."""
    _subscribers.append(subscriber)
    return partial(_subscribers.remove, subscriber)


def publish(outcome: Outcome) -> None:
    """Hand `outcome` to the subscribers once the current transaction commits (at once
    outside one); nothing if it rolls back."""
    for subscriber in _subscribers:
        transaction.on_commit(_delivery(subscriber, outcome), robust=True)


def _delivery(subscriber: Subscriber, outcome: Outcome) -> Callable[[], None]:
    # A function, not a partial: when a robust callback raises, Django logs it by its
    # __qualname__, which a partial lacks (the AttributeError would escape the commit).
    def deliver() -> None:
        subscriber(outcome)

    return deliver
