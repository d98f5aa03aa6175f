"""The games app's tables, a module a kind: the event store's (models/store.py), the read
models (models/reads.py), registered bots (models/bots.py), turn notices and presence
(models/notices.py), rematch offers (models/rematch.py). Django finds them all here, and
`from games.models import X` reads any."""

from __future__ import annotations

from games.models.bots import Bot, BotCall
from games.models.notices import NotificationPreference, Presence, SiteActivity, TurnNotice
from games.models.reads import ActivityMinute, GameSummary, HandResult, MatchResult
from games.models.rematch import Rematch, RematchAnswer
from games.models.store import (
    ArchivedStream,
    Game,
    GameEvent,
    GameLease,
    PositionCounter,
    ProjectionCheckpoint,
    RebuildPartition,
    RebuildRun,
    Seat,
    Snapshot,
)

__all__ = [
    "Game",
    "Seat",
    "GameEvent",
    "PositionCounter",
    "Snapshot",
    "GameLease",
    "ProjectionCheckpoint",
    "ArchivedStream",
    "RebuildRun",
    "RebuildPartition",
    "GameSummary",
    "HandResult",
    "MatchResult",
    "ActivityMinute",
    "Bot",
    "BotCall",
    "NotificationPreference",
    "TurnNotice",
    "Presence",
    "SiteActivity",
    "Rematch",
    "RematchAnswer",
]
