"""Matchmaking's tables (league/ratings.py draw_tables) and the ladder simulation: tables are
whole and disjoint, closer in rating than tables drawn at random, every pair of entrants meets;
`manage.py ladder_sim` puts the strongest strategy on top."""

from __future__ import annotations

import itertools
import random
import statistics
from io import StringIO

import pytest
from django.core.management import call_command

from engine import Variant
from league import ratings
from league.ladder_simulation import simulate_ladder

# Twelve entrants spread over a wide range of skill.
FIELD = [ratings.Candidate(i, ratings.Skill(10 + 2.5 * i, 2.0)) for i in range(12)]


def gap(table):
    mus = [FIELD[i].skill.mu for i in table]
    return statistics.fmean(abs(a - b) for a, b in itertools.combinations(mus, 2))


def test_tables_are_whole_disjoint_and_the_rest_wait():
    rng = random.Random(0)
    for count in range(0, 12):
        tables = ratings.draw_tables(FIELD[:count], 4, rng)
        seated = [entrant for table in tables for entrant in table]
        assert all(len(table) == 4 for table in tables)
        assert len(seated) == len(set(seated)) == 4 * (count // 4)


def test_tables_are_closer_in_rating_than_random_ones_and_every_pair_meets():
    rng = random.Random(1)
    met = {pair: 0 for pair in itertools.combinations(range(12), 2)}
    gaps, random_gaps = [], []
    for _ in range(300):
        for table in ratings.draw_tables(FIELD, 4, rng):
            gaps.append(gap(table))
            for pair in itertools.combinations(sorted(table), 2):
                met[pair] += 1
        random_gaps.append(gap(rng.sample(range(12), 4)))
    assert statistics.fmean(gaps) < 0.75 * statistics.fmean(random_gaps)
    assert min(met.values()) > 0, "some pair of entrants never met"
    # Neighbours in rating meet most, the two ends least.
    assert met[0, 1] > met[0, 11]


def test_a_simulated_ladder_puts_the_strongest_strategy_on_top():
    report = simulate_ladder(
        Variant.from_spec({"rules": "official", "options": {"target": 200}}),
        ["random", "greedy", "colour-control"],
        copies=2,
        matches=240,
        seed=4,
    )
    assert report.games == 240
    assert report.sets == 60
    assert report.strategy_order()[-1] == "random"
    assert report.board()[0].strategy == "colour-control"
    assert min(report.meetings.values()) > 0


def test_ladder_sim_prints_the_board_and_the_matchmaking_figures():
    out = StringIO()
    call_command(
        "ladder_sim", "--matches", "80", "--options", "target=100", "--copies", "2", stdout=out
    )
    text = out.getvalue()
    assert "games: 80  sets (rating events): 20" in text
    assert "strategies by mean ordinal:" in text
    assert "meetings per pair: min" in text
    assert "mean rating gap at a table:" in text


@pytest.mark.parametrize("matches", [400, pytest.param(2000, marks=pytest.mark.slow)])
def test_a_long_ladder_ranks_the_strategies_as_their_win_rates_do(matches):
    # docs/bots.md, official: colour-control beats greedy (62.5%), both beat random (100%).
    # 400 matches in every CI run (a few seconds); the 2,000 of docs/ladders.md with
    # UNO_SLOW_TESTS=1 (about half a minute of CPU).
    report = simulate_ladder(
        Variant.from_spec({"rules": "official"}),
        ["random", "greedy", "colour-control"],
        copies=4,
        matches=matches,
        seed=0,
    )
    assert report.strategy_order() == ["colour-control", "greedy", "random"]
    assert report.board()[0].strategy == "colour-control"
