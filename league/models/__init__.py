"""The league app's tables, a module a kind: competitions and their entrants
(models/competitions.py), clubs and their seasons (models/clubs.py), the ladders' sets and
ratings (models/ladders.py). Django finds them all here, and `from league.models import X` reads
any; the migrations read the competition's defaults and validator here too."""

from __future__ import annotations

from league.models.clubs import (
    Bye,
    Club,
    ClubRecord,
    Division,
    DivisionEntry,
    Fixture,
    FixtureSeat,
    Meeting,
    Membership,
    Season,
    Standing,
)
from league.models.competitions import (
    Competition,
    Entry,
    PlayerFamilyRecord,
    default_bot_timeout,
    default_grace_seconds,
    default_pull_timeout,
    default_turn_seconds,
    validate_seconds,
)
from league.models.ladders import LadderMeeting, LadderSet, Rating, RatingChange, SiteVisit

__all__ = [
    "Competition",
    "Entry",
    "Club",
    "Membership",
    "Season",
    "Division",
    "ClubRecord",
    "DivisionEntry",
    "Fixture",
    "FixtureSeat",
    "Bye",
    "Standing",
    "Meeting",
    "PlayerFamilyRecord",
    "LadderSet",
    "Rating",
    "RatingChange",
    "LadderMeeting",
    "SiteVisit",
    # Named by league/migrations/0001_initial.py and 0005_competition_grace.py.
    "default_turn_seconds",
    "default_bot_timeout",
    "default_pull_timeout",
    "default_grace_seconds",
    "validate_seconds",
]
