"""Evaluating a finished match's decisions and luck from each seat's information: pure Python.

`analyse_match(variant_spec, events, seed=...)` reads a finished match's whole log, finds the
command behind each step (analysis/inference.py), and values:

- each decision of a seat asked to act with two legal options or more: every option (at most
  `MAX_OPTIONS`) is played out `playouts` times to the end of the hand by the family's strongest
  built-in bot in every seat, from deals the deciding seat could not tell from the true one
  (analysis/sampling.py), the same deals and the same playout generators for every option
  (common random numbers); its cost is the best option's mean points less the chosen one's;
- each seat's deal: its value at the hand's start against the average seat's;
- each draw: the seat's value after the command that drew less its value of that command
  before it (the expectation over the cards it could draw).

Reproducible from `seed`: every generator is seeded from it and from where it is used.
docs/analysis.md says what each figure means and where it is weak.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from analysis.inference import Step, infer_commands
from analysis.report import (
    Decision,
    HandReport,
    MatchAnalysis,
    OptionValue,
    SeatHand,
    SeatSummary,
)
from analysis.sampling import Knowledge, determinize
from bots.driver import BotFailed, next_command
from bots.strategies import Strategy, find_strategy
from engine import HAND_OVER, PLAYING, IllegalCommand, State, Variant
from engine.commands import NEXT_HAND
from engine.events import CARDS_DRAWN, HAND_ENDED, apply
from engine.rules import Precognitive

__all__ = ["DEFAULT_PLAYOUTS", "MAX_OPTIONS", "MatchAnalysis", "analyse_match", "strongest_bot"]

Command = dict[str, Any]
Event = dict[str, Any]

# Playouts per option of a decision (and per luck estimate): fits a 4-seat 500-point match in
# the budget of docs/analysis.md ("The benchmark").
DEFAULT_PLAYOUTS = 16
# At most this many options of one decision are played out (a precommit may list hundreds):
# the chosen one, the strongest bot's, then the others in a seeded order.
MAX_OPTIONS = 8
# A playout that runs past this many commands ends with nobody winning (no points).
PLAYOUT_CAP = 400

# Sampling stops early once the playouts of an evaluation have averaged this many commands
# (a usual hand's rest is a few dozen), never before MIN_SAMPLES samples.
COMMAND_BUDGET = 150
MIN_SAMPLES = 2

# The strongest built-in bot per family (docs/bots.md, "Measured strength").
STRONGEST = {
    "official": "colour-control",
    "basic-plus": "colour-control",
    "newno": "stacker",
    "censorship": "censor",
}


def strongest_bot(variant: Variant) -> str:
    """The name of the strongest built-in bot for the variant's family."""
    if isinstance(variant.ruleset, Precognitive):
        return "lane-planner"
    return STRONGEST.get(variant.ruleset.name, "greedy")


@dataclass
class _Stats:
    """The playouts of one option: the deciding seat's points, and every seat's wins."""

    seat: int
    seats: int
    points: float = 0.0
    wins: list[int] = field(default_factory=list)
    n: int = 0
    # The seat's points in each sample, by the sample's number (for held-out estimates).
    by_sample: dict[int, int] = field(default_factory=dict)

    def add(self, k: int, points: list[int], winner: int | None) -> None:
        if not self.wins:
            self.wins = [0] * self.seats
        self.points += points[self.seat]
        self.by_sample[k] = points[self.seat]
        if winner is not None:
            self.wins[winner] += 1
        self.n += 1

    @property
    def value(self) -> float:
        return self.points / self.n if self.n else 0.0

    @property
    def chances(self) -> list[float]:
        if not self.n:
            return [0.0] * self.seats
        return [w / self.n for w in self.wins]


