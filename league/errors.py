"""The errors of the league services: games.errors.GameError's kind, a stable `code` for
programs and a `message` for people. Nothing is written when one is raised."""

from __future__ import annotations

from games.errors import GameError


class CompetitionError(GameError):
    """The competition cannot do this (e.g. `not-a-ladder`: matchmaking asked of a league)."""

    code = "competition-error"


class InvalidCompetition(CompetitionError):
    """A competition that cannot be created as asked: `invalid-variant` (unknown rules or
    options), `invalid-setting` (a table size or time limit out of range), `slug-taken`."""

    code = "invalid-competition"


class EntryRefused(CompetitionError):
    """The entrant cannot join or leave: `invalid-entrant` (not exactly one of a user and a
    bot), `bot-not-active` (a ladder takes validated bots only), `bot-failed`,
    `already-entered`, `not-entered`."""

    code = "entry-refused"
