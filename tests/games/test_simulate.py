"""`manage.py simulate`: bot-versus-bot matches in-process, and the table it prints."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command


def simulate(*args: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue()


def win_rates(output: str) -> list[float]:
    return [float(m) for m in re.findall(r"^\s+\d+\s+\S+\s+([\d.]+)%", output, re.MULTILINE)]


def test_it_prints_a_row_per_seat_whose_win_rates_add_up():
    output = simulate("--rules", "official", "--seats", "3", "--matches", "6")
    rates = win_rates(output)
    assert len(rates) == 3
    assert sum(rates) == pytest.approx(100, abs=0.2)
    assert re.search(r"hands per match: \d+\.\d\d", output)
    assert re.search(r"matches per second: \d+\.\d\d", output)


def test_it_plays_the_precognitive_modifier_from_key_value_pairs():
    output = simulate(
        "--rules",
        "basic-plus",
        "--seats",
        "2",
        "--matches",
        "3",
        "--bots",
        "greedy",
        "--precognitive",
        "lane=2,sight=blind",
    )
    assert "'precognitive': {'lane': 2, 'sight': 'blind'}" in output
    assert sum(win_rates(output)) == pytest.approx(100, abs=0.2)


def test_greedy_beats_random_legal_in_official():
    output = simulate(
        "--rules",
        "official",
        "--seats",
        "2",
        "--matches",
        "30",
        "--bots",
        "greedy,random",
        "--options",
        "target=200",
    )
    greedy, random_legal = win_rates(output)
    assert greedy > 70 > random_legal


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "nope"], "unknown ruleset 'nope'"),
        (["--bots", "genius"], "unknown bot 'genius'"),
        (["--options", "target"], "expected key=value"),
        (["--options", "colour=red"], "unknown option(s) for official: colour"),
        (["--seats", "11"], "official needs 2 to 10 seats"),
        (["--matches", "0"], "--matches must be at least 1"),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_message(args, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        simulate(*args)


FAMILIES = [("official", None), ("basic-plus", None), ("newno", None), ("censorship", None)]
PRECOGNITIVE = [
    (base, f"lane={lane},sight={sight}")
    for base in ("official", "basic-plus")
    for lane in ("1", "2", "initial-hand", "half-hand", "fewest-in-any-hand")
    for sight in ("sighted", "blind", "telepathic")
]


@pytest.mark.parametrize(("rules", "precognitive"), FAMILIES + PRECOGNITIVE)
def test_it_runs_every_family_and_combination_with_every_strategy(rules, precognitive):
    from bots.strategies import STRATEGIES

    args = ["--rules", rules, "--seats", str(len(STRATEGIES)), "--matches", "2"]
    args += ["--bots", ",".join(STRATEGIES), "--options", "hand_size=4,target=60"]
    if precognitive is not None:
        args += ["--precognitive", precognitive]
    output = simulate(*args)
    rates = win_rates(output)
    assert len(rates) == len(STRATEGIES)
    assert sum(rates) == pytest.approx(100, abs=0.2)
    for name in STRATEGIES:
        assert re.search(rf"^\s+\d+\s+{re.escape(name)}\s", output, re.MULTILINE)
