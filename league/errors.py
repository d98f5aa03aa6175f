"""The errors of the league services: games.errors.GameError's kind, a stable `code` for
programs and a `message` for people. Nothing is written when one is raised."""

from __future__ import annotations

from games.errors import Forbidden, GameError, GameNotFound


class CompetitionError(GameError):
    """The competition cannot do this (e.g. `not-a-ladder`: matchmaking asked of a league)."""

    code = "competition-error"


class InvalidCompetition(CompetitionError):
    """A competition that cannot be created as asked: `invalid-variant` (unknown rules or
    options), `invalid-setting` (a table size or time limit out of range), `slug-taken`."""

    code = "invalid-competition"


class EntryRefused(CompetitionError):
    """The entrant cannot join or leave: `invalid-entrant` (not exactly one of a user and a
    bot), `bot-validating`, `bot-suspended` and `bot-suspended-by-staff` (a ladder takes
    validated, active bots only),
    `bot-failed`, `bot-retired` (a bot retired by its owner enters nothing), `already-entered`,
    `not-entered`."""

    code = "entry-refused"


class ClubError(GameError):
    """A club cannot do this: `slug-taken`, `invalid-club`, `bad-invitation` (the link is
    wrong or was replaced), `already-member`, `not-a-member`, `no-request` (nothing to approve),
    `last-admin` (a club keeps at least one admin)."""

    code = "club-error"


class SeasonError(GameError):
    """A season cannot do this: `invalid-season` (settings the rules or the table refuse),
    `not-draft` (settings and entrants change, and a season is deleted, only before the start),
    `division-not-empty` (a draft's edit takes away a division with entrants), `not-running`,
    `too-few-entrants`, `not-a-member`, `fixtures-unfinished` (a season closes when every
    fixture has finished), `not-closed`, `has-next` (a season is followed once),
    `fixture-not-open` (no game yet), `fixture-over`, `invalid-seat`, `invalid-deadline`,
    `own-fixture` (an admin forfeits no seat of a fixture they play in)."""

    code = "season-error"


class NotClubAdmin(Forbidden):
    """Only the club's admins (or staff) may do this."""

    code = "not-club-admin"


class NotYourBot(Forbidden):
    """A club's admin enters a bot in a season only if they own it (a built-in bot registered
    for the entry is registered to them)."""

    code = "not-your-bot"


class LeagueNotFound(GameNotFound):
    """No club, season or player of that address (code `not-found`; the API's 404)."""

    code = "not-found"

    def __init__(self, what: str) -> None:
        GameError.__init__(self, f"there is no {what}")


class ClubNotFound(LeagueNotFound):
    pass


class SeasonNotFound(LeagueNotFound):
    pass


class PlayerNotFound(LeagueNotFound):
    pass


class LadderNotFound(LeagueNotFound):
    pass


class BotNotFound(LeagueNotFound):
    pass
