"""Variants and durations in words, for the pages and the emails: "Official + precognitive",
"winner takes all to 500 · 7 cards · uno penalty 2", "2 h 13 min left", "Mon 30 Nov 2026,
17:27 UTC"."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.utils import timezone

FAMILY_NAMES = {
    "official": "Official",
    "basic-plus": "Basic-plus",
    "newno": "NEWNO",
    "censorship": "Censorship",
}
SCORING_NAMES = {
    "winner-takes": "winner takes all",
    "running-total": "running total (lowest wins)",
    "single-hand": "single hand",
}


def family_name(family: str) -> str:
    """A family of records (league.standings.family_of) in words; precognitive counts as one."""
    if family == "precognitive":
        return "Precognitive"
    return FAMILY_NAMES.get(family, family)


def variant_title(spec: Mapping[str, Any]) -> str:
    """The family, and the modifier if any: "Basic-plus + precognitive"."""
    rules = str(spec.get("rules", "official"))
    title = FAMILY_NAMES.get(rules, rules)
    return f"{title} + precognitive" if spec.get("precognitive") else title


def variant_details(spec: Mapping[str, Any]) -> str:
    """The options that shape a match, from a normalised spec (every option spelled out)."""
    options = spec.get("options") or {}
    scoring = options.get("scoring")
    parts = []
    if scoring:
        words = SCORING_NAMES.get(scoring, scoring)
        target = options.get("target")
        parts.append(f"{words} to {target}" if target and scoring != "single-hand" else words)
    if "hand_size" in options:
        parts.append(f"{options['hand_size']} cards")
    if "uno_penalty" in options:
        parts.append(f"uno penalty {options['uno_penalty']}")
    if options.get("dealer_draws") is False:
        parts.append("the dealer never draws")
    precognitive = spec.get("precognitive")
    if isinstance(precognitive, Mapping):
        parts.append(lane_words(precognitive))
    return " · ".join(parts)


# The precognitive modifier's `sight` in a player's words (docs/rules.md, "Precognitive
# options"): who sees the cards in a lane.
SIGHT_WORDS = {
    "sighted": "each player sees their own",
    "blind": "face down to all",
    "telepathic": "face up to all",
}


def lane_words(precognitive: Mapping[str, Any]) -> str:
    """The lane in words: "a lane of 2 cards, each player sees their own"."""
    lane = precognitive.get("lane", 1)
    sight = str(precognitive.get("sight", "sighted"))
    cards = "card" if lane == 1 else "cards"
    return f"a lane of {lane} {cards}, {SIGHT_WORDS.get(sight, sight)}"


def duration(seconds: int) -> str:
    """Whole days, hours or minutes: "3 days", "12 hours", "5 minutes"."""
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} seconds"


def moment(when: datetime.datetime) -> str:
    """A moment in words, as the site's messages say it: "Mon 30 Nov 2026, 17:27 UTC" (in the
    current time zone, the site's UTC)."""
    return timezone.localtime(when).strftime("%a %-d %b %Y, %H:%M %Z")


def time_left(deadline: datetime.datetime, now: datetime.datetime) -> str:
    """How long until `deadline`, coarse enough to read at a glance: "2 h 13 min left".

    The only place these words are made: the lobby's script (static/notify.js) counts no time
    itself, it takes the countdowns from the lobby it fetches again every 20 s.
    """
    seconds = int((deadline - now).total_seconds())
    if seconds <= 0:
        return "time is up"
    minutes, hours, days = seconds // 60 % 60, seconds // 3600 % 24, seconds // 86400
    if days:
        return f"{days} d {hours} h left"
    if hours:
        return f"{hours} h {minutes} min left"
    if minutes:
        return f"{minutes} min left"
    return "under a minute left"
