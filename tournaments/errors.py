"""The errors of the tournament services: games.errors.GameError's kind, a stable `code` for
programs and a `message` for people. Nothing is written when one is raised. The API's tables of
codes: docs/api.md, "Tournaments"."""

from __future__ import annotations

from games.errors import Forbidden, GameError, GameNotFound


class TournamentRefused(GameError):
    """The tournament cannot do this: `invalid-tournament` (settings the rules or the table
    refuse), `invalid-variant`, `slug-taken`,
    `not-open` (it has started), `not-running`, `too-few-entrants`, `too-few-for-duplicate`."""

    code = "tournament-error"


class TournamentEntryRefused(TournamentRefused):
    """The entrant cannot enter or withdraw: `tournament-closed` (outside the entry window, or
    started), `tournament-full`, `bots-not-allowed` (people only), `already-entered`,
    `not-entered`, `tournament-finished`, `invalid-entrant` (not exactly one of a person and a
    bot), `not-a-member` (a club's tournament takes its members), `bot-failed`, `bot-retired`,
    `birth-date-missing` (newno needs the people's ages); pausing and resuming in an arena:
    `not-an-arena`, `already-paused`, `not-paused`."""

    code = "entry-refused"


class NotOrganiser(Forbidden):
    """Only the organiser (a club's admins for a club's tournament, staff for any) may do this;
    `not-staff`: only staff run a site-wide tournament; `not-your-bot`: a bot is entered by
    its owner or the organiser."""

    code = "not-organiser"


class TournamentNotFound(GameNotFound):
    """No tournament of that address (code `not-found`; the API's 404)."""

    code = "not-found"

    def __init__(self, slug: str) -> None:
        GameError.__init__(self, f"there is no tournament {slug!r}")