class _Analyst:
    def __init__(self, variant: Variant, seats: int, seed: int, playouts: int) -> None:
        self.variant = variant
        self.seats = seats
        self.seed = seed
        self.playouts = playouts
        policy: Strategy = find_strategy(strongest_bot(variant))
        self.policy = policy
        self.strategies = dict.fromkeys(range(seats), policy)
        self.lane_visible = variant.ruleset.lane_visible
        self.spent = 0

    def playout(self, state: State, rng: random.Random) -> tuple[list[int], int | None]:
        """Play the hand out with the strongest bot in every seat: each seat's points, the
        winner (None: it did not end within PLAYOUT_CAP commands). Counts the commands played
        in `self.spent`."""
        variant, strategies = self.variant, self.strategies
        commands = 0
        while state.status == PLAYING and commands < PLAYOUT_CAP:
            command = next_command(variant, state, strategies, rng)
            if not isinstance(command, dict):
                break
            events = variant.decide(state, command)
            state = variant.replay(events, state)
            commands += 1
        self.spent += commands
        return _outcome(state, self.seats)

    def evaluate(
        self,
        state: State,
        seat: int,
        known: list[list[str]],
        options: list[Command | None],
        key: str,
        keep: dict[int, list[str]] | None = None,
    ) -> list[_Stats]:
        """Each option's playouts from `seat`'s information (None: the state as it is)."""
        variant = self.variant
        stats = [_Stats(seat, self.seats) for _ in options]
        # Long hands (precognitive lanes that keep flushing) stop the sampling early: past
        # COMMAND_BUDGET commands a playout on average, no new sample is drawn (never fewer
        # than MIN_SAMPLES). Commands, not seconds: the same log and seed, the same samples.
        budget = COMMAND_BUDGET * self.playouts * len(options)
        start = self.spent
        for k in range(self.playouts):
            if k >= MIN_SAMPLES and self.spent - start > budget:
                break
            sample = f"{self.seed}:{key}:{k}"
            rng = random.Random(sample)
            dealt = determinize(state, seat, known, self.lane_visible, rng, sample, keep)
            for option, stat in zip(options, stats, strict=True):
                play_rng = random.Random(f"{sample}:play")
                try:
                    if option is None:
                        after = dealt
                    else:
                        after = variant.replay(variant.decide(dealt, option), dealt)
                    points, winner = self.playout(after, play_rng)
                except (IllegalCommand, BotFailed):
                    continue
                stat.add(k, points, winner)
        return stats


def _half_mean(stat: _Stats, half: int) -> float | None:
    values = [v for k, v in stat.by_sample.items() if k % 2 == half]
    return sum(values) / len(values) if values else None


def held_out_cost(stats: list[_Stats]) -> float:
    """The chosen option's (stats[0]) shortfall against the best, cross-fitted: the best option
    is picked on the even samples and measured against the chosen one on the odd samples, and
    the other way round, and the two gaps averaged. Picking and measuring on the same samples
    would count the luck of the winning option's samples as a cost (the maximum of noisy
    estimates is biased upwards); this estimate is not."""
    gaps: list[float] = []
    for pick in (0, 1):
        means = [_half_mean(stat, pick) for stat in stats]
        known = [j for j, m in enumerate(means) if m is not None]
        if not known or means[0] is None:
            continue
        best = max(known, key=lambda j: (means[j] or 0.0, j == 0))
        measured, chosen = _half_mean(stats[best], 1 - pick), _half_mean(stats[0], 1 - pick)
        if measured is not None and chosen is not None:
            gaps.append(measured - chosen)
    return sum(gaps) / len(gaps) if gaps else 0.0


def _outcome(state: State, seats: int) -> tuple[list[int], int | None]:
    if state.status != PLAYING:
        last = state.extra.get("last_hand")
        if last is not None:
            return list(last["gained"]), last["winner"]
    return [0] * seats, None


def _pick_options(analyst: _Analyst, state: State, step: Step, rng: random.Random) -> list[Command]:
    """The options worth playing out: the legal ones (the chosen first), at most MAX_OPTIONS:
    the chosen, the strongest bot's choice, then a seeded sample of the rest."""
    seat = step.seat
    assert seat is not None
    legal = [c for c in step.legal if c != step.command]
    options = [step.command]
    if len(legal) + 1 <= MAX_OPTIONS:
        return options + legal
    view = analyst.variant.view(state, seat)
    suggested = analyst.policy(view, step.legal, random.Random(rng.random()))
    if suggested is not None and suggested != step.command and suggested in legal:
        options.append(suggested)
        legal.remove(suggested)
    rng.shuffle(legal)
    return options + legal[: MAX_OPTIONS - len(options)]


