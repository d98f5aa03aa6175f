"""Ladder ratings, pure Python: the openskill model and its constants, the decay for time away,
a set's placements, and matchmaking's tables. docs/ladders.md states the model.

No Django here: the ratings projection (league/projections.py), matchmaking
(league/ladders.py) and `manage.py ladder_sim` call the same functions, so the simulation
measures exactly what the ladder runs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from openskill.models import PlackettLuce

# openskill's defaults (Weng and Lin): a new entrant is 25 +- 25/3; beta is the spread of
# performance in one game, tau the uncertainty added before every update so sigma never
# freezes.
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
# Time away: sigma grows as if this much variance were added each day (sigma^2 += DECAY^2 per
# day), never past a newcomer's SIGMA. 30 days away take a settled 1.5 to about 3.1.
DECAY_PER_DAY = 0.5
# An entrant not rated for this long drops off the leaderboard (it keeps its rating, shown on
# its own page, and is back on the board after its next rated set).
BOARD_DAYS = 30
# Matchmaking orders entrants by mu plus noise of this deviation (combined with each entrant's
# own sigma), so tables are close in skill; and each entrant, with this chance, is placed
# anywhere in the field's range instead, so every pair of entrants meets now and then.
MATCH_NOISE = 2.0
# The rating events a leaderboard line's trend shows (Rating.trend).
TREND_POINTS = 12
WILDCARD = 0.15

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The leaderboard's sort key: 99.9% sure the skill is at least this (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


def decayed(skill: Skill, last: datetime | None, now: datetime) -> Skill:
    """`skill` after the time away from `last` to `now`: sigma grows, mu stays."""
    if last is None or now <= last:
        return skill
    days = (now - last).total_seconds() / 86400
    sigma = math.sqrt(skill.sigma**2 + DECAY_PER_DAY**2 * days)
    return Skill(skill.mu, min(sigma, max(SIGMA, skill.sigma)))


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """One rating event: each entrant's skill after finishing at `places` (1 is best; equal
    places are a shared place). Plackett-Luce, one entrant a team."""
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def shared_places(totals: Sequence[float]) -> list[int]:
    """Places from totals where lower is better, ties shared: [3, 5, 3, 8] -> [1, 3, 1, 4]."""
    return [1 + sum(1 for other in totals if other < total) for total in totals]


def set_places(game_places: Sequence[Sequence[int]]) -> list[int]:
    """A set's places from the places each entrant took in each game of the set (entrant by
    entrant): the sum of its places decides, ties shared. A set of one game is that game."""
    return shared_places([sum(places) for places in game_places])


def win_shares(places: Sequence[int]) -> list[float]:
    """Each seat's share of the win in one game: a shared first place is split."""
    firsts = sum(1 for place in places if place == 1)
    return [1 / firsts if place == 1 else 0.0 for place in places]


@dataclass(frozen=True, slots=True)
class Candidate:
    """An entrant matchmaking may seat, with its current skill (decayed)."""

    id: int
    skill: Skill


def draw_tables(candidates: Sequence[Candidate], size: int, rng: random.Random) -> list[list[int]]:
    """Tables of `size` from the candidates, close in skill: ordered by mu plus noise
    (MATCH_NOISE and the entrant's sigma: an uncertain entrant meets a wider range), a
    WILDCARD share placed anywhere in the field, then cut in order. Those who fill no table
    (fewer than `size` left) wait, chosen at random."""
    count = len(candidates) // size
    if count == 0:
        return []
    seated = rng.sample(list(candidates), count * size)
    low = min(c.skill.mu for c in seated)
    high = max(c.skill.mu for c in seated)
    keys = {
        c.id: rng.uniform(low, high)
        if rng.random() < WILDCARD
        else c.skill.mu + rng.gauss(0.0, math.hypot(MATCH_NOISE, c.skill.sigma))
        for c in seated
    }
    order = sorted(seated, key=lambda c: (keys[c.id], c.id))
    tables = [[c.id for c in order[i : i + size]] for i in range(0, len(order), size)]
    # Seats within a table at random: the first game's seat order is part of the draw.
    for table in tables:
        rng.shuffle(table)
    return tables


@dataclass(frozen=True, slots=True)
class RatedSet:
    """What one set did to each entrant (entrant by entrant, as given)."""

    before: list[Skill]
    after: list[Skill]
    places: list[int]


def rate_set(
    before: Sequence[Skill],
    last_played: Sequence[datetime | None],
    game_places: Sequence[Sequence[int]],
    at: datetime,
) -> RatedSet:
    """Decay each entrant for its time away up to `at`, then rate the set's places."""
    decayed_before = [decayed(s, last, at) for s, last in zip(before, last_played, strict=True)]
    places = set_places(game_places)
    return RatedSet(decayed_before, rate(decayed_before, places), places)


def meetings(places: Mapping[int, int]) -> list[tuple[int, int, bool]]:
    """Every ordered pair of one game's entrants and whether the first finished ahead."""
    return [
        (entry, other, places[entry] < places[other])
        for entry in places
        for other in places
        if entry != other
    ]
