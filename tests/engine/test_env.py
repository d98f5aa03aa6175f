"""engine/env.py, the PettingZoo environment over the real engine (docs/training.md).

pettingzoo is an optional dependency (requirements-dev.txt): without it this file is skipped.
Every family is played (and precognitive over official and basic-plus, in every sight), through
pettingzoo's own api_test and seed_test, and by random masked agents to the end of the match,
checking at every step that the mask is exactly the engine's legal commands, that every command
sent is one the engine lists, and that the observation changes not at all when every card the
seat may not see is shuffled around (so it holds none of them).
"""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import math
import pickle
import random
import subprocess
import sys
import warnings
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from engine import MATCH_OVER, State  # noqa: E402
from engine import env as uno_env  # noqa: E402
from engine.env import (  # noqa: E402
    ACTIONS,
    CARD_INDEX,
    FIELD_AT,
    MAX_SEATS,
    N_ACTIONS,
    WAIT_ACTION,
    LazyInfo,
    SeatEncoder,
    UnoEnv,
    action_index,
    encode,
    placement_reward,
)
from engine.rules.precognitive import PRECOMMIT_LISTING_LIMIT  # noqa: E402
from tests.engine.decks import stacked  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
Spec = dict[str, Any]

# (id, spec, seats, seed): every family and every precognitive sight, in short matches (small
# hands, low targets). Random precommits flush most lanes, so a precognitive hand of random
# agents often runs for thousands of steps (docs/bots.md, "Long precognitive hands"): those use
# small hands at big tables, and seeds whose match lasts a couple of thousand steps.
FAMILIES: list[tuple[str, Spec, int, int]] = [
    ("official", {"rules": "official", "options": {"target": 150}}, 3, 3),
    ("basic-plus", {"rules": "basic-plus", "options": {"hand_size": 5}}, 4, 3),
    ("newno", {"rules": "newno", "options": {"target": 150, "hand_size": 5}}, 4, 3),
    ("censorship", {"rules": "censorship", "options": {"target": 150}}, 4, 3),
    (
        "precognitive-sighted",
        {"precognitive": {"lane": 2}, "options": {"scoring": "single-hand", "hand_size": 2}},
        6,
        2,
    ),
    (
        "precognitive-blind-fewest",
        {
            "precognitive": {"lane": "fewest-in-any-hand", "sight": "blind"},
            "options": {"scoring": "single-hand", "hand_size": 3},
        },
        5,
        1,
    ),
    (
        "precognitive-telepathic-basic-plus",
        {
            "rules": "basic-plus",
            "precognitive": {"lane": 1, "sight": "telepathic"},
            "options": {"hand_size": 2},
        },
        5,
        4,
    ),
]
IDS = [name for name, *_ in FAMILIES]


def block(obs: np.ndarray, name: str, size: int) -> np.ndarray:
    return obs[FIELD_AT[name] : FIELD_AT[name] + size]


