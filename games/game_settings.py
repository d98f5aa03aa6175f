"""A game's settings: what it belongs to and the limits it was created with, typed.

Stored as `Game.context` (JSON), written once when the game is created and never changed, so a
running game keeps its settings whatever happens to its competition later. A limit left unset
falls back to the site's setting of the day it is read (GAMES_TURN_SECONDS, GAMES_GRACE_SECONDS,
BOTS_*_TIMEOUT).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

# What a game belongs to (`kind`): a league's or a ladder's game, a bot's validation match, or
# nothing ("" for a game made by hand or for the demo).
VALIDATION = "validation"
# The context key of a practice deal (GameSettings.seed_chosen_by), for queries that leave
# such games out (`.exclude(context__has_key=PRACTICE_KEY)`).
PRACTICE_KEY = "seed_chosen_by"
# The context key of a practice match for a bot's owner (GameSettings.watched_by).
WATCH_KEY = "watched_by"


@dataclass(frozen=True, slots=True)
class GameSettings:
    kind: str = ""
    # The league.Competition the game belongs to (an id, not a foreign key: games does not
    # depend on league).
    competition: int | None = None
    # The league.Fixture the game was made for (a club season's game).
    fixture: int | None = None
    turn_seconds: int | None = None
    bot_timeout: float | None = None
    pull_timeout: float | None = None
    vacation_days: int | None = None
    # Seconds bots wait while a person at the table has an out-of-turn chance (bots/turns.py).
    grace_seconds: float | None = None
    # A ladder's game: its league.LadderSet and which seat rotation of the set it plays.
    ladder_set: int | None = None
    rotation: int | None = None
    # The games of the set: its log is revealed only once all of them are over (one seed).
    set_size: int | None = None
    # Games dealt from one seed (a duplicate tournament round's tables): none of their logs is
    # public while any of them plays (games/reveal.py).
    deal_group: str | None = None
    # A validation match: the bot, its round, and which match of the round.
    bot: int | None = None
    round: int | None = None
    match: int | None = None
    # A validation match played in-process by the validate_bot task: the dispatcher leaves it.
    inline: bool = False
    # A game `make run`'s seed_demo made: its name there ("waiting-newno"), so a second run
    # finds it.
    demo: str = ""
    # A practice deal: the id of the person who chose the game's seed (POST /api/games "seed",
    # allowed only when every other seat is a built-in bot or one of their own bots). Every
    # seat is told (games/lobby.py game_detail), and the game counts for no record.
    seed_chosen_by: int | None = None
    # A practice match for a bot's owner: the id of the person who started this game of bots
    # alone, holding no seat, to watch their own bot play (games/lobby.py game_start). Nobody's
    # rating moves (no person sits, and it is never `rated`) and it counts for no record.
    watched_by: int | None = None
    # A rated game moves its people's ratings (ratings/): a rated open table's game, or a
    # competition's game where the competition says so. Casual (False) moves nothing.
    rated: bool = False
    # The tables.Table the game was started from (an open table or an accepted challenge).
    table: int | None = None
    # The tournaments.Tournament whose round the game plays (an id: games knows no tournaments).
    tournament: int | None = None
    # A time no turn's clock runs past (ISO 8601): a tournament round's deadline, when the seats
    # still playing forfeit (tournaments/rounds.py), so a turn never seems to have longer.
    closes_at: str | None = None

    @classmethod
    def of(cls, context: Mapping[str, Any] | None) -> GameSettings:
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in (context or {}).items() if k in known and v is not None})

    def as_context(self) -> dict[str, Any]:
        """The JSON stored in Game.context (unset fields left out)."""
        return {
            k: v for k, v in asdict(self).items() if v is not None and v != "" and v is not False
        }

    @property
    def turn_limit(self) -> int:
        """Seconds a person has for a turn."""
        return int(self.turn_seconds or settings.GAMES_TURN_SECONDS)

    def turn_deadline(self, start: datetime) -> datetime:
        """When a person's turn that starts at `start` ends: the turn limit after it, and never
        later than `closes_at`."""
        deadline = start + timedelta(seconds=self.turn_limit)
        return min(deadline, datetime.fromisoformat(self.closes_at)) if self.closes_at else deadline

    @property
    def webhook_limit(self) -> float:
        """Seconds a webhook bot has to answer, for the whole exchange."""
        return float(self.bot_timeout or settings.BOTS_WEBHOOK_TIMEOUT)

    @property
    def pull_limit(self) -> float:
        """Seconds a pull bot has for a decision after the game last moved."""
        return float(self.pull_timeout or settings.BOTS_PULL_TIMEOUT)

    @property
    def grace(self) -> float:
        """Seconds bots wait while a person at the table has an out-of-turn chance."""
        return float(
            settings.GAMES_GRACE_SECONDS if self.grace_seconds is None else self.grace_seconds
        )

    @property
    def vacation_budget(self) -> int:
        """Vacation days each seat may take in the game (none unless its competition gives some)."""
        return self.vacation_days or 0

    @property
    def is_validation(self) -> bool:
        return self.kind == VALIDATION