def _option(command: Command, stat: _Stats) -> OptionValue:
    return OptionValue(
        command=command, value=round(stat.value, 3), win_chance=round(stat.chances[stat.seat], 4)
    )


@dataclass
class _HandAccount:
    points: list[int]
    deal: list[float]
    draw: list[float]
    cost: list[float]
    decisions: list[int]
    chances: dict[int, list[float]] = field(default_factory=dict)


def analyse_match(
    variant_spec: dict[str, Any],
    events: list[dict[str, Any]],
    *,
    seed: int,
    playouts: int = DEFAULT_PLAYOUTS,
    seats: Collection[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MatchAnalysis:
    """The analysis of a finished match's log (docs/analysis.md)."""
    started = time.process_time()
    variant = Variant.from_spec(variant_spec)
    count = events[0]["seats"]
    wanted = set(range(count)) if seats is None else {s for s in seats if 0 <= s < count}
    analyst = _Analyst(variant, count, seed, max(1, playouts))

    # Pass 1: the commands, and what every seat knew before and after each.
    knowledge = Knowledge(count, analyst.lane_visible)
    steps: list[tuple[Step, State, list[list[list[str]]], list[list[list[str]]]]] = []
    for step, after in infer_commands(variant, events):
        before_known = knowledge.copy().known
        state = step.state.fork()
        for event in events[step.version : step.version + step.events]:
            knowledge.see(event, state)
            apply(state, event)
        steps.append((step, after, before_known, knowledge.copy().known))

    # Which steps are decisions worth valuing, and which start a hand.
    decisions = [
        i
        for i, (step, _, _, _) in enumerate(steps)
        if step.seat in wanted and step.seat in step.state.to_act and len(step.legal) > 1
    ]
    # A match forfeited before its first command (a resignation straight after the deal) has no
    # step at all: no deal to value, no decision; its summaries still give the scores.
    starts = ([0] if steps else []) + [
        i + 1 for i, (step, _, _, _) in enumerate(steps[:-1]) if _starts_hand(step)
    ]
    draws = [
        i
        for i, (step, after, _, _) in enumerate(steps)
        if step.seat is not None and after.status == PLAYING and _drawers(events, step) & wanted
    ]
    total = len(decisions) + len(starts) + len(draws)
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    hands: dict[int, _HandAccount] = {}

    def account(hand: int) -> _HandAccount:
        if hand not in hands:
            zeros = [0.0] * count
            hands[hand] = _HandAccount([0] * count, zeros[:], zeros[:], zeros[:], [0] * count)
        return hands[hand]

    # Deals: each seat's value at the hand's start, from its own information.
    for i in starts:
        step, _, known, _ = steps[i]
        state = step.state
        values: dict[int, float] = {}
        chances = [0.0] * count
        for s in range(count):  # every seat: the average seat is the average of all
            stat = analyst.evaluate(state, s, known[s], [None], f"deal:{step.version}:{s}")[0]
            values[s] = stat.value
            chances[s] = stat.chances[s]
        mean = sum(values.values()) / len(values) if values else 0.0
        acc = account(state.hand_number)
        for s, value in values.items():
            if s in wanted:
                acc.deal[s] = round(value - mean, 3)
        acc.chances[step.version] = [round(c, 4) for c in chances]
        tick()

    # Decisions.
    analysed: list[Decision] = []
    chosen_value: dict[int, float] = {}
    for i in decisions:
        step, after, known, _ = steps[i]
        seat = step.seat
        assert seat is not None
        rng = random.Random(f"{seed}:options:{step.version}")
        options = _pick_options(analyst, step.state, step, rng)
        stats = analyst.evaluate(
            step.state, seat, known[seat], list(options), f"decision:{step.version}"
        )
        valued = [_option(c, st) for c, st in zip(options, stats, strict=True)]
        best = max(range(len(valued)), key=lambda j: (valued[j].value, j == 0))
        cost = min(valued[best].value - valued[0].value, max(0.0, held_out_cost(stats)))
        analysed.append(
            Decision(
                version=step.version,
                hand=step.state.hand_number,
                seat=seat,
                chosen=valued[0],
                best=valued[best],
                cost=round(cost, 3),
                options=valued,
                samples=stats[0].n,
            )
        )
        chosen_value[i] = stats[0].value
        acc = account(step.state.hand_number)
        acc.cost[seat] += cost
        acc.decisions[seat] += 1
        if after.status == PLAYING:
            acc.chances[step.version + step.events] = [round(c, 4) for c in stats[0].chances]
        tick()

    # Draws: the value after the command less its value before (over the cards it could draw).
    for i in draws:
        step, after, known_before, known_after = steps[i]
        actor = step.seat
        assert actor is not None
        for s in sorted(_drawers(events, step) & wanted):
            if s == actor and i in chosen_value:
                before = chosen_value[i]
            else:
                keep = {actor: _cards_of(step.command)} if actor != s else None
                before = analyst.evaluate(
                    step.state,
                    s,
                    known_before[s],
                    [step.command],
                    f"draw-before:{step.version}:{s}",
                    keep,
                )[0].value
            stat = analyst.evaluate(
                after, s, known_after[s], [None], f"draw-after:{step.version}:{s}"
            )[0]
            account(step.state.hand_number).draw[s] += stat.value - before
            version = step.version + step.events
            acc = account(step.state.hand_number)
            if version not in acc.chances:
                acc.chances[version] = [round(c, 4) for c in stat.chances]
        tick()

    # What each hand gave.
    reports: list[HandReport] = []
    hand = 0
    for at, event in enumerate(events):
        if event["type"] == "hand-started":
            hand = event["hand"]
        elif event["type"] == HAND_ENDED:
            acc = account(hand)
            acc.points = list(event["gained"])
            acc.chances[at] = [1.0 if s == event["winner"] else 0.0 for s in range(count)]
    for number in sorted(hands):
        acc = hands[number]
        reports.append(
            HandReport(
                hand=number,
                seats=[
                    SeatHand(
                        seat=s,
                        points=acc.points[s],
                        deal_luck=round(acc.deal[s], 3),
                        draw_luck=round(acc.draw[s], 3),
                        decision_cost=round(acc.cost[s], 3),
                        decisions=acc.decisions[s],
                    )
                    for s in range(count)
                ],
                chances=sorted(acc.chances.items()),
            )
        )
    final = steps[-1][1] if steps else variant.replay(events)
    summaries = []
    for s in range(count):
        n = sum(h.decisions[s] for h in hands.values())
        cost = sum(h.cost[s] for h in hands.values())
        luck = sum(h.deal[s] + h.draw[s] for h in hands.values())
        summaries.append(
            SeatSummary(
                seat=s,
                score=final.scores[s],
                decisions=n,
                decision_cost=round(cost, 3),
                mean_cost=round(cost / n, 3) if n else 0.0,
                luck=round(luck, 3),
            )
        )
    return MatchAnalysis(
        family="precognitive" if "precognitive" in variant.spec else variant.spec["rules"],
        seats=count,
        seed=seed,
        playouts=analyst.playouts,
        hands=reports,
        decisions=analysed,
        summaries=summaries,
        cpu_seconds=round(time.process_time() - started, 3),
    )


def _starts_hand(step: Step) -> bool:
    return step.command.get("type") == NEXT_HAND or step.state.status == HAND_OVER


def _drawers(events: list[Event], step: Step) -> set[int]:
    """The seats that drew a card in the step's events."""
    return {
        e["seat"]
        for e in events[step.version : step.version + step.events]
        if e["type"] == CARDS_DRAWN and e["cards"]
    }


def _cards_of(command: Command) -> list[str]:
    """The cards a command shows (a played card, a precommitted lane)."""
    if "card" in command:
        return [command["card"]]
    return list(command.get("cards") or [])