def random_action(obs: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    """A random masked agent. It leaves out a `catch` of a seat the observation shows owes no
    call and a `call-uno` it does not owe: legal in basic-plus and newno, they only cost the
    caller cards, and uniform random agents that make them play hands of 100,000+ steps."""
    mask, vector = obs["action_mask"], obs["observation"]
    uncalled = block(vector, "uncalled", MAX_SEATS)
    legal = np.flatnonzero(mask)
    useful = [
        i
        for i in legal
        if not (ACTIONS[i][0] == "catch" and not uncalled[ACTIONS[i][1]])
        and not (ACTIONS[i][0] == "call-uno" and not uncalled[0])
    ]
    return int(rng.choice(useful or legal))


class Recorder:
    """Checks every command the env sends to the engine against the engine's own listing."""

    def __init__(self, env: UnoEnv) -> None:
        self.sent: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []  # what those commands decided
        variant = env.variant
        decide = variant.decide

        def checked(state: State, command: dict[str, Any]) -> list[dict[str, Any]]:
            seat = command.get("seat")
            legal = variant.legal_commands(state, seat)
            if command["type"] == "precommit" and command not in legal:
                # Any ordered choice is legal; the engine lists them all only up to a limit.
                hand, count = state.hands[seat], state.pending["count"]
                assert math.perm(len(hand), count) > PRECOMMIT_LISTING_LIMIT
                assert len(command["cards"]) == count
                assert not Counter(command["cards"]) - Counter(hand)
            else:
                assert command in legal, (command, legal)
            self.sent.append(command)
            events = decide(state, command)
            self.events += events
            return events

        variant.decide = checked


def hidden_shuffled(env: UnoEnv, seat: int, rng: random.Random) -> State:
    """The env's state with every card `seat` may not see shuffled among their places: other
    seats' hands, hidden lanes, the draw pile, another seat's drawn card, a censorship
    submission it is not party to."""
    state = env.state_.copy()
    ruleset = env.variant.ruleset
    places: list[tuple[list[str], int]] = []
    for other in range(state.seats):
        if other != seat:
            state.hands[other] = list(state.hands[other])
            places += [(state.hands[other], i) for i in range(len(state.hands[other]))]
        if not ruleset.lane_visible(other, seat):
            places += [(state.lanes[other], i) for i in range(len(state.lanes[other]))]
    places += [(state.draw, i) for i in range(len(state.draw))]
    cards = [where[i] for where, i in places]
    rng.shuffle(cards)
    for (where, i), card in zip(places, cards, strict=True):
        where[i] = card
    pending = state.pending or {}
    if pending.get("type") in ("drawn", "resubmit") and pending["seat"] != seat:
        state.pending = {**pending, "card": rng.choice(sorted(CARD_INDEX))}
    submission = state.extra.get("submission")
    if submission is not None and seat not in (submission["seat"], state.dealer):
        state.extra["submission"] = {**submission, "card": rng.choice(sorted(CARD_INDEX))}
    return state


def check_step(env: UnoEnv, rng: random.Random) -> None:
    """The invariants of the selected agent's observation and mask."""
    agent = env.agent_selection
    seat = int(agent.split("_")[1])
    obs, _, _, _, info = env.last()
    state = env.state_
    assert state is not None
    mask, vector = obs["action_mask"], obs["observation"]
    # The observation is the view's: its own hand exactly, and nothing that moves when the
    # cards it may not see are shuffled.
    hand = block(vector, "hand", 54)
    assert {c: int(hand[i]) for c, i in CARD_INDEX.items() if hand[i]} == Counter(state.hands[seat])
    env.state_ = hidden_shuffled(env, seat, rng)
    try:
        assert np.array_equal(env.observe(agent)["observation"], vector)
    finally:
        env.state_ = state
    assert np.array_equal(info["action_mask"], mask)
    assert info["view"] == env.variant.view(state, seat)
    for event in info["events"]:
        if event["type"] == "cards-drawn" and event["seat"] != seat:
            assert set(event["cards"]) == {None}
    if info["lane_chosen"]:
        return  # The middle of a precommit: its slots are checked by the engine when sent.
    # The mask is exactly the engine's legal commands (a precommit by its first slot), and
    # `wait` where the chance may be declined.
    legal = env.variant.legal_commands(state, seat)
    assert info["legal"] == legal
    expected = {action_index(command, state.seats) for command in legal}
    if info["optional"]:
        expected.add(WAIT_ACTION)
    assert set(np.flatnonzero(mask)) == expected
    others = [command for command in legal if command["type"] != "precommit"]
    assert len({action_index(command, state.seats) for command in others}) == len(others)


def play(env: UnoEnv, seed: int, *, check: bool = True) -> Iterator[str]:
    """Random masked agents play the episode to its end; yields each acting agent."""
    rng, shuffler = np.random.default_rng(seed), random.Random(seed)
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if check:
            check_step(env, shuffler)
        yield agent
        env.step(random_action(obs, rng))


# ------------------------------------------------------------------------ pettingzoo's own


@pytest.mark.parametrize(("name", "spec", "seats", "seed"), FAMILIES, ids=IDS)
def test_pettingzoos_api_test_passes(name: str, spec: Spec, seats: int, seed: int) -> None:
    with warnings.catch_warnings():
        # Two warnings api_test gives every env with dict observations (its own classic games
        # are on an allow-list by name).
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(uno_env.env(spec=spec, seats=seats), num_cycles=150)


def test_pettingzoos_seed_test_passes() -> None:
    """The same seed plays the same episode: deal, reshuffles and the order of chances."""
    seed_test(lambda: uno_env.env(spec={"rules": "newno"}, seats=4), num_cycles=100)


# --------------------------------------------------------------------------- whole matches


@pytest.mark.parametrize(("name", "spec", "seats", "seed"), FAMILIES, ids=IDS)
def test_random_masked_agents_play_matches_to_the_end(
    name: str, spec: Spec, seats: int, seed: int
) -> None:
    env = UnoEnv(spec, seats, max_steps=100_000)
    recorder = Recorder(env)
    acted = Counter(play(env, seed=seed))
    state = env.state_
    assert state is not None and state.status == MATCH_OVER
    assert env.agents == []  # every agent terminated and was stepped out
    assert set(acted) == set(env.possible_agents)
    assert sum(acted.values()) == env.steps
    places = state.places
    assert places is not None
    assert env._cumulative_rewards == {}  # stepped-out agents leave the dicts
    # The last command sent ended the match; every command before it was the engine's.
    assert recorder.sent and all("type" in command for command in recorder.sent)
    assert sorted(places)[0] == 1
    assert placement_reward(1, seats) == 1.0 and placement_reward(seats, seats) == -1.0


@pytest.mark.parametrize("reward", ["placement", "win"])
def test_rewards_come_once_at_the_end_of_the_match(reward: str) -> None:
    env = UnoEnv({"rules": "official", "options": {"scoring": "single-hand"}}, 3, reward=reward)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    while not any(env.terminations.values()):
        obs, cumulative, *_ = env.last()
        assert cumulative == 0.0
        env.step(random_action(obs, rng))
    places = env.state_.places
    assert places is not None and all(env.terminations.values())
    finals = {}
    for agent in env.agent_iter():
        _, cumulative, terminated, _, info = env.last()
        assert terminated and info["places"] == places
        finals[agent] = cumulative
        env.step(None)
    assert set(finals) == set(env.possible_agents)
    for seat, agent in enumerate(env.possible_agents):
        if reward == "placement":
            assert finals[agent] == placement_reward(places[seat], 3)
        else:
            assert finals[agent] == (1.0 if places[seat] == 1 else -1.0)


def test_max_steps_truncates_the_episode() -> None:
    env = UnoEnv({"rules": "official"}, 4, max_steps=7)
    agents = list(play(env, seed=1, check=False))
    assert len(agents) == 7 == env.steps
    assert env.agents == []
    assert env.state_.status != MATCH_OVER


def test_each_seat_is_shown_every_event_once_as_it_may_see_it() -> None:
    """info["events"]: the events since the seat's previous info, redacted for it."""
    spec, seats, seed = {"rules": "official", "options": {"target": 150}}, 3, 3
    env = UnoEnv(spec, seats)
    recorder = Recorder(env)
    shown: dict[int, list[dict[str, Any]]] = {seat: [] for seat in range(seats)}
    for agent in play(env, seed, check=False):
        shown[int(agent.split("_")[1])] += env.infos[agent]["events"]
    log = env.variant.start(seats, seed=seed) + recorder.events
    assert len(log) > 2000  # more than the env keeps (it drops what every seat has seen)
    for seat, events in shown.items():
        assert events == [env.variant.view_event(e, seat) for e in log[: len(events)]]
        assert len(events) > len(log) - 100


# ----------------------------------------------------------------- observations, pinned

# Seeded games whose observations are pinned: (spec, seats, seed, the sha256 of every agent's
# observation and mask at each of the first 250 steps, its first 16 hex digits). The digests
# were recorded with the encoding before it was written in place (engine/env_spaces.py at
# 76d100e: a new array, built through FIELD_AT, then clipped), so the faster encoding gives
# exactly the old observations, the selected agent's and the others'.
PINNED_OBSERVATIONS = [
    ({"rules": "official", "options": {"scoring": "single-hand"}}, 2, 11, "9d2675845d20f386"),
    # hands of up to 22 cards: past 16 the encoding counts a hand with numpy
    ({"rules": "official", "options": {"scoring": "single-hand"}}, 2, 23, "6595f03772ab44c8"),
    ({"rules": "newno", "options": {"target": 150, "hand_size": 5}}, 4, 3, "8d272a2e9e493746"),
    ({"rules": "censorship", "options": {"target": 150}}, 4, 3, "08796ad71d8e3e7e"),
    (
        {"precognitive": {"lane": 2, "sight": "blind"}, "options": {"hand_size": 4}},
        3,
        2,
        "d15e8544c0dcdfdc",
    ),
]


@pytest.mark.parametrize(("spec", "seats", "seed", "digest"), PINNED_OBSERVATIONS)
def test_observations_are_the_pinned_ones(spec: Spec, seats: int, seed: int, digest: str) -> None:
    env = UnoEnv(spec, seats)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    hashed = hashlib.sha256()
    for _ in range(250):
        if any(env.terminations.values()):
            break
        for agent in env.possible_agents:
            obs = env.observe(agent)
            hashed.update(agent.encode())
            hashed.update(obs["observation"].tobytes())
            hashed.update(obs["action_mask"].tobytes())
        env.step(random_action(env.observe(env.agent_selection), rng))
    assert hashed.hexdigest()[:16] == digest


def test_each_observation_is_the_callers_own() -> None:
    """observe returns new arrays: changing one changes neither the env nor the next one."""
    env = UnoEnv({"rules": "official"}, 3)
    env.reset(seed=4)
    first, *_ = env.last()
    again = env.observe(env.agent_selection)
    assert first["observation"] is not again["observation"]
    first["observation"][:] = 7
    first["action_mask"][:] = 1
    obs, *_ = env.last()
    assert np.array_equal(obs["observation"], again["observation"])
    assert np.array_equal(obs["action_mask"], again["action_mask"])
    assert np.array_equal(obs["action_mask"], env.infos[env.agent_selection]["action_mask"])


# --------------------------------------------------------- the observation kept in place


@pytest.mark.parametrize(("name", "spec", "seats", "seed"), FAMILIES, ids=IDS)
def test_the_observation_kept_in_place_is_a_fresh_encoding_of_the_view(
    name: str, spec: Spec, seats: int, seed: int
) -> None:
    """Each seat's vector is brought up to date in its own buffer from the state (SeatEncoder,
    only what changed): at every step of random play it equals `encode` of the seat's view,
    and a new encoder's first vector of the same state."""
    env = UnoEnv(spec, seats)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ruleset = env.variant.ruleset
    steps = 0
    for _agent in env.agent_iter(3000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        chance, state = env.chance, env.state_
        to_choose = chance.lane_count - len(chance.chosen)
        optional = bool(obs["action_mask"][WAIT_ACTION])
        view = env.variant.view(state, chance.seat)
        expected = encode(view, chance.chosen, to_choose, optional)
        assert np.array_equal(obs["observation"], expected), (name, steps)
        fresh = SeatEncoder(ruleset, seats, chance.seat)
        assert np.array_equal(fresh.update(state, chance.chosen, to_choose, optional), expected)
        env.step(random_action(obs, rng))
        steps += 1
    assert steps > 150


def test_a_seat_encoder_follows_any_state_it_is_given() -> None:
    """States out of order (a replay's, imitation.py's), a hand changed in any way, a new
    hand, back again: each vector is the fresh encoding of its state."""
    env = UnoEnv({"rules": "official", "options": {"target": 150}}, 3)
    states = []
    for _ in play(env, seed=3, check=False):
        states.append(env.state_)
    assert len({state.hand_number for state in states}) > 1
    encoder = SeatEncoder(env.variant.ruleset, 3, 1)
    order = random.Random(1).sample(range(len(states)), 400) + list(range(0, len(states), 7))
    for at in order:
        state = states[at]
        vector = encoder.update(state, [], 0, at % 2 == 0)
        assert np.array_equal(vector, encode(env.variant.view(state, 1), [], 0, at % 2 == 0))


# ------------------------------------------------------------------- infos, made when read


def test_an_info_is_made_when_read_as_it_was_at_its_step() -> None:
    """infos[agent] fills itself on its first read with what it would have held if made at
    once: read many steps later, it is its own step's view, events and mask."""
    spec, seats, seed = {"rules": "official", "options": {"scoring": "single-hand"}}, 3, 8
    env, eager = UnoEnv(spec, seats), UnoEnv(spec, seats)
    env.reset(seed=seed)
    eager.reset(seed=seed)
    rng = np.random.default_rng(seed)
    kept: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for _ in range(60):
        agent = env.agent_selection
        info = env.infos[agent]
        assert isinstance(info, LazyInfo) and isinstance(info, dict)
        # the same info, read at once (every entry, through dict's own copy)
        kept.append((info, dict(eager.infos[agent])))
        action = random_action(env.observe(agent), rng)
        env.step(action)
        eager.step(action)
    for info, now in kept:  # read late
        assert list(info) == list(now) == KEYS
        assert {k: info[k] for k in KEYS[1:]} == {k: now[k] for k in KEYS[1:]}
        assert np.array_equal(info["action_mask"], now["action_mask"])
    late = kept[10][0]
    for same in (dict(late), {**late}, copy.copy(late), pickle.loads(pickle.dumps(late))):
        assert type(same) is dict and list(same) == KEYS
        assert same["view"] == late["view"] and same["events"] == late["events"]
    assert "'view'" in repr(late) and len(late) == 6 and late.get("optional") is False
    # == and != with another dict go through the info (its entries are made first)
    fresh = env.infos[env.agent_selection]
    assert fresh != {} and not fresh == {}  # noqa: SIM201


KEYS = ["action_mask", "view", "legal", "optional", "lane_chosen", "events"]


def test_an_info_read_through_any_method_is_filled_first() -> None:
    env = UnoEnv({"rules": "official"}, 2)
    env.reset(seed=1)
    reads = [
        lambda info: info["view"],
        lambda info: "view" in info,
        lambda info: len(info),
        lambda info: list(info.items()),
        lambda info: info.get("legal"),
        lambda info: info.copy(),
        lambda info: info.setdefault("mine", 1),
        lambda info: info.update(mine=1),
        lambda info: info.pop("events"),
        lambda info: info | {},
        lambda info: json.dumps(list(info.keys())),
    ]
    for read in reads:
        env.reset(seed=1)
        info = env.infos[env.agent_selection]
        read(info)
        assert dict.__len__(info) >= 5, read  # its entries are in the dict itself now
    env.reset(seed=1)
    info = env.infos[env.agent_selection]
    info["mine"] = 2  # written before any read: the entries are made first, then this one
    assert list(info) == [*KEYS, "mine"] and info["view"]["seat"] == env.chance.seat


# ---------------------------------------------------------------------- actions, one by one


def test_a_masked_out_action_is_refused_and_changes_nothing() -> None:
    env = UnoEnv({"rules": "official"}, 3)
    env.reset(seed=2)
    obs, *_ = env.last()
    before, selected = env.state_, env.agent_selection
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="not legal"):
        env.step(N_ACTIONS)
    assert env.state_ is before and env.agent_selection == selected and env.steps == 0


def test_action_for_sends_exactly_the_chosen_engine_command() -> None:
    """The dict path: pick a command of info["legal"], send its action."""
    env = UnoEnv({"rules": "censorship"}, 4)
    recorder = Recorder(env)
    env.reset(seed=4)
    for _ in range(40):
        info = env.infos[env.agent_selection]
        command = info["legal"][-1]
        env.step(env.action_for(command))
        assert recorder.sent[-1] == command or recorder.sent[-2] == command


def test_open_choices_wait_then_the_youngest_seat_must_play() -> None:
    """newno's open start: each seat may wait; when all have, close-window forces the
    youngest (ages from the reset options, as Variant.start takes them)."""
    env = UnoEnv({"rules": "newno"}, 4)
    recorder = Recorder(env)
    env.reset(seed=8, options={"ages": [40, 12, 30, 25]})
    assert env.state_.pending["type"] == "first-play"
    waited = set()
    for _ in range(4):
        obs, *_ = env.last()
        assert obs["action_mask"][WAIT_ACTION] == 1
        assert block(obs["observation"], "optional", 1)[0] == 1
        waited.add(env.agent_selection)
        env.step(WAIT_ACTION)
    assert waited == set(env.possible_agents)
    assert recorder.sent == [{"type": "close-window"}]
    pending = env.state_.pending
    assert pending is not None and pending["forced"] and pending["seat"] == 1
    obs, *_ = env.last()
    assert env.agent_selection == "seat_1" and obs["action_mask"][WAIT_ACTION] == 0


def test_an_owed_uno_call_is_offered_first_then_catches_then_the_turn() -> None:
    """bots/driver.py's order: the owing seat, the seats not in to_act, then the turn."""
    env = UnoEnv({"rules": "official", "options": {"hand_size": 2}}, 3)
    recorder = Recorder(env)
    hands = [["green-5", "green-6"], ["red-1", "red-2"], ["blue-3", "blue-4"]]
    env.reset(seed=1, options={"deck": stacked(hands, "red-5", first=1), "dealer": 0})
    assert env.agent_selection == "seat_1"
    env.step(env.action_for({"type": "play", "seat": 1, "card": "red-1", "uno": False}))
    asked = []
    for _ in range(2):
        obs, *_ = env.last()
        asked.append(
            (env.agent_selection, {ACTIONS[i] for i in np.flatnonzero(obs["action_mask"])})
        )
        env.step(WAIT_ACTION)
    assert asked == [
        ("seat_1", {("wait",), ("call-uno",)}),
        ("seat_0", {("wait",), ("catch", 1)}),  # seat 1 is one seat clockwise of seat 0
    ]
    obs, *_ = env.last()
    assert env.agent_selection == "seat_2" and not obs["action_mask"][WAIT_ACTION]
    env.step(uno_env.ACTION_INDEX[("catch", 2)])
    assert recorder.sent[-1] == {"type": "catch", "seat": 2, "target": 1}
    assert len(env.state_.hands[1]) == 3  # the uno_penalty of 2
    assert env.agent_selection == "seat_2"  # a catch is no turn: seat 2 still has to play


def test_a_precommit_is_chosen_one_lane_slot_at_a_time() -> None:
    env = UnoEnv({"precognitive": {"lane": 3}, "options": {"hand_size": 7}}, 3)
    recorder = Recorder(env)
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    while env.state_.pending["type"] != "precommit":
        obs, *_ = env.last()
        env.step(random_action(obs, rng))
    agent, seat = env.agent_selection, env.chance.seat
    assert env.state_.pending["seat"] == seat
    hand = list(env.state_.hands[seat])
    count = env.state_.pending["count"]
    assert count == 3
    chosen: list[str] = []
    for slot in range(count):
        obs, *_ = env.last()
        assert env.agent_selection == agent
        offered = {ACTIONS[i][1] for i in np.flatnonzero(obs["action_mask"])}
        assert offered == set((Counter(hand) - Counter(chosen)).elements())
        assert block(obs["observation"], "lane_to_choose", 1)[0] == count - slot
        card = hand[-1 - slot]
        chosen.append(card)
        sent = len(recorder.sent)
        env.step(uno_env.ACTION_INDEX[("lane", card, False)])
        assert len(recorder.sent) == (sent if slot < count - 1 else sent + 1)
    assert recorder.sent[-1] == {"type": "precommit", "seat": seat, "cards": chosen, "uno": False}
    # Three seats: the next turn is another seat's, so the lane is still as filled.
    assert env.state_.lanes[seat] == chosen


def test_seats_are_named_relative_to_the_acting_seat() -> None:
    assert (
        action_index({"type": "catch", "seat": 3, "target": 1}, 4)
        == (uno_env.ACTION_INDEX[("catch", 2)])
    )
    swap = {"type": "swap", "seat": 2, "target": 1, "other": 0}
    assert ACTIONS[action_index(swap, 4)] == ("swap", 2, 3)
    with pytest.raises(ValueError, match="no action"):
        action_index({"type": "next-hand"}, 4)


def test_render_shows_the_public_state_and_the_acting_seats_hand() -> None:
    env = UnoEnv({"rules": "official"}, 3, render_mode="ansi")
    env.reset(seed=9)
    text = env.render()
    state = env.state_
    assert isinstance(text, str) and f"top {state.top} ({state.color})" in text
    seat = env.chance.seat
    assert f"seat_{seat} to act (play), holding {state.hands[seat]}" in text
    assert UnoEnv({"rules": "official"}, 3).render() is None  # no render_mode: nothing


def test_a_bad_configuration_is_refused() -> None:
    with pytest.raises(ValueError, match="censorship needs 3"):
        UnoEnv({"rules": "censorship"}, 2)
    with pytest.raises(ValueError, match="seats"):
        UnoEnv({"rules": "official"}, 11)
    with pytest.raises(ValueError, match="reward"):
        UnoEnv({"rules": "official"}, 2, reward="points")
    with pytest.raises(ValueError, match="precognitive cannot wrap newno"):
        UnoEnv({"rules": "newno", "precognitive": {}}, 3)


# ----------------------------------------------------------------------------- optionality


# The environment's modules, and the only engine modules that may import each.
IMPORTERS = {
    "env": ("env.py", "imitation.py"),
    "env_actions": ("env.py", "env_chance.py", "env_core.py", "env_spaces.py", "imitation.py"),
    "env_spaces": ("env.py", "env_chance.py", "env_core.py", "imitation.py"),
    "env_chance": ("env.py", "env_core.py"),
    "env_core": ("env.py",),
}


def test_the_engine_neither_imports_env_nor_needs_pettingzoo() -> None:
    probe = (
        "import sys\n"
        "for name in ('pettingzoo', 'gymnasium', 'numpy'):\n"
        "    sys.modules[name] = None  # an import of it now fails\n"
        "import engine\n"
        "from engine import Variant\n"
        "variant = Variant.from_spec({'rules': 'newno'})\n"
        "variant.view(variant.replay(variant.start(3, seed=1)), 0)\n"
        "assert 'engine.env' not in sys.modules\n"
        "assert 'engine.env_actions' not in sys.modules\n"
        "assert 'engine.env_spaces' not in sys.modules\n"
        "assert 'engine.env_chance' not in sys.modules\n"
        "assert 'engine.env_core' not in sys.modules\n"
        "assert 'engine.imitation' not in sys.modules\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    engine = ROOT / "engine"
    importers = []
    for path in engine.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [alias.name for alias in node.names]
                # env_spaces (numpy's tables) is env.py's alone, like env itself, and its
                # chance's and step machinery's (env_chance.py, which only env.py and the core
                # import, and env_core.py, which env.py alone imports), and the open
                # database's loader's (imitation.py, as optional as env).
                imported = {n.split(".")[-1] for n in names} & set(IMPORTERS)
                if any(path.name not in IMPORTERS[name] for name in imported):
                    importers.append(str(path))
    assert importers == []
