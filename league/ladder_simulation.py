"""A ladder simulated in-process (no database): built-in strategies as entrants, seated by the
ladder's own matchmaking (ratings.draw_tables), each table playing its set (duplicate deals:
one game per seat rotation, one seed) and rated by the ladder's own model (ratings.rate_set).
`manage.py ladder_sim` prints its report; docs/ladders.md quotes one.

It measures what the issue asks of matchmaking: how evenly the pairs of entrants meet, and
how close in rating a table is against tables drawn at random.
"""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bots.simulation import play_match
from bots.strategies import Strategy, find_strategy
from engine import Variant
from league import ratings

# No time passes in a simulation: no decay.
_NOW = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass
class SimEntrant:
    id: int
    name: str
    strategy: str
    skill: ratings.Skill = field(default_factory=ratings.Skill)
    games: int = 0
    wins: float = 0.0
    sets: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class LadderReport:
    entrants: list[SimEntrant]
    games: int
    sets: int
    # Games each pair of entrants played at one table.
    meetings: dict[tuple[int, int], int]
    # Mean over tables of the mean absolute mu gap between two entrants of the table, as
    # matchmaking drew them, and the same for the table if it had been drawn at random.
    table_gap: float
    random_gap: float

    def board(self) -> list[SimEntrant]:
        """The entrants by ordinal, best first."""
        return sorted(self.entrants, key=lambda e: (-e.skill.ordinal, e.id))

    def strategy_order(self) -> list[str]:
        """The strategies by the mean ordinal of their entrants, best first."""
        by_strategy: dict[str, list[float]] = {}
        for entrant in self.entrants:
            by_strategy.setdefault(entrant.strategy, []).append(entrant.skill.ordinal)
        return sorted(by_strategy, key=lambda s: -statistics.fmean(by_strategy[s]))


def _gap(skills: Sequence[ratings.Skill]) -> float:
    pairs = list(itertools.combinations(skills, 2))
    return statistics.fmean(abs(a.mu - b.mu) for a, b in pairs) if pairs else 0.0


def simulate_ladder(
    variant: Variant,
    strategies: Sequence[str],
    *,
    copies: int = 2,
    seats: int = 4,
    matches: int = 2000,
    duplicate: bool = True,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> LadderReport:
    """Play rounds of the ladder until `matches` games are played; every round seats every
    entrant it can (`copies` entrants per strategy)."""
    rng = random.Random(seed)
    entrants = [
        SimEntrant(id=number, name=f"{name}#{copy + 1}", strategy=name)
        for number, (name, copy) in enumerate(itertools.product(strategies, range(copies)))
    ]
    if len(entrants) < seats:
        raise ValueError(f"{len(entrants)} entrants cannot fill a table of {seats}")
    bots: dict[int, Strategy] = {e.id: find_strategy(e.strategy) for e in entrants}
    by_id = {e.id: e for e in entrants}
    meetings = {pair: 0 for pair in itertools.combinations(range(len(entrants)), 2)}
    gaps: list[float] = []
    random_gaps: list[float] = []
    games = sets = 0
    while games < matches:
        candidates = [ratings.Candidate(e.id, e.skill) for e in entrants]
        for table in ratings.draw_tables(candidates, seats, rng):
            if games >= matches:
                break
            skills = [by_id[i].skill for i in table]
            gaps.append(_gap(skills))
            random_gaps.append(_gap([e.skill for e in rng.sample(entrants, seats)]))
            size = seats if duplicate else 1
            deal = rng.randrange(2**32)
            game_places: dict[int, list[int]] = {i: [] for i in table}
            for rotation in range(size):
                # Seat s holds entrant table[(s - rotation) % k], as LadderSet.entry_at.
                seated = [table[(s - rotation) % seats] for s in range(seats)]
                result = play_match(variant, [bots[i] for i in seated], deal, keep_events=False)
                shares = ratings.win_shares(result.places)
                for s, entrant in enumerate(seated):
                    game_places[entrant].append(result.places[s])
                    by_id[entrant].games += 1
                    by_id[entrant].wins += shares[s]
                games += 1
                for a, b in itertools.combinations(sorted(table), 2):
                    meetings[a, b] += 1
                if progress is not None:
                    progress(1)
            rated = ratings.rate_set(skills, [None] * seats, [game_places[i] for i in table], _NOW)
            for i, after in zip(table, rated.after, strict=True):
                by_id[i].skill = after
                by_id[i].sets += 1
            sets += 1
    return LadderReport(
        entrants=entrants,
        games=games,
        sets=sets,
        meetings=meetings,
        table_gap=statistics.fmean(gaps),
        random_gap=statistics.fmean(random_gaps),
    )
